//! The one store every page reads, and the one place a change is applied.
//! It holds posts and users by uuid (one signal each, so a post shown in a
//! thread and on a profile is one state), deleted posts, paged lists of
//! uuids by [`ListKey`], scroll positions by address, and (in
//! `relations.rs`) what the signed-in account likes and follows. It lives
//! for the whole visit, so going back to a page shows it at once.
//!
//! A component that changed something on the server tells the store once
//! (`post_sent`, `post_edited`, `post_deleted`, `like_answered`,
//! `follow_answered`); the store updates posts, users, counts and lists,
//! and tells whoever listens ([`Store::on_change`], the home timeline).

mod relations;
pub mod toggle;

pub use relations::{learn_follow_from_owner_list, load_following, read_follow_back, read_like_back};

use crate::api::ApiError;

/// How many users `Store::resolve_users` asks for at once.
pub const RESOLVE_AT_ONCE: usize = 4;
use crate::lock;
use crate::session::Session;
use leptos::prelude::*;
use perch_model::{Parent, Post, User, UserRef};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// Which paged list of uuids: the store keeps one of each.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ListKey {
    /// The replies to a post, oldest first.
    Replies(String),
    /// A user's posts, newest first.
    Posts(String),
    /// Who follows a user.
    Followers(String),
    /// Whom a user follows.
    Following(String),
}

/// Which like or follow button state: one per post or user, shared by
/// every button and count that shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ToggleKey {
    Like(String),
    Follow(String),
}

/// A change the store applied, as listeners hear it.
#[derive(Debug)]
pub enum Change<'a> {
    /// The owner published this post or reply.
    Sent(&'a Post),
    /// The owner deleted this post.
    Deleted(&'a str),
    /// The owner now follows (`true`) or no longer follows this user.
    Followed { uuid: &'a str, following: bool },
}

type Listener = Arc<dyn Fn(&Change) + Send + Sync>;

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
    /// Found by `check_end` after the list was read to its end: shown
    /// behind "Show N new …" (`show_waiting`), never pushed under the reader.
    pub waiting: Vec<String>,
}

#[derive(Default)]
struct Inner {
    posts: Mutex<HashMap<String, ArcRwSignal<Post>>>,
    users: Mutex<HashMap<String, ArcRwSignal<User>>>,
    usernames: Mutex<HashMap<String, String>>,
    lists: Mutex<HashMap<ListKey, ArcRwSignal<Paged>>>,
    scroll: Mutex<HashMap<String, f64>>,
    toggles: Mutex<HashMap<ToggleKey, ArcRwSignal<toggle::Toggle>>>,
    listeners: Mutex<Vec<Listener>>,
    /// Users asked for by uuid alone (`resolve_users`), so each is asked once.
    asked_users: Mutex<HashSet<String>>,
}

#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
    /// Bumped when a post or user first arrives, so views waiting for one see it.
    arrivals: ArcRwSignal<u64>,
    deleted: ArcRwSignal<HashSet<String>>,
    /// Who is signed in: whose likes and follows `relations.rs` keeps.
    session: Session,
}

impl Store {
    pub fn new(session: Session) -> Self {
        Store {
            inner: Arc::default(),
            arrivals: ArcRwSignal::new(0),
            deleted: ArcRwSignal::new(HashSet::new()),
            session,
        }
    }

    /// Calls `listener` after every change the store applies, for the visit.
    pub fn on_change(&self, listener: impl Fn(&Change) + Send + Sync + 'static) {
        lock(&self.inner.listeners).push(Arc::new(listener));
    }

    fn tell(&self, change: Change) {
        let listeners: Vec<Listener> = lock(&self.inner.listeners).clone();
        for listener in listeners {
            listener(&change);
        }
    }

    /// The owner published `post` (a post or a reply): it joins the top of
    /// their posts, or the end of its parent's replies, whose count grows.
    pub fn post_sent(&self, post: Post) {
        self.tell(Change::Sent(&post));
        let parent = post.parent.uuid().map(str::to_owned);
        let author = post.author.uuid.clone();
        let uuid = self.put_post(post);
        match parent {
            Some(parent) => {
                if let Some(p) = self.post(&parent) {
                    p.update(|p| p.reply_count += 1);
                }
                self.list(&ListKey::Replies(parent)).update(|l| l.items.push(uuid));
            }
            None => self.list(&ListKey::Posts(author)).update(|l| l.items.insert(0, uuid)),
        }
    }

    /// The owner changed a post; the server's answer is the new state.
    pub fn post_edited(&self, post: Post) {
        self.put_post(post);
    }

    /// The owner deleted a post: it leaves every list and the timeline, its
    /// parent counts one reply less, and it shows as deleted wherever it was.
    pub fn post_deleted(&self, uuid: &str) {
        let parent = self.post_untracked(uuid).and_then(|p| p.parent.uuid().map(str::to_owned));
        if let Some(parent) = parent.and_then(|p| self.post(&p)) {
            parent.update(|p| p.reply_count = p.reply_count.saturating_sub(1));
        }
        self.forget_in_lists(uuid);
        self.tell(Change::Deleted(uuid));
        self.mark_deleted(uuid);
    }

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

