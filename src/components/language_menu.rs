//! The language menu: every language Perch speaks, each by its own name.
//! Choosing one switches at once, with no reload (drafts, scroll and page
//! stay), and is kept for the next visit and followed by the other tabs.
//! Its options are made once with the DOM (names of languages are the same
//! in every language), which costs a fraction of a view of three options.

use crate::browser::kept_language;
use crate::i18n::{self, t, Language};
use leptos::prelude::*;

#[component]
pub fn LanguageMenu() -> impl IntoView {
    let problem = RwSignal::new(None::<String>);
    let select = NodeRef::<leptos::html::Select>::new();
    let choose = move |ev: leptos::ev::Event| {
        if let Some(language) = Language::from_code(&event_target_value(&ev)) {
            problem.set(None);
            kept_language::choose(language, problem);
        }
    };
    // The options, then the language in use (followed when another tab or
    // this menu switches).
    Effect::new(move |filled: Option<bool>| {
        let Some(select) = select.get() else { return false };
        if filled != Some(true) {
            for l in Language::OFFERED {
                if let Ok(option) = document().create_element("option") {
                    let _ = option.set_attribute("value", l.code());
                    let _ = option.set_attribute("lang", l.code());
                    option.set_text_content(Some(l.own_name()));
                    let _ = select.append_child(&option);
                }
            }
        }
        select.set_value(i18n::current().code());
        true
    });
    view! {
        <label class="language-menu">
            <span>{t::language()}</span>
            <select on:change=choose node_ref=select>{rendered_options()}</select>
        </label>
        {move || problem.get().map(|reason| view! { <p class="error" role="alert">{t::language_failed(reason)}</p> })}
    }
}

/// The options as HTML, for the first screen rendered at build time
/// (`routes::prerender`), where no effect runs: the same options the
/// effect makes, the language in use chosen. The wasm makes them with the
/// DOM instead (smaller).
#[cfg(not(target_arch = "wasm32"))]
fn rendered_options() -> impl IntoView {
    let current = i18n::current_untracked();
    Language::OFFERED
        .into_iter()
        .map(|l| view! { <option value=l.code() lang=l.code() selected=l == current>{l.own_name()}</option> })
        .collect_view()
}

#[cfg(target_arch = "wasm32")]
fn rendered_options() {}
