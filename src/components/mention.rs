//! `@`-mention completion, in every composer (a new post, a reply, an
//! edit, a waiting post's text). Typing `@` and a letter offers the people
//! this account has met (`store/people.rs`, ranked by how recently and how
//! often); a name not known here is asked of the server once typing
//! pauses, and a name no one has is marked under the box before sending
//! (and still allowed).
//!
//! The list follows the WAI-ARIA combobox pattern on the text box itself:
//! `aria-autocomplete="list"`, `aria-controls` and `aria-activedescendant`
//! on the box (a `textarea` may not take the combobox role, so it keeps its
//! own), a `listbox` of `option`s; Up and Down choose, Enter or Tab picks,
//! Escape closes, a click picks; how many match is said in a status.
//!
//! [`MentionSlot`], in the composer's own code, only notices a mention; the
//! list and what it needs come with `composing` then (`mention_list`),
//! beside a thread's boxes, with which it shares most of its code; in a
//! group of its own it cost Home 20 KB (docs/size.md, "@-mentions and
//! threads").

use super::later::{later, lazy, Meanwhile};
use crate::text::mentions;
use leptos::html::Textarea;
use leptos::prelude::*;

/// Completion for the composer whose box is `field`, holding `text`; a pick
/// hands the new text to `typed`, as typing does.
#[component]
pub fn MentionSlot(field: NodeRef<Textarea>, text: Signal<String>, typed: Callback<String>) -> impl IntoView {
    // Once a mention has appeared, the list stays (it closes by itself).
    let wanted = Memo::new(move |was: Option<&bool>| was.copied() == Some(true) || text.with(|t| mentions::any(t)));
    move || {
        wanted.get().then(|| {
            later(
                mention_list::GROUP,
                mention_list::load,
                move || mention_list::draw(field, text, typed),
                Meanwhile::Nothing,
            )
        })
    }
}

lazy! { composing, fn mention_list(field: NodeRef<Textarea>, text: Signal<String>, typed: Callback<String>) {
    view! { <completion::MentionList field text typed/> }
} }

mod completion {
    use crate::account::session::use_session;
    use crate::i18n::t;
    use crate::nav::while_shown;
    use crate::store::people::{ranked, Met};
    use crate::store::use_store;
    use crate::text::mentions;
    use leptos::html::Textarea;
    use leptos::prelude::*;
    use send_wrapper::SendWrapper;
    use std::cell::RefCell;
    use std::collections::HashMap;
    use wasm_bindgen::prelude::*;

    /// How many people the list offers at most.
    const MOST: usize = 8;
    /// How long typing pauses before a name not known here is asked of the
    /// server, in ms (as search's `@name`).
    const PAUSE_MS: i64 = 400;

    thread_local! {
        /// What the server said of each name asked this visit: someone has
        /// it (`true`) or no one (`false`). Asked once, for every composer.
        static ANSWERS: RefCell<HashMap<String, bool>> = RefCell::new(HashMap::new());
    }

    fn answered(name: &str) -> Option<bool> {
        ANSWERS.with(|a| a.borrow().get(name).copied())
    }

    /// The mention being typed: where its `@` is and the caret (bytes), and
    /// the name so far.
    #[derive(Clone, PartialEq)]
    struct Typing {
        at: usize,
        caret: usize,
        name: String,
    }