    /// Reads the users of `uuids` that the store does not know (follow lists
    /// may name people by uuid alone), at most [`RESOLVE_AT_ONCE`] requests
    /// at a time and each uuid once per visit; a card waiting for one shows
    /// its name when it arrives. A failed one may be asked again later.
    pub fn resolve_users(&self, api: &crate::api::Api, uuids: &[String]) {
        let queue: std::collections::VecDeque<String> = {
            let mut asked = lock(&self.inner.asked_users);
            uuids.iter().filter(|u| !self.knows_user(u) && asked.insert((*u).clone())).cloned().collect()
        };
        let queue = std::rc::Rc::new(std::cell::RefCell::new(queue));
        for _ in 0..RESOLVE_AT_ONCE {
            let (queue, api, store) = (queue.clone(), api.clone(), self.clone());
            leptos::task::spawn_local(async move {
                loop {
                    let next = queue.borrow_mut().pop_front();
                    let Some(uuid) = next else { break };
                    match api.user(&uuid).await {
                        Ok(user) => {
                            store.put_user(user);
                        }
                        Err(_) => {
                            lock(&store.inner.asked_users).remove(&uuid);
                        }
                    }
                }
            });
        }
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
    fn forget_in_lists(&self, uuid: &str) {
        let lists: Vec<ArcRwSignal<Paged>> = lock(&self.inner.lists).values().cloned().collect();
        for list in lists {
            if list.with_untracked(|l| l.items.iter().any(|i| i == uuid)) {
                list.update(|l| l.items.retain(|i| i != uuid));
            }
        }
    }

    /// A post is gone (deleted here, or found missing).
    pub fn mark_deleted(&self, uuid: &str) {
        self.deleted.update(|d| {
            d.insert(uuid.to_owned());
        });
    }

    pub fn is_deleted(&self, uuid: &str) -> bool {
        self.deleted.with(|d| d.contains(uuid))
    }

    /// The list kept under `key`, made empty the first time.
    pub fn list(&self, key: &ListKey) -> ArcRwSignal<Paged> {
        lock(&self.inner.lists).entry(key.clone()).or_insert_with(|| ArcRwSignal::new(Paged::default())).clone()
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

/// Looks again at the last page of a list read to its end (oldest first,
/// as replies are): what was added since waits in `waiting`, and a page
/// that has filled up lets Load more go on. Failures say nothing: the list
/// shown is still true as far as it goes.
pub async fn check_end<F, Fut>(list: ArcRwSignal<Paged>, fetch: F)
where
    F: FnOnce(u32) -> Fut,
    Fut: std::future::Future<Output = Result<Vec<String>, ApiError>>,
{
    let page = {
        let l = list.get_untracked();
        if l.loading || !l.done || l.pages_loaded == 0 {
            return;
        }
        l.pages_loaded
    };
    let Ok(uuids) = fetch(page).await else { return };
    list.update(|l| {
        if uuids.len() >= perch_model::PAGE_SIZE {
            l.done = false;
        }
        for uuid in uuids {
            if !l.items.contains(&uuid) && !l.waiting.contains(&uuid) {
                l.waiting.push(uuid);
            }
        }
    });
}

/// Looks again at the first page of a list kept newest first (a user's
/// posts): posts added since wait in `waiting`, to go on top.
pub async fn check_start<F, Fut>(list: ArcRwSignal<Paged>, fetch: F)
where
    F: FnOnce(u32) -> Fut,
    Fut: std::future::Future<Output = Result<Vec<String>, ApiError>>,
{
    if list.with_untracked(|l| l.loading || l.pages_loaded == 0) {
        return;
    }
    let Ok(uuids) = fetch(1).await else { return };
    list.update(|l| {
        let new: Vec<String> =
            uuids.into_iter().take_while(|u| !l.items.contains(u)).filter(|u| !l.waiting.contains(u)).collect();
        l.waiting.splice(0..0, new);
    });
}

/// Shows what `check_end` or `check_start` found: at the end of the list,
/// or on top of it.
pub fn show_waiting(list: &ArcRwSignal<Paged>, on_top: bool) {
    list.update(|l| {
        let waiting = std::mem::take(&mut l.waiting);
        if on_top {
            l.items.splice(0..0, waiting);
        } else {
            l.items.extend(waiting);
        }
    });
}

/// Loads a list the server answers whole (followers, following): one
/// request fills it. A failure is shown on a list not loaded yet; a list
/// already shown keeps its items (a later check failing says nothing).
pub async fn load_whole<Fut>(list: ArcRwSignal<Paged>, fetch: Fut) -> Result<Vec<String>, ApiError>
where
    Fut: std::future::Future<Output = Result<Vec<String>, ApiError>>,
{
    list.update(|l| {
        l.loading = true;
        if l.pages_loaded == 0 {
            l.error = None;
        }
    });
    let result = fetch.await;
    list.update(|l| {
        l.loading = false;
        match &result {
            Ok(items) => {
                l.items = items.clone();
                l.pages_loaded = 1;
                l.done = true;
                l.error = None;
            }
            Err(e) if l.pages_loaded == 0 => l.error = Some(e.clone()),
            Err(_) => {}
        }
    });
    result
}
