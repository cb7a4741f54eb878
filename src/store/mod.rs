//! The one store every page reads: posts and users by uuid (one signal each,
//! so a post shown in a thread and on a profile is one state), deleted posts,
//! paged lists of uuids by key, and scroll positions by address. It lives for
//! the whole visit, so going back to a page shows it at once.

use crate::api::ApiError;
use leptos::prelude::*;
use perch_model::{Parent, Post, User, UserRef};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// A list loaded page by page (replies, a user's posts, followers…).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Paged {
    /// Uuids, in the server's order.
    pub items: Vec<String>,
    pub pages_loaded: u32,
    /// The last page was short or empty: nothing more to load.
    pub done: bool,
    pub loading: bool,
    pub error: Option<ApiError>,
}

#[derive(Default)]
struct Inner {
    posts: Mutex<HashMap<String, ArcRwSignal<Post>>>,
    users: Mutex<HashMap<String, ArcRwSignal<User>>>,
    usernames: Mutex<HashMap<String, String>>,
    lists: Mutex<HashMap<String, ArcRwSignal<Paged>>>,
    scroll: Mutex<HashMap<String, f64>>,
    toggles: Mutex<HashMap<String, ArcRwSignal<crate::toggle::Toggle>>>,
}

#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
    /// Bumped when a post or user first arrives, so views waiting for one see it.
    arrivals: ArcRwSignal<u64>,
    deleted: ArcRwSignal<HashSet<String>>,
}

