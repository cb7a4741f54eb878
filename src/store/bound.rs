//! The store's bound: how many posts it holds before it lets go, what it
//! keeps then, and how a post it let go comes back.
//!
//! Past [`POSTS_HELD`] posts, or twice what the local copy keeps if that
//! is more (a host may set `store_posts` in `config.json`), the store
//! keeps:
//! - every post a timeline holds (Home and the list timelines tell it,
//!   [`Store::hold_for`]: the reader's places, never cut under the reader;
//!   a timeline whose reader is back at its top cuts itself back to
//!   [`Store::timeline_posts`], `timeline/position.rs`);
//! - the [`LISTS_KEPT`] threads and profiles most recently opened, whole:
//!   a thread with the posts above it and the replies under its replies;
//! - the post each kept reply answers.
//!
//! Everything else goes: older threads' and profiles' lists, and the posts
//! no kept list or timeline names. Users, likes and follows stay (a few
//! hundred bytes per person met). A page that opens a list that went reads
//! it again, as on a first visit; a card drawn for a post that went reads
//! it again ([`Store::read_missing`]); a card on screen keeps the post it
//! shows. After a pass the store lets go again only when it has grown by a
//! quarter of the bound, so a read past the bound costs one pass per
//! [`POSTS_HELD`]/4 posts, not one per post.

use super::copy::LISTS_KEPT;
use super::{lock, ListKey, Store};
use leptos::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The posts held before the store lets go, unless `config.json` says
/// otherwise (`store_posts`). Twice what the local copy keeps: a visit may
/// read further than the next one reopens.
pub const POSTS_HELD: usize = 4000;

/// Names the posts something kept for the visit holds (a timeline), each
/// through the callback it is given.
pub type Holder = Arc<dyn Fn(&mut dyn FnMut(&str)) + Send + Sync>;

impl Store {
    /// Lets go past `posts` posts (at least a page's worth), not
    /// [`POSTS_HELD`]: `config.json`'s `store_posts`.
    pub fn set_bound(&self, posts: usize) {
        let posts = posts.max(perch_model::PAGE_SIZE);
        self.inner.bound.store(posts, Ordering::Relaxed);
        self.inner.let_go_at.store(posts, Ordering::Relaxed);
    }

    /// How many posts a timeline keeps once its reader is back at its top
    /// (`timeline/`): half the bound (2,000, what the local copy keeps of
    /// Home), at least a page.
    pub fn timeline_posts(&self) -> usize {
        (self.bound() / 2).max(perch_model::PAGE_SIZE)
    }

    fn bound(&self) -> usize {
        match self.inner.bound.load(Ordering::Relaxed) {
            0 => POSTS_HELD,
            n => n,
        }
    }

    /// `holder` names posts the store keeps however many it holds, for the
    /// visit (a timeline: its posts are where the reader is).
    pub fn hold_for(&self, holder: impl Fn(&mut dyn FnMut(&str)) + Send + Sync + 'static) {
        lock(&self.inner.holders).push(Arc::new(holder));
    }

    /// How many posts the store holds now.
    pub fn posts_held(&self) -> usize {
        lock(&self.inner.posts).len()
    }

    /// Called after a post arrives: past the bound, a pass is started once
    /// the work at hand is done (a page's posts are put before its list).
    pub(super) fn after_arrival(&self) {
        let at = match self.inner.let_go_at.load(Ordering::Relaxed) {
            0 => self.bound(),
            n => n,
        };
        if self.posts_held() <= at || self.inner.letting_go.swap(true, Ordering::Relaxed) {
            return;
        }
        let store = self.clone();
        leptos::task::spawn_local(async move {
            store.let_go();
        });
    }

