//! A user's avatar from its third-party host, lazy-loaded and asked for
//! after the page's own requests (`fetchpriority="low"`), with the
//! person's initial in its place when the image cannot be loaded.

use crate::i18n::t;
use leptos::prelude::*;

#[component]
pub fn Avatar(
    src: Option<String>,
    name: String,
    #[prop(optional)] large: bool,
    /// Beside the name it shows (the account menu's button): no text
    /// alternative of its own.
    #[prop(optional)]
    decorative: bool,
) -> impl IntoView {
    let failed = RwSignal::new(src.is_none());
    // Shown in capitals by the style sheet, which knows every script's case.
    let initial = name.chars().find(|c| c.is_alphanumeric()).map(String::from).unwrap_or_default();
    let class = if large { "avatar large" } else { "avatar" };
    let size = if large { "96" } else { "48" };
    // In the reader's language, like every word (it is only spoken).
    let alt = t::avatar_of(name);
    move || {
        // Read here, so a language switch draws the avatar again, words and all.
        let alt = (!decorative).then(|| alt.get());
        if failed.get() {
            // The initial is drawn by the style sheet (`data-initial`): it is
            // a picture, not text of the line it sits in (`aria-label` says it).
            let role = (!decorative).then_some("img");
            view! { <span class=format!("{class} fallback") role=role aria-label=alt.clone() data-initial=initial.clone()></span> }
                .into_any()
        } else {
            view! {
                <img class=class src=src.clone() alt=alt.unwrap_or_default() loading="lazy" fetchpriority="low" width=size height=size
                    on:error=move |_| { let _ = failed.try_set(true); }/>
            }
            .into_any()
        }
    }
}