impl Default for Store {
    fn default() -> Self {
        Store { inner: Arc::default(), arrivals: ArcRwSignal::new(0), deleted: ArcRwSignal::new(HashSet::new()) }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Store {
    /// Keeps a post (and its embedded parent and authors); returns its uuid.
    pub fn put_post(&self, post: Post) -> String {
        if let Parent::Post(parent) = &post.parent {
            // Keep the embedded parent too, unless a fuller copy is already there.
            if !lock(&self.inner.posts).contains_key(&parent.uuid) {
                let mut parent = (**parent).clone();
                if let Parent::Post(grand) = &parent.parent {
                    parent.parent = Parent::Uuid(grand.uuid.clone());
                }
                self.put_post(parent);
            }
        }
        self.put_user(post.author.clone());
        let uuid = post.uuid.clone();
        let existing = lock(&self.inner.posts).get(&uuid).cloned();
        match existing {
            Some(signal) => {
                if signal.with_untracked(|old| old != &post) {
                    signal.set(post);
                }
            }
            None => {
                lock(&self.inner.posts).insert(uuid.clone(), ArcRwSignal::new(post));
                self.arrivals.update(|n| *n += 1);
            }
        }
        uuid
    }

    /// Keeps a user; returns its uuid.
    pub fn put_user(&self, user: User) -> String {
        let uuid = user.uuid.clone();
        lock(&self.inner.usernames).insert(user.username.to_lowercase(), uuid.clone());
        let existing = lock(&self.inner.users).get(&uuid).cloned();
        match existing {
            Some(signal) => {
                let merged = signal.with_untracked(|old| merge_user(old, user));
                if signal.with_untracked(|old| old != &merged) {
                    signal.set(merged);
                }
            }
            None => {
                lock(&self.inner.users).insert(uuid.clone(), ArcRwSignal::new(user));
                self.arrivals.update(|n| *n += 1);
            }
        }
        uuid
    }

    /// Keeps the users of a follow list; uuid-only entries are kept as uuids.
    pub fn put_user_refs(&self, refs: Vec<UserRef>) -> Vec<String> {
        refs.into_iter()
            .map(|r| match r {
                UserRef::User(u) => self.put_user(*u),
                UserRef::Uuid(u) => u,
            })
            .collect()
    }

    /// The post's signal, tracking its arrival when it is not here yet.
    pub fn post(&self, uuid: &str) -> Option<ArcRwSignal<Post>> {
        self.arrivals.track();
        lock(&self.inner.posts).get(uuid).cloned()
    }

    pub fn post_untracked(&self, uuid: &str) -> Option<Post> {
        lock(&self.inner.posts).get(uuid).map(|s| s.get_untracked())
    }

    pub fn user(&self, uuid: &str) -> Option<ArcRwSignal<User>> {
        self.arrivals.track();
        lock(&self.inner.users).get(uuid).cloned()
    }

    /// Whether the user is here, without tracking.
    pub fn knows_user(&self, uuid: &str) -> bool {
        lock(&self.inner.users).contains_key(uuid)
    }

    /// A user by `@name` (any case) or uuid, if known.
    pub fn user_by_key(&self, key: &str) -> Option<ArcRwSignal<User>> {
        let uuid = match key.strip_prefix('@') {
            Some(name) => {
                self.arrivals.track();
                lock(&self.inner.usernames).get(&name.to_lowercase()).cloned()?
            }
            None => key.to_owned(),
        };
        self.user(&uuid)
    }

    /// Takes a post out of every list (a deleted post leaves the feeds).
    pub fn forget_in_lists(&self, uuid: &str) {
        let lists: Vec<ArcRwSignal<Paged>> = lock(&self.inner.lists).values().cloned().collect();
        for list in lists {
            if list.with_untracked(|l| l.items.iter().any(|i| i == uuid)) {
                list.update(|l| l.items.retain(|i| i != uuid));
            }
        }
    }

    pub fn mark_deleted(&self, uuid: &str) {
        self.deleted.update(|d| {
            d.insert(uuid.to_owned());
        });
    }

    pub fn is_deleted(&self, uuid: &str) -> bool {
        self.deleted.with(|d| d.contains(uuid))
    }

    /// The list kept under `key`, made empty the first time.
    pub fn list(&self, key: &str) -> ArcRwSignal<Paged> {
        lock(&self.inner.lists).entry(key.to_owned()).or_insert_with(|| ArcRwSignal::new(Paged::default())).clone()
    }

    /// The like or follow toggle kept under `key` ("like:<uuid>",
    /// "follow:<uuid>"), made with `server` as its first known state.
    pub fn toggle(&self, key: &str, server: bool) -> ArcRwSignal<crate::toggle::Toggle> {
        lock(&self.inner.toggles)
            .entry(key.to_owned())
            .or_insert_with(|| ArcRwSignal::new(crate::toggle::Toggle::new(server)))
            .clone()
    }

    pub fn save_scroll(&self, address: &str, y: f64) {
        lock(&self.inner.scroll).insert(address.to_owned(), y);
    }

    pub fn scroll(&self, address: &str) -> Option<f64> {
        lock(&self.inner.scroll).get(address).copied()
    }
}

/// A fresher copy of a user, keeping the optional `followed` the server
/// sent before when this copy lacks it, and email fields likewise.
fn merge_user(old: &User, mut new: User) -> User {
    if new.followed.is_none() {
        new.followed = old.followed;
    }
    if new.email.is_none() {
        new.email = old.email.clone();
        new.email_verified = old.email_verified;
    }
    new
}

pub fn use_store() -> Store {
    expect_context::<Store>()
}

/// Loads the next page of `list` with `fetch(page)` (pages are 1-based),
/// appending uuids not already there. One load at a time.
pub async fn load_next<F, Fut>(list: ArcRwSignal<Paged>, fetch: F)
where
    F: FnOnce(u32) -> Fut,
    Fut: std::future::Future<Output = Result<Vec<String>, ApiError>>,
{
    let page = {
        let current = list.get_untracked();
        if current.loading || current.done {
            return;
        }
        current.pages_loaded + 1
    };
    list.update(|l| {
        l.loading = true;
        l.error = None;
    });
    let result = fetch(page).await;
    list.update(|l| {
        l.loading = false;
        match result {
            Ok(uuids) => {
                l.done = uuids.len() < perch_model::PAGE_SIZE;
                for uuid in uuids {
                    if !l.items.contains(&uuid) {
                        l.items.push(uuid);
                    }
                }
                l.pages_loaded = page;
            }
            Err(e) => l.error = Some(e),
        }
    });
}
