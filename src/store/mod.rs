//! The one store every page reads, and the one place a change is applied.
//! It holds posts and users by uuid (one signal each, so a post shown in a
//! thread and on a profile is one state), deleted posts, paged lists of
//! uuids by [`ListKey`], and (in `relations.rs`) what the signed-in account
//! likes and follows. It lives for the whole visit, so going back to a page
//! shows it at once. Everything it gives out is read-only: pages read from
//! the server through `loading.rs`, the account writes through `writing.rs`
//! and `relations.rs`, and only the store's methods change what it holds.
//!
//! A component that changed something on the server tells the store once
//! (`post_sent`, `post_edited`, `post_deleted`, `like_answered`,
//! `follow_answered`); the store updates posts, users, counts and lists,
//! and tells whoever listens ([`Store::on_change`], the home timeline).
//!
//! Words: "the account" is the signed-in account, the interface's "token
//! owner" (in code, its uuid is `me`: whose likes, follows, drafts and
//! timeline). "Owner" alone is left to Leptos' reactive owner. A list's
//! `fresh` items are those reading again found, waiting behind "Show N new".

pub mod activity;
pub mod bookmarks;
pub mod bound;
pub mod copy;
pub mod data_file;
pub mod lists;
mod loading;
pub mod mutes;
pub mod outbox;
pub mod people;
mod relations;
pub mod search;
pub mod thread;
pub mod toggle;
mod writing;

pub use writing::Writing;

use crate::account::session::Session;
use crate::api::{Api, ApiError};
use leptos::prelude::*;
use perch_model::{Parent, Post, User, UserRef};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// Which paged list of uuids: the store keeps one of each. Kept in the
/// local copy as a string, `r:`, `p:`, `f:` or `g:` and the uuid.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
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

impl From<ListKey> for String {
    fn from(key: ListKey) -> String {
        let (kind, uuid) = match key {
            ListKey::Replies(u) => ("r", u),
            ListKey::Posts(u) => ("p", u),
            ListKey::Followers(u) => ("f", u),
            ListKey::Following(u) => ("g", u),
        };
        format!("{kind}:{uuid}")
    }
}

