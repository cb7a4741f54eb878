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
        match language::switch(chosen).await {
            Ok(()) if keep => drop(web_storage::set(&Key::Language, chosen.code())),
            Ok(()) => {}
            Err(why) => match problem {
                Some(problem) => drop(problem.try_set(Some(why))),
                None => leptos::logging::warn!("{why}"),
            },
        }
    });
}
