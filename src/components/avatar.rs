//! A user's avatar from its third-party host, lazy-loaded and asked for
//! after the page's own requests (`fetchpriority="low"`), with the
//! person's initial in its place when the image cannot be loaded.

use crate::i18n::t;
use leptos::prelude::*;

#[component]
pub fn Avatar(src: Option<String>, name: String, #[prop(optional)] large: bool) -> impl IntoView {
    let failed = RwSignal::new(src.is_none());
    // Shown in capitals by the style sheet, which knows every script's case.
    let initial = name.chars().find(|c| c.is_alphanumeric()).map(String::from).unwrap_or_default();
    let class = if large { "avatar large" } else { "avatar" };
    let size = if large { "96" } else { "48" };
    // In the reader's language, like every word (it is only spoken).
    let alt = t::avatar_of(name);
    move || {
        // Read here, so a language switch draws the avatar again, words and all.
        let alt = alt.get();
        if failed.get() {
            view! { <span class=format!("{class} fallback") role="img" aria-label=alt>{initial.clone()}</span> }
                .into_any()
        } else {
            view! {
                <img class=class src=src.clone() alt=alt loading="lazy" fetchpriority="low" width=size height=size
                    on:error=move |_| failed.set(true)/>
            }
            .into_any()
        }
    }
}