    #[component]
    pub fn MentionList(field: NodeRef<Textarea>, text: Signal<String>, typed: Callback<String>) -> impl IntoView {
        let (store, session) = (use_store(), use_session());
        let me = session.user().map(|u| u.uuid).unwrap_or_default();
        let typing = RwSignal::new(None::<Typing>);
        // The `@` whose list Escape closed: not offered again until another.
        let escaped = RwSignal::new(None::<usize>);
        let active = RwSignal::new(0usize);
        let met = RwSignal::new(Vec::<Met>::new());
        // Counts the server's answers, so what depends on them is read again.
        let answers = RwSignal::new(0u32);
        let meet = {
            let (store, me) = (store.clone(), me.clone());
            move || met.set(store.people_met(&me, js_sys::Date::now() as i64))
        };
        let options = Memo::new(move |_| {
            typing.with(|t| match t {
                Some(t) => met.with(|m| ranked(m, &t.name, MOST).into_iter().cloned().collect::<Vec<Met>>()),
                None => Vec::new(),
            })
        });
        let open = move || typing.with(Option::is_some) && options.with(|o| !o.is_empty());
        let list_id = Memo::new(move |_| field.get().map(|f| format!("{}-mentions", f.id())).unwrap_or_default());
        let option_id = move |i: usize| format!("{}-{i}", list_id.get_untracked());
        let said = RwSignal::new(None::<String>);

        // Where the caret is says what is being typed.
        let read_caret = {
            let meet = meet.clone();
            move || {
                let Some(el) = field.get_untracked() else { return };
                let value = el.value();
                // Only in the box being typed in (a draft opened again is not).
                let focused = document().active_element().is_some_and(|a| a.is_same_node(Some(&el)));
                let (start, end) = (el.selection_start().ok().flatten(), el.selection_end().ok().flatten());
                let now = match (start, end) {
                    (Some(s), Some(e)) if s == e && focused => {
                        let caret = mentions::utf16_to_byte(&value, s);
                        mentions::typed_at(&value, caret).map(|(at, name)| Typing { at, caret, name: name.to_owned() })
                    }
                    _ => None,
                };
                // Escape's @ stays closed until the caret leaves it.
                if now.as_ref().map(|t| t.at) != escaped.get_untracked() {
                    escaped.set(None);
                }
                let now = now.filter(|t| escaped.get_untracked() != Some(t.at));
                let new_mention = match (&now, typing.get_untracked()) {
                    (Some(n), Some(before)) => n.at != before.at,
                    (Some(_), None) => true,
                    _ => false,
                };
                if new_mention {
                    meet();
                }
                if now != typing.get_untracked() {
                    said.set(None);
                    active.set(0);
                    typing.set(now);
                }
            }
        };
        let pick = move |i: usize| {
            let (Some(el), Some(t)) = (field.get_untracked(), typing.get_untracked()) else { return };
            let Some(username) = options.with_untracked(|o| o.get(i).map(|m| m.user.username.clone())) else { return };
            let value = el.value();
            if value.get(t.at..t.caret).is_none_or(|typed| typed != format!("@{}", t.name)) {
                return typing.set(None);
            }
            let (new, caret) = mentions::picked(&value, t.at, t.caret, &username);
            // Set first, so the box's own update finds it unchanged and the
            // caret stays after the name.
            el.set_value(&new);
            let caret = mentions::byte_to_utf16(&new, caret);
            let _ = el.set_selection_range(caret, caret);
            typing.set(None);
            typed.run(new);
            said.set(Some(t::mention_picked(format!("@{username}")).get()));
        };

        // The box's events, on the box itself: its keys go to the list
        // before the form sees them.
        Effect::new({
            let read_caret = read_caret.clone();
            move |_| {
                let Some(el) = field.get() else { return };
                // Keys that move the caret are read at keyup.
                let on_key = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new({
                    move |ev: web_sys::KeyboardEvent| {
                        if !open() || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
                            return;
                        }
                        let count = options.with_untracked(Vec::len);
                        match ev.key().as_str() {
                            "ArrowDown" => active.update(|a| *a = (*a + 1) % count),
                            "ArrowUp" => active.update(|a| *a = (*a + count - 1) % count),
                            "Enter" | "Tab" if !ev.shift_key() => pick(active.get_untracked()),
                            "Escape" => {
                                escaped.set(typing.get_untracked().map(|t| t.at));
                                typing.set(None);
                                ev.stop_propagation();
                            }
                            _ => return,
                        }
                        ev.prevent_default();
                    }
                });
                let on_caret = Closure::<dyn Fn()>::new({
                    let read_caret = read_caret.clone();
                    move || read_caret()
                });
                let on_blur = Closure::<dyn Fn()>::new(move || typing.set(None));
                let listen = |name: &str, f: &js_sys::Function| {
                    let _ = el.add_event_listener_with_callback(name, f);
                };
                listen("keydown", on_key.as_ref().unchecked_ref());
                for name in ["input", "click", "keyup", "focus"] {
                    listen(name, on_caret.as_ref().unchecked_ref());
                }
                listen("blur", on_blur.as_ref().unchecked_ref());
                let _ = el.set_attribute("aria-autocomplete", "list");
                let _ = el.set_attribute("aria-controls", &list_id.get_untracked());
                read_caret();
                let kept = SendWrapper::new((el, on_key, on_caret, on_blur));
                on_cleanup(move || {
                    let (el, on_key, on_caret, on_blur) = &*kept;
                    let _ = el.remove_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref());
                    for name in ["input", "click", "keyup", "focus"] {
                        let _ = el.remove_event_listener_with_callback(name, on_caret.as_ref().unchecked_ref());
                    }
                    let _ = el.remove_event_listener_with_callback("blur", on_blur.as_ref().unchecked_ref());
                    let _ = el.remove_attribute("aria-activedescendant");
                });
            }
        });
        // The option chosen, for the screen reader, on the box.
        Effect::new(move |_| {
            let Some(el) = field.get() else { return };
            if open() {
                let _ = el.set_attribute("aria-activedescendant", &option_id(active.get()));
            } else {
                let _ = el.remove_attribute("aria-activedescendant");
            }
        });
        // Names not known here are asked of the server once typing pauses,
        // one at a time, each once a visit; offline, none.
        Effect::new({
            let store = store.clone();
            move |_| {
                let value = text.get();
                let unknown: Vec<String> = mentions::names(&value)
                    .into_iter()
                    .filter(|n| answered(n).is_none() && store.user_by_key(&format!("@{n}")).is_none())
                    .collect();
                if unknown.is_empty() {
                    return;
                }
                let (store, meet) = (store.clone(), meet.clone());
                while_shown(async move {
                    crate::browser::clock::sleep(PAUSE_MS).await;
                    if text.get_untracked() != value || !window().navigator().on_line() {
                        return;
                    }
                    for name in unknown {
                        let someone = match store.read_user(&format!("@{name}")).await {
                            Ok(_) => true,
                            Err(e) if e.is_not_found() => false,
                            Err(_) => return,
                        };
                        ANSWERS.with(|a| a.borrow_mut().insert(name, someone));
                        answers.update(|n| *n += 1);
                        if someone {
                            meet();
                        }
                    }
                });
            }
        });
        let no_one = Memo::new(move |_| {
            answers.track();
            text.with(|t| mentions::names(t)).into_iter().filter(|n| answered(n) == Some(false)).collect::<Vec<_>>()
        });
        let status = move || {
            if open() {
                t::mention_matches(options.with(Vec::len) as u64).get()
            } else {
                said.get().unwrap_or_default()
            }
        };

        view! {
            <ul class="mention-list" role="listbox" id=move || list_id.get() aria-label=t::mention_list() hidden=move || !open()>
                {move || options.get().into_iter().enumerate().map(|(i, m)| view! {
                    <li role="option" id=option_id(i) aria-selected=move || (active.get() == i).to_string()
                        on:mousedown=move |ev| { ev.prevent_default(); pick(i); }>
                        <span class="mention-name">{m.user.shown_name().to_owned()}</span>
                        " "
                        <bdi class="mention-username">"@" {m.user.username.clone()}</bdi>
                    </li>
                }).collect_view()}
            </ul>
            <p class="visually-hidden" role="status">{status}</p>
            <div class="mention-unknown" aria-live="polite">
                {move || no_one.get().into_iter().map(|name| view! { <p>{t::mention_no_one(format!("@{name}"))}</p> }).collect_view()}
            </div>
        }
    }
}
