//! The language the reader chose in the menu, kept in Web Storage
//! (`perch.language`) for the next visit and followed by the other tabs.
//! Choosing, loading and switching are `i18n/language.rs`'s; this room only
//! keeps the choice and hears other tabs make theirs.

use crate::browser::web_storage::{self, Key};
use crate::i18n::{self, language, Language};
use leptos::prelude::*;

/// The language chosen on an earlier visit. What storage holds is another
/// tab's word: only a known code counts.
pub fn kept() -> Option<Language> {
    web_storage::get(&Key::Language).and_then(|code| Language::from_code(&code))
}

/// Switches to the language the reader chose, keeps it for the next visit
/// and the other tabs; on failure the language in use stays and `problem`
/// (while it is still there) says why.
pub fn choose(chosen: Language, problem: RwSignal<Option<String>>) {
    show(chosen, true, Some(problem));
}

/// Follows the language other tabs choose, for the app's lifetime: only
/// shown here, not kept again.
pub fn follow_other_tabs() {
    let name = Key::Language.name();
    web_storage::on_change_elsewhere(move |changed, value| {
        let Some(chosen) = value.and_then(|code| Language::from_code(&code)) else { return };
        if changed == name && chosen != i18n::current_untracked() {
            show(chosen, false, None);
        }
    });
}

/// Switches to `chosen`, keeping it when `keep`; a failure goes to
/// `problem`, or to the console. One task for both callers.
fn show(chosen: Language, keep: bool, problem: Option<RwSignal<Option<String>>>) {
    leptos::task::spawn_local(async move {
        let reading = reading_place();
        let switched = language::switch(chosen).await;
        if switched.is_ok() {
            stay_at(reading);
        }
        match switched {
            Ok(()) if keep => drop(web_storage::set(&Key::Language, chosen.code())),
            Ok(()) => {}
            Err(why) => match problem {
                Some(problem) => drop(problem.try_set(Some(why))),
                None => leptos::logging::warn!("{why}"),
            },
        }
    });
}

/// The first post in view and how far from the top it is.
fn reading_place() -> Option<(web_sys::HtmlElement, f64)> {
    let card = crate::browser::dom::cards().into_iter().find(|c| c.get_bounding_client_rect().bottom() > 0.0)?;
    let top = card.get_bounding_client_rect().top();
    Some((card, top))
}

/// Once the words of the new language are drawn (longer or shorter, the
/// cards above grow or shrink), the post that was first in view is put
/// back where it was: a switch leaves the reader at the same place.
fn stay_at(place: Option<(web_sys::HtmlElement, f64)>) {
    let Some((card, top)) = place else { return };
    request_animation_frame(move || {
        let moved = card.get_bounding_client_rect().top() - top;
        if card.is_connected() && moved.abs() >= 1.0 {
            window().scroll_by_with_x_and_y(0.0, moved);
        }
    });
}
