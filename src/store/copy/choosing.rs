//! Choosing what a copy keeps, within its bound: the home timeline first
//! (as much of it as fits), then the threads and profiles most recently
//! opened, whole pages only, each thread with the posts above it; then the
//! parents of the replies kept, and the authors of everything kept.

use super::{Copy, Home, Kept, LISTS_KEPT, VERSION};
use crate::store::{lock, ListKey, Store};
use leptos::prelude::*;
use perch_model::PAGE_SIZE;
use std::collections::HashSet;

impl Store {
    /// The copy of what the store holds for `me`, with `home`, within `max` posts.
    pub fn copy_of<H: Home>(&self, me: &str, home: Option<&H>, max: usize) -> Copy<H> {
        let mut posts = Chosen::default();
        let home = home.and_then(|h| h.cut_to(max));
        for uuid in home.iter().flat_map(Home::posts) {
            posts.add(self, uuid);
        }
        let mut lists = Vec::new();
        let opened: Vec<ListKey> = lock(&self.inner.opened).clone();
        for key in opened {
            if lists.len() == LISTS_KEPT || posts.uuids.len() >= max {
                break;
            }
            let Some(list) = lock(&self.inner.lists).get(&key).map(|l| l.get_untracked()) else { continue };
            if list.pages_loaded == 0 {
                continue;
            }
            // A thread keeps its post and the posts above it, so it draws
            // whole, offline too.
            let root: Vec<String> = match &key {
                ListKey::Replies(uuid) => self.chain_above(uuid),
                _ => Vec::new(),
            };
            let mut items: Vec<String> =
                list.items.into_iter().filter(|u| !self.is_deleted_untracked(u) && self.knows_post(u)).collect();
            let room = max.saturating_sub(posts.uuids.len() + root.len());
            let (mut pages, mut done) = (list.pages_loaded, list.done);
            if items.len() > room {
                // Whole pages only, so Load more goes on where the copy ends.
                pages = (room / PAGE_SIZE) as u32;
                if pages == 0 {
                    break;
                }
                items.truncate(pages as usize * PAGE_SIZE);
                done = false;
            }
            for uuid in root.into_iter().chain(items.iter().cloned()) {
                posts.add(self, &uuid);
            }
            if let ListKey::Posts(user) = &key {
                posts.users.insert(user.clone());
            }
            lists.push((key, Kept { items, pages, done }));
        }
        // A reply shows what it answers: its parent comes too, room allowing.
        for parent in posts.parents() {
            if posts.uuids.len() >= max {
                break;
            }
            posts.add(self, &parent);
        }
        let following = lock(&self.inner.lists)
            .get(&ListKey::Following(me.to_owned()))
            .map(|l| l.get_untracked())
            .filter(|l| l.pages_loaded > 0)
            .map(|l| l.items);
        // The authors and the profiles kept, not everyone followed (the
        // following list keeps uuids): users stay within the bound too.
        let mut users: HashSet<String> = posts.users.clone();
        users.insert(me.to_owned());
        Copy {
            version: VERSION,
            account: me.to_owned(),
            saved: js_sys::Date::now(),
            posts: posts.uuids.iter().filter_map(|u| self.post_untracked(u)).collect(),
            users: users.iter().filter_map(|u| self.user_mut(u).map(|u| u.get_untracked())).collect(),
            lists,
            following,
            home,
        }
    }

    /// `uuid` and the posts above it the store knows, up to a thread's
    /// first post (at most 100, as a thread shows).
    pub(in crate::store) fn chain_above(&self, uuid: &str) -> Vec<String> {
        let mut chain = vec![uuid.to_owned()];
        while let Some(parent) = self
            .post_untracked(chain.last().map_or("", |u| u.as_str()))
            .and_then(|p| p.parent.uuid().map(str::to_owned))
        {
            if chain.len() > 100 || chain.contains(&parent) || !self.knows_post(&parent) {
                break;
            }
            chain.push(parent);
        }
        chain
    }

    fn knows_post(&self, uuid: &str) -> bool {
        lock(&self.inner.posts).contains_key(uuid)
    }
}

/// The posts chosen for a copy, in order, and their authors.
#[derive(Default)]
struct Chosen {
    uuids: Vec<String>,
    seen: HashSet<String>,
    users: HashSet<String>,
    parents: Vec<String>,
}

impl Chosen {
    fn add(&mut self, store: &Store, uuid: &str) {
        if store.is_deleted_untracked(uuid) || !self.seen.insert(uuid.to_owned()) {
            return;
        }
        let Some(post) = store.post_untracked(uuid) else { return };
        self.users.insert(post.author.uuid.clone());
        self.parents.extend(post.parent.uuid().map(str::to_owned));
        self.uuids.push(uuid.to_owned());
    }

    fn parents(&self) -> Vec<String> {
        self.parents.iter().filter(|p| !self.seen.contains(*p)).cloned().collect()
    }
}
