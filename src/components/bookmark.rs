//! The Bookmark button every card has (`b` on a focused card presses it),
//! and the way pages reach the bookmarks (`store/bookmarks/`). What writes
//! them is split out with `/bookmarks`, in `page_bookmarks`, loaded when
//! the person bookmarks or when there are bookmarks to keep up to date.

use crate::components::icon::Icon;
use crate::components::later::lazy;
use crate::i18n::t;
use crate::store::bookmarks::{Bookmarks, Change};
use leptos::prelude::*;
use perch_model::Post;

lazy! { page_bookmarks, fn keep_bookmarks(bookmarks: Bookmarks, change: Option<Change>) {
    crate::store::bookmarks::kept::keep(bookmarks, change);
} }

/// Runs the writing module's `keep` once it is here (`store::bookmarks::Keeper`).
/// Only to keep the bookmarks up to date (no change): after the page's
/// first paint, which it must not delay.
fn keep_later(bookmarks: Bookmarks, change: Option<Change>) {
    leptos::task::spawn_local(async move {
        if change.is_none() {
            crate::browser::dom::after_paint().await;
        }
        if keep_bookmarks::draw(bookmarks.clone(), change.clone()).await.is_err() {
            bookmarks.unreachable(change);
        }
    });
}

/// The current account's bookmarks (none when no one is signed in here).
pub fn bookmarks() -> Option<Bookmarks> {
    crate::store::bookmarks::bookmarks(keep_later)
}

/// Bookmark, pressed when the post is bookmarked: kept in this browser,
/// with the post's text as read now.
#[component]
pub fn BookmarkButton(post: ArcReadSignal<Post>) -> impl IntoView {
    let Some(bookmarks) = bookmarks() else { return ().into_any() };
    let uuid = post.with_untracked(|p| p.uuid.clone());
    let pressed = {
        let (bookmarks, uuid) = (bookmarks.clone(), uuid.clone());
        Memo::new(move |_| bookmarks.has(&uuid))
    };
    let failed = {
        let bookmarks = bookmarks.clone();
        move || bookmarks.failed(&uuid)
    };
    view! {
        <button type="button" class="toggle bookmark" aria-pressed=move || pressed.get().to_string()
            aria-label=t::bookmark() on:click=move |_| post.with_untracked(|p| bookmarks.toggle(p))>
            <Icon icon=Icon::Bookmark/>
        </button>
        {move || failed().then(|| view! { <span class="toggle-error" role="alert">{t::could_not_bookmark()}</span> })}
    }
    .into_any()
}
