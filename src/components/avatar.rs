//! A user's avatar from its third-party host, lazy-loaded and asked for
//! after the page's own requests (`fetchpriority="low"`), with the
//! person's initial in its place when the image cannot be loaded.

use leptos::prelude::*;

#[component]
pub fn Avatar(src: Option<String>, name: String, #[prop(optional)] large: bool) -> impl IntoView {
    let failed = RwSignal::new(src.is_none());
    // Shown in capitals by the style sheet, which knows every script's case.
    let initial = name.chars().find(|c| c.is_alphanumeric()).map(String::from).unwrap_or_default();
    let class = if large { "avatar large" } else { "avatar" };
    let size = if large { "96" } else { "48" };
    let alt = format!("{name}'s avatar");
    move || {
        if failed.get() {
            view! { <span class=format!("{class} fallback") role="img" aria-label=alt.clone()>{initial.clone()}</span> }
                .into_any()
        } else {
            view! {
                <img class=class src=src.clone() alt=alt.clone() loading="lazy" fetchpriority="low" width=size height=size
                    on:error=move |_| failed.set(true)/>
            }
            .into_any()
        }
    }
}
