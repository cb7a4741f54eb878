//! The shortcuts' help: every shortcut listed in a modal dialog, with the
//! switch to turn them off (`browser/shortcuts.rs` listens for the keys).
//! Drawn by `extras`, when `?` or the account menu first asks for it.
//!
//! Words: later.

use crate::browser::shortcuts::{enabled, set_enabled, Help};
use crate::i18n::{t, Text};
use leptos::prelude::*;

/// The shortcuts, as the help lists them.
pub fn shortcuts() -> [(Text, Text); 11] {
    [
        (Text::new_plain("j"), t::shortcut_next().into()),
        (Text::new_plain("k"), t::shortcut_previous().into()),
        (Text::new_plain("l"), t::shortcut_like().into()),
        (Text::new_plain("b"), t::shortcut_bookmark().into()),
        (Text::new_plain("r"), t::shortcut_reply().into()),
        (t::shortcut_open_keys().into(), t::shortcut_open().into()),
        (Text::new_plain("n"), t::shortcut_new().into()),
        (Text::new_plain("/"), t::shortcut_search().into()),
        (Text::new_plain("g h"), t::shortcut_go_home().into()),
        (Text::new_plain("g l"), t::shortcut_go_lists().into()),
        (Text::new_plain("?"), t::shortcut_help().into()),
    ]
}

/// The list of shortcuts, as a modal dialog, with the switch to turn them off.
#[component]
pub fn ShortcutsHelp() -> impl IntoView {
    let Help(open) = expect_context::<Help>();
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let on = RwSignal::new(enabled());
    Effect::new(move |_| {
        let Some(dialog) = dialog.get() else { return };
        if open.get() {
            on.set(enabled());
            if !dialog.open() {
                let _ = dialog.show_modal();
            }
        } else if dialog.open() {
            dialog.close();
        }
    });
    view! {
        <dialog node_ref=dialog class="shortcuts-help" aria-labelledby="shortcuts-title" on:close=move |_| open.set(false)>
            <h2 id="shortcuts-title">{t::keyboard_shortcuts()}</h2>
            <dl>
                {shortcuts().into_iter().map(|(key, what)| view! {
                    <div><dt><kbd>{key}</kbd></dt><dd>{what}</dd></div>
                }).collect_view()}
            </dl>
            <p class="note">{t::shortcuts_never_while_typing()}</p>
            <label class="switch">
                <input type="checkbox" prop:checked=move || on.get() on:change=move |ev| {
                    let checked = event_target_checked(&ev);
                    set_enabled(checked);
                    on.set(checked);
                }/>
                " " {t::use_keyboard_shortcuts()}
            </label>
            <div class="actions">
                <button type="button" on:click=move |_| open.set(false)>{t::close()}</button>
            </div>
        </dialog>
    }
}
