//! The language menu: every language Perch speaks, each by its own name.
//! Choosing one switches at once, with no reload (drafts, scroll and page
//! stay), and is kept for the next visit and followed by the other tabs.

use crate::i18n::{self, language, t, Language};
use leptos::prelude::*;

#[component]
pub fn LanguageMenu() -> impl IntoView {
    let problem = RwSignal::new(None::<String>);
    let choose = move |ev: leptos::ev::Event| {
        if let Some(language) = Language::from_code(&event_target_value(&ev)) {
            problem.set(None);
            language::switch(language, true, Some(problem));
        }
    };
    view! {
        <label class="language-menu">
            <span>{t::language()}</span>
            <select on:change=choose prop:value=move || i18n::current().code()>
                {Language::OFFERED.map(|l| view! { <option value=l.code() lang=l.code()>{l.own_name()}</option> })}
            </select>
        </label>
        {move || problem.get().map(|reason| view! { <p class="error" role="alert">{t::language_failed(reason)}</p> })}
    }
}
