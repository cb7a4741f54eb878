//! A user's avatar from its third-party host, lazy-loaded and asked for
//! after the page's own requests (`fetchpriority="low"`), with the
//! person's initial in its place when the image cannot be loaded. An
//! address that failed is remembered for the visit, until the browser is
//! back online: a card drawn again (a thread, a profile, a long feed's
//! cards coming back) shows the initial at once, without asking the host
//! again and without its text alternative flashing first.

use crate::i18n::t;
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::HashSet;

/// At most this many addresses are remembered: past it, the memory starts
/// again (each is then asked for once more).
const REMEMBERED: usize = 1_000;

thread_local! {
    /// The avatars that could not be loaded since the browser was last
    /// back online.
    static FAILED: RefCell<Option<HashSet<String>>> = const { RefCell::new(None) };
}

fn failed_before(src: &str) -> bool {
    FAILED.with_borrow(|failed| failed.as_ref().is_some_and(|f| f.contains(src)))
}

fn remember_failure(src: &str) {
    FAILED.with_borrow_mut(|failed| {
        let failed = failed.get_or_insert_with(|| {
            // Back online, every avatar is worth asking for again: for the
            // whole visit, from the first failure on.
            let handle =
                window_event_listener_untyped("online", |_| FAILED.with_borrow_mut(|f| *f = Some(HashSet::new())));
            std::mem::forget(handle);
            HashSet::new()
        });
        if failed.len() >= REMEMBERED {
            failed.clear();
        }
        failed.insert(src.to_owned());
    });
}

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
    let failed = RwSignal::new(src.as_deref().is_none_or(failed_before));
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
                    on:error={
                        let src = src.clone();
                        move |_| {
                            src.as_deref().inspect(|s| remember_failure(s));
                            let _ = failed.try_set(true);
                        }
                    }/>
            }
            .into_any()
        }
    }
}
