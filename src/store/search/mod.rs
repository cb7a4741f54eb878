//! Search over what this browser holds for the account (issue 46): the
//! posts and people of the store (the local copy it started from and all
//! read since), the bookmarks' kept posts, and Activity's replies, mentions
//! and followers. Built in the browser a slice at a time the first time
//! the search page opens in a visit (no task long enough to be felt), kept
//! for the visit, and grown as the store reads: never a request of its own.
//! `index.rs` is the plain logic; this module owns the one index of the
//! visit, whose it is, and what feeds it. All of it is in the search
//! page's split module.

pub mod index;

use super::{Change, Store};
use crate::store::activity::Item;
use index::Index;
use leptos::prelude::*;
use std::cell::RefCell;

thread_local! {
    /// The account's index, and whose it is.
    static INDEX: RefCell<Option<(String, Index)>> = const { RefCell::new(None) };
    /// Moved on once after each change to the index (a task's worth of
    /// reads at once): a search shown again follows it.
    static CHANGED: ArcRwSignal<u64> = ArcRwSignal::new(0);
    static TELLING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static LISTENING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// While building: the posts the store read meanwhile, newer than
    /// what the building gathered at its start.
    static TOLD: RefCell<Option<std::collections::HashSet<String>>> = const { RefCell::new(None) };
    /// The index is whole (its building ran to the end).
    static BUILT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// How long one slice of the building may take, in ms, before the page
/// gets the thread back.
const SLICE_MS: f64 = 8.0;

/// Where the index of the account is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Being built: this many posts in so far.
    Building(usize),
    /// Built: holds this many posts.
    Ready(usize),
}

/// Tracks every change to the index.
pub fn track() {
    CHANGED.with(|c| c.track());
}

/// Runs `f` on `account`'s index, if it is the one kept.
pub fn with<T>(account: &str, f: impl FnOnce(&Index) -> T) -> Option<T> {
    INDEX.with(|i| i.borrow().as_ref().filter(|(a, _)| a == account).map(|(_, index)| f(index)))
}

fn change(f: impl FnOnce(&mut Index)) {
    let changed = INDEX.with(|i| match i.borrow_mut().as_mut() {
        Some((_, index)) => {
            f(index);
            true
        }
        None => false,
    });
    if changed && !TELLING.with(|t| t.replace(true)) {
        // Once for everything changed in this task.
        leptos::task::spawn_local(async {
            TELLING.with(|t| t.set(false));
            CHANGED.with(|c| c.update(|n| *n += 1));
        });
    }
}

/// Builds `store`'s account's index unless it is built, telling `state` how
/// far it got; from then on the store's reads reach it.
pub async fn build(store: Store, state: RwSignal<State>) {
    let Some(me) = store.me() else { return };
    if let Some(posts) = with(&me, Index::posts).filter(|_| BUILT.with(|b| b.get())) {
        let _ = state.try_set(State::Ready(posts));
        return;
    }
    BUILT.with(|b| b.set(false));
    INDEX.with(|i| *i.borrow_mut() = Some((me.clone(), Index::default())));
    TOLD.with(|t| *t.borrow_mut() = Some(Default::default()));
    if !LISTENING.with(|l| l.replace(true)) {
        let reader = store.clone();
        store.on_change(move |change| match change {
            // Only into the index of the account that read it.
            _ if reader.me().is_none_or(|me| !INDEX.with(|i| i.borrow().as_ref().is_some_and(|(a, _)| *a == me))) => {}
            Change::Read(post) | Change::Sent(post) => {
                TOLD.with(|t| t.borrow_mut().as_mut().map(|t| t.insert(post.uuid.clone())));
                self::change(|index| index.put(post))
            }
            Change::Deleted(uuid) | Change::Gone(uuid) => self::change(|index| index.gone(uuid)),
            Change::Followed { .. } => {}
        });
    }
    let mut posts: Vec<_> =
        store.every_post_untracked().into_iter().filter(|p| !store.is_deleted_untracked(&p.uuid)).collect();
    let mut people = store.every_user_untracked();
    for bookmark in crate::store::bookmarks::kept::read(&me) {
        if !bookmark.gone && !store.is_deleted_untracked(&bookmark.post.uuid) {
            posts.push(bookmark.post);
        }
    }
    for item in crate::store::activity::kept(&me).items {
        match item {
            Item::Reply { reply: post, .. } | Item::Mention { post, .. } => posts.push(post),
            Item::Followed { users, .. } => people.extend(users),
            Item::Liked { .. } => {}
        }
    }
    // The store's reading of a post is the newest: it goes in last.
    posts.reverse();
    let mut done = 0;
    let mut slice_start = crate::browser::pace::now();
    for user in &people {
        change(|index| index.put_person(user));
    }
    let mut abandoned = false;
    for post in &posts {
        if TOLD.with(|t| t.borrow().as_ref().is_none_or(|t| !t.contains(&post.uuid))) {
            change(|index| index.put(post));
        }
        done += 1;
        if crate::browser::pace::now() - slice_start > SLICE_MS {
            // The page is gone, or another account's index began.
            if state.try_set(State::Building(done)).is_some()
                || !INDEX.with(|i| i.borrow().as_ref().is_some_and(|(a, _)| a == &me))
            {
                abandoned = true;
                break;
            }
            crate::browser::pace::yield_now().await;
            slice_start = crate::browser::pace::now();
        }
    }
    TOLD.with(|t| *t.borrow_mut() = None);
    if abandoned {
        // Begun again by the next visit to the page.
        INDEX.with(|i| {
            let mut i = i.borrow_mut();
            if i.as_ref().is_some_and(|(a, _)| a == &me) {
                *i = None;
            }
        });
        return;
    }
    BUILT.with(|b| b.set(true));
    let _ = state.try_set(State::Ready(with(&me, Index::posts).unwrap_or(0)));
}