    /// Lets go of what the store need not hold (the module's rule);
    /// answers how many posts went.
    pub fn let_go(&self) -> usize {
        let keep = self.posts_to_keep();
        let lists_kept = self.lists_to_keep(&keep);
        let gone: Vec<String> = {
            let mut posts = lock(&self.inner.posts);
            let gone: Vec<String> = posts.keys().filter(|u| !keep.contains(*u)).cloned().collect();
            for uuid in &gone {
                posts.remove(uuid);
            }
            gone
        };
        {
            let mut read_here = lock(&self.inner.read_here);
            let mut let_go = lock(&self.inner.let_go);
            for uuid in &gone {
                read_here.remove(uuid);
                let_go.insert(uuid.clone());
            }
        }
        lock(&self.inner.lists).retain(|key, _| lists_kept.contains(key));
        lock(&self.inner.opened).retain(|key| lists_kept.contains(key));
        let held = self.posts_held();
        self.inner.let_go_at.store(held.max(self.bound()) + self.bound() / 4, Ordering::Relaxed);
        self.inner.letting_go.store(false, Ordering::Relaxed);
        gone.len()
    }

    /// The lists that stay: the account's following and every follow list
    /// (users, not posts), the threads and profiles most recently opened,
    /// and the replies under a post that stays.
    fn lists_to_keep(&self, posts: &HashSet<String>) -> HashSet<ListKey> {
        let recent: HashSet<ListKey> = lock(&self.inner.opened).iter().take(LISTS_KEPT).cloned().collect();
        lock(&self.inner.lists)
            .iter()
            .filter(|(key, list)| match key {
                ListKey::Followers(_) | ListKey::Following(_) => true,
                // A list being read stays: its answer has somewhere to go.
                _ if list.with_untracked(|l| l.loading) => true,
                ListKey::Replies(uuid) => recent.contains(key) || posts.contains(uuid),
                ListKey::Posts(_) => recent.contains(key),
            })
            .map(|(key, _)| key.clone())
            .collect()
    }

    /// The posts that stay (the module's rule).
    fn posts_to_keep(&self) -> HashSet<String> {
        let mut keep = HashSet::new();
        let holders: Vec<Holder> = lock(&self.inner.holders).clone();
        for holder in holders {
            holder(&mut |uuid| {
                keep.insert(uuid.to_owned());
            });
        }
        let recent: Vec<ListKey> = lock(&self.inner.opened).iter().take(LISTS_KEPT).cloned().collect();
        let mut lists: Vec<ListKey> = recent.clone();
        for key in &recent {
            if let ListKey::Replies(uuid) = key {
                keep.extend(self.chain_above(uuid));
            }
        }
        // Replies under replies kept, down to the last level read.
        let mut seen: HashSet<ListKey> = HashSet::new();
        while let Some(key) = lists.pop() {
            if !seen.insert(key.clone()) {
                continue;
            }
            let Some(items) = lock(&self.inner.lists).get(&key).map(|l| l.with_untracked(|l| l.items.clone())) else {
                continue;
            };
            for uuid in items {
                let replies = ListKey::Replies(uuid.clone());
                if lock(&self.inner.lists).contains_key(&replies) {
                    lists.push(replies);
                }
                keep.insert(uuid);
            }
        }
        // A reply shows what it answers.
        let parents: Vec<String> = keep
            .iter()
            .filter_map(|u| self.post_untracked(u).and_then(|p| p.parent.uuid().map(str::to_owned)))
            .collect();
        keep.extend(parents);
        keep
    }

    /// A card found no post under `uuid`: one the store let go is read
    /// again, once (a post being read for its page is left to that read).
    /// Deleted ones show as deleted ([`Store::read_post`]).
    pub fn read_missing(&self, uuid: &str) {
        if !lock(&self.inner.let_go).remove(uuid) {
            return;
        }
        let (store, uuid) = (self.clone(), uuid.to_owned());
        leptos::task::spawn_local(async move {
            if store.post_untracked(&uuid).is_none() && store.read_post(&uuid).await.is_err() {
                // Read again the next time a card wants it.
                lock(&store.inner.let_go).insert(uuid);
            }
        });
    }
}