impl TryFrom<String> for ListKey {
    type Error = String;
    fn try_from(text: String) -> Result<ListKey, String> {
        let make = match text.get(..2) {
            Some("r:") => ListKey::Replies,
            Some("p:") => ListKey::Posts,
            Some("f:") => ListKey::Followers,
            Some("g:") => ListKey::Following,
            _ => return Err(text),
        };
        Ok(make(text[2..].to_owned()))
    }
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
    /// The account published this post or reply.
    Sent(&'a Post),
    /// The account deleted this post.
    Deleted(&'a str),
    /// The account now follows (`true`) or no longer follows this user.
    Followed { uuid: &'a str, following: bool },
    /// A post was read (from the server, or the local copy at the start).
    Read(&'a Post),
    /// A post is gone: deleted by the account, or found missing.
    Gone(&'a str),
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
    /// behind "Show N new …" (`show_fresh`), never pushed under the reader.
    pub fresh: Vec<String>,
}

/// A toggle, and why its last request failed (shown by its buttons).
type ToggleEntry = (ArcRwSignal<toggle::Toggle>, ArcRwSignal<Option<crate::i18n::Text>>);

#[derive(Default)]
struct Inner {
    posts: Mutex<HashMap<String, ArcRwSignal<Post>>>,
    users: Mutex<HashMap<String, ArcRwSignal<User>>>,
    usernames: Mutex<HashMap<String, String>>,
    lists: Mutex<HashMap<ListKey, ArcRwSignal<Paged>>>,
    toggles: Mutex<HashMap<ToggleKey, ToggleEntry>>,
    /// For each like and follow this visit changed on the server: how many
    /// requests had started when the write was answered, and the state it
    /// left (`relations.rs`: a read asked before then is older news).
    toggles_written: Mutex<HashMap<ToggleKey, (u64, bool)>>,
    /// What the account is writing, by draft (`writing.rs`).
    writings: Mutex<HashMap<String, Writing>>,
    listeners: Mutex<Vec<Listener>>,
    /// Users asked for by uuid alone (`resolve_users`), so each is asked once.
    asked_users: Mutex<HashSet<String>>,
    /// The posts read this visit (not from the local copy): what a listener
    /// that starts late (`bookmarks/`) catches up with.
    read_here: Mutex<HashSet<String>>,
    /// The Idempotency-Key of each write whose answer never came, by what
    /// it was for: the request, the key, when it was first tried (`writing.rs`).
    keys: Mutex<HashMap<String, (String, String, i64)>>,
    /// Lists of threads and profiles, most recently opened first (`copy.rs`).
    opened: Mutex<Vec<ListKey>>,
    /// Bumped by every change to posts, users and lists; `saved_edits` is
    /// its value when the local copy was last written (`copy.rs`).
    edits: std::sync::atomic::AtomicU64,
    saved_edits: std::sync::atomic::AtomicU64,
    /// When the local copy the store was seeded from was written.
    copy_saved: Mutex<Option<f64>>,
    /// The account's following list came from the local copy and was not
    /// read yet this visit (`copy.rs`, `loading.rs`).
    following_from_copy: std::sync::atomic::AtomicBool,
    /// This tab is sending the outbox; `outbox_again`: the server or the
    /// network came back meanwhile (`outbox.rs`).
    outbox_sending: std::sync::atomic::AtomicBool,
    outbox_again: Mutex<bool>,
    /// What loads the sending code and runs it (`outbox/sending.rs`'s
    /// [`outbox::Sender`]), given at the outbox's start; until then,
    /// nothing is sent.
    outbox_sender: std::sync::OnceLock<outbox::Sender>,
    /// Loads of the sending code that failed in a row (`sending.rs`).
    sender_failures: std::sync::atomic::AtomicU32,
    /// The bound and what it keeps (`bound.rs`): the posts held before
    /// letting go (0: [`bound::POSTS_HELD`]), the count that starts the next
    /// pass, whether one is under way, and what timelines hold.
    bound: std::sync::atomic::AtomicUsize,
    let_go_at: std::sync::atomic::AtomicUsize,
    letting_go: std::sync::atomic::AtomicBool,
    holders: Mutex<Vec<bound::Holder>>,
    /// Posts let go and not read since (`bound.rs`): a card that wants
    /// one reads it again.
    let_go: Mutex<HashSet<String>>,
}

#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
    /// Bumped when a post or user first arrives, so views waiting for one see it.
    arrivals: ArcRwSignal<u64>,
    deleted: ArcRwSignal<HashSet<String>>,
    /// The account's actions waiting to be sent, in order (`outbox.rs`).
    outbox: ArcRwSignal<Vec<outbox::Waiting>>,
    /// Who is signed in: whose likes and follows `relations.rs` keeps.
    session: Session,
    /// How the store reads and writes on the server (`loading.rs`,
    /// `writing.rs`, `relations.rs`).
    api: Api,
}

/// How many users `Store::resolve_users` asks for at once.
pub const RESOLVE_AT_ONCE: usize = 4;

impl Store {
    pub fn new(session: Session, api: Api) -> Self {
        // An account that ends here takes its local copy with it, and its
        // waiting actions unless they are kept for its next sign-in.
        session.when_account_ends(|account, keep_drafts| {
            copy::forget(account);
            if !keep_drafts {
                outbox::forget(account);
            }
        });
        let store = Store {
            inner: Arc::default(),
            arrivals: ArcRwSignal::new(0),
            deleted: ArcRwSignal::new(HashSet::new()),
            outbox: ArcRwSignal::new(Vec::new()),
            session,
            api,
        };
        store.follow_drafts_elsewhere();
        store
    }

    /// The signed-in account's uuid.
    pub(crate) fn me(&self) -> Option<String> {
        self.session.signed_untracked().map(|s| s.user.uuid)
    }

    /// The API client bound to the account current now: a write it starts
    /// goes with that account's token to its end, or not at all
    /// ([`Api::as_account`]).
    pub(crate) fn api_as_me(&self) -> crate::api::Api {
        match self.me() {
            Some(me) => self.api.as_account(&me),
            None => self.api.clone(),
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

    /// The account published `post` (a post or a reply): it joins the top of
    /// their posts, or the end of its parent's replies, whose count grows.
    pub fn post_sent(&self, post: Post) {
        self.tell(Change::Sent(&post));
        let parent = post.parent.uuid().map(str::to_owned);
        let author = post.author.uuid.clone();
        let uuid = self.put_post(post);
        match parent {
            Some(parent) => {
                if let Some(p) = self.post_mut(&parent) {
                    p.update(|p| p.reply_count += 1);
                }
                self.list_mut(&ListKey::Replies(parent)).update(|l| l.items.push(uuid));
            }
            None => self.list_mut(&ListKey::Posts(author)).update(|l| l.items.insert(0, uuid)),
        }
    }

    /// The account changed a post; the server's answer is the new state.
    pub fn post_edited(&self, post: Post) {
        self.put_post(post);
    }

    /// The account deleted a post, or reading again found it gone: it
    /// leaves every list and the timeline, its parent counts one reply
    /// less, and it shows as deleted wherever it was.
    pub fn post_deleted(&self, uuid: &str) {
        let parent = self.post_untracked(uuid).and_then(|p| p.parent.uuid().map(str::to_owned));
        if let Some(parent) = parent.and_then(|p| self.post_mut(&p)) {
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
        let mut post = post;
        // Asked before the account's like was answered: the post as it is
        // now, with that like.
        if let Some(now) = post.liked.and_then(|liked| self.read_said(ToggleKey::Like(uuid.clone()), liked)) {
            post.like_count = relations::moved(post.like_count, now);
            post.liked = Some(now);
        }
        self.tell(Change::Read(&post));
        lock(&self.inner.read_here).insert(uuid.clone());
        lock(&self.inner.let_go).remove(&uuid);
        self.update_or_insert(&self.inner.posts, &uuid, post, |_, new| new);
        self.after_arrival();
        uuid
    }

    /// Keeps a user; returns its uuid.
    pub fn put_user(&self, user: User) -> String {
        let uuid = user.uuid.clone();
        // ASCII folding: a name that differs only in other letters' case is
        // a miss here, and is asked of the server, which decides.
        lock(&self.inner.usernames).insert(user.username.to_ascii_lowercase(), uuid.clone());
        let mut user = user;
        if let Some(now) = user.followed.and_then(|followed| self.read_said(ToggleKey::Follow(uuid.clone()), followed))
        {
            user.follow_count = relations::moved(user.follow_count, now);
            user.followed = Some(now);
        }
        self.update_or_insert(&self.inner.users, &uuid, user, merge_user);
        uuid
    }

    /// The one update-or-insert of posts and users: a known one's signal is
    /// set to `merge(old, new)` only when that differs (no redraw for an
    /// answer that changes nothing); a new one arrives. Either way the copy
    /// learns that it has something to save.
    fn update_or_insert<T: Clone + PartialEq + Send + Sync + 'static>(
        &self,
        map: &Mutex<HashMap<String, ArcRwSignal<T>>>,
        uuid: &str,
        new: T,
        merge: impl FnOnce(&T, T) -> T,
    ) {
        let existing = lock(map).get(uuid).cloned();
        match existing {
            Some(signal) => {
                let merged = signal.with_untracked(|old| merge(old, new));
                if signal.with_untracked(|old| old != &merged) {
                    signal.set(merged);
                    self.edited();
                }
            }
            None => {
                lock(map).insert(uuid.to_owned(), ArcRwSignal::new(new));
                self.arrivals.update(|n| *n += 1);
                self.edited();
            }
        }
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
    pub fn resolve_users(&self, uuids: &[String]) {
        let queue: std::collections::VecDeque<String> = {
            let mut asked = lock(&self.inner.asked_users);
            uuids.iter().filter(|u| !self.knows_user(u) && asked.insert((*u).clone())).cloned().collect()
        };
        let queue = std::rc::Rc::new(std::cell::RefCell::new(queue));
        for _ in 0..RESOLVE_AT_ONCE {
            let (queue, store) = (queue.clone(), self.clone());
            leptos::task::spawn_local(async move {
                loop {
                    let next = queue.borrow_mut().pop_front();
                    let Some(uuid) = next else { break };
                    if store.read_user(&uuid).await.is_err() {
                        lock(&store.inner.asked_users).remove(&uuid);
                    }
                }
            });
        }
    }

    /// The post as every page shows it (read-only: changes go through the
    /// store's methods), tracking its arrival when it is not here yet.
    pub fn post(&self, uuid: &str) -> Option<ArcReadSignal<Post>> {
        self.arrivals.track();
        lock(&self.inner.posts).get(uuid).map(ArcRwSignal::read_only)
    }

    fn post_mut(&self, uuid: &str) -> Option<ArcRwSignal<Post>> {
        lock(&self.inner.posts).get(uuid).cloned()
    }

    pub fn post_untracked(&self, uuid: &str) -> Option<Post> {
        lock(&self.inner.posts).get(uuid).map(|s| s.get_untracked())
    }

    pub fn user(&self, uuid: &str) -> Option<ArcReadSignal<User>> {
        self.arrivals.track();
        lock(&self.inner.users).get(uuid).map(ArcRwSignal::read_only)
    }

    /// The user's signal without following arrivals, for a view a memo
    /// over [`Store::user`] already drew: it is not drawn again each time
    /// anyone arrives.
    pub fn user_now(&self, uuid: &str) -> Option<ArcReadSignal<User>> {
        self.user_mut(uuid).map(|u| u.read_only())
    }

    fn user_mut(&self, uuid: &str) -> Option<ArcRwSignal<User>> {
        lock(&self.inner.users).get(uuid).cloned()
    }

    /// Whether the user is here, without tracking.
    pub fn knows_user(&self, uuid: &str) -> bool {
        lock(&self.inner.users).contains_key(uuid)
    }

    /// A user by `@name` (any case) or uuid, if known.
    pub fn user_by_key(&self, key: &str) -> Option<ArcReadSignal<User>> {
        let uuid = match key.strip_prefix('@') {
            Some(name) => {
                self.arrivals.track();
                lock(&self.inner.usernames).get(&name.to_ascii_lowercase()).cloned()?
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

    /// Something the local copy holds changed.
    fn edited(&self) {
        self.inner.edits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// A post is gone (deleted here, or found missing).
    fn mark_deleted(&self, uuid: &str) {
        self.tell(Change::Gone(uuid));
        self.edited();
        self.deleted.update(|d| {
            d.insert(uuid.to_owned());
        });
    }

    /// Every post the store holds now, as it is now (Activity's mentions
    /// and the search index start from them).
    pub fn every_post_untracked(&self) -> Vec<Post> {
        lock(&self.inner.posts).values().map(|p| p.get_untracked()).collect()
    }

    /// Every user the store holds now.
    pub fn every_user_untracked(&self) -> Vec<User> {
        let users: Vec<ArcRwSignal<User>> = lock(&self.inner.users).values().cloned().collect();
        users.iter().map(|u| u.get_untracked()).collect()
    }

    /// Whether `uuid` was read this visit, rather than only seeded from
    /// the local copy.
    pub fn was_read(&self, uuid: &str) -> bool {
        lock(&self.inner.read_here).contains(uuid)
    }

    pub fn is_deleted(&self, uuid: &str) -> bool {
        self.deleted.with(|d| d.contains(uuid))
    }

    fn is_deleted_untracked(&self, uuid: &str) -> bool {
        self.deleted.with_untracked(|d| d.contains(uuid))
    }

    /// The list kept under `key` (read-only: it changes through
    /// `loading.rs` and the account's changes), made empty the first time.
    pub fn list(&self, key: &ListKey) -> ArcReadSignal<Paged> {
        self.list_entry(key).read_only()
    }

    /// The list under `key`, to change (so the local copy is written again).
    fn list_mut(&self, key: &ListKey) -> ArcRwSignal<Paged> {
        self.edited();
        self.list_entry(key)
    }

    fn list_entry(&self, key: &ListKey) -> ArcRwSignal<Paged> {
        lock(&self.inner.lists).entry(key.clone()).or_insert_with(|| ArcRwSignal::new(Paged::default())).clone()
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

/// A mutex's data, even after a panic elsewhere poisoned it: the store and
/// the timeline's queue stay readable.
pub(crate) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn use_store() -> Store {
    expect_context::<Store>()
}
