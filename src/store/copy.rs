//! The local copy: what the account read, kept in the browser so that a
//! reopen draws at once, before any request, and reading works offline.
//! One record per account in IndexedDB (database `perch`, store `copies`,
//! keyed by the account's uuid), the JSON text of a [`Copy`].
//!
//! `index.html` holds the few lines of IndexedDB (`window.perchCopy`) and
//! reads the current account's record at once, beside the wasm and
//! `config.json`. This module owns everything else: reading that answer
//! ([`read`]), seeding the store from it ([`Store::seed`]; the home
//! timeline seeds itself from [`Copy::home`]), writing it again while the
//! app runs ([`keep_saving`]), and dropping it ([`forget`] at sign-out,
//! [`tidy`] at start for accounts no longer signed in).
//!
//! What it holds: the home timeline's merge (its sources, their pages and
//! order), the account's following list, the last [`LISTS_KEPT`] threads
//! and profiles opened, and the posts and users those show. It is bounded
//! by [`POSTS_KEPT`] posts (a host may set `local_copy_posts` in
//! `config.json`): the home timeline first, then the lists most recently
//! opened; the least recently read go first. A copy from another version
//! of the copy ([`VERSION`]), another account, or that does not read is
//! dropped, never misread. Relations, drafts and the reading position stay
//! in Web Storage (`browser/web_storage.rs`).

use super::{lock, ListKey, Paged, Store};
use crate::timeline::merge::Merge;
use leptos::prelude::*;
use perch_model::{Post, User, PAGE_SIZE};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use wasm_bindgen::{JsCast, JsValue};

/// The copy's shape. A copy with another number is dropped: change it
/// whenever [`Copy`], the merge or the model's posts and users change
/// shape.
pub const VERSION: u32 = 2;
/// At most this many posts per account, unless `config.json` says
/// otherwise (`local_copy_posts`). About 600 bytes each.
pub const POSTS_KEPT: usize = 2000;
/// At most this many threads and profiles.
pub const LISTS_KEPT: usize = 20;
/// How often the copy is looked at while the app runs: it is written once
/// nothing changed for this long (a burst of pages is written once, after
/// it), or at the latest every [`SAVE_AT_MOST`] while changes go on, and
/// whenever the tab is hidden.
const SAVE_TICK: std::time::Duration = std::time::Duration::from_secs(3);
const SAVE_AT_MOST: f64 = 30_000.0;

/// One account's copy, as kept.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Copy {
    pub version: u32,
    pub account: String,
    /// When it was written (ms since the epoch), shown when offline.
    pub saved: f64,
    pub posts: Vec<Post>,
    pub users: Vec<User>,
    /// Threads (`Replies`) and profiles (`Posts`), most recently opened first.
    pub lists: Vec<(ListKey, Kept)>,
    /// Whom the account follows, when it was read.
    pub following: Option<Vec<String>>,
    /// The home timeline's merge, cut to the bound.
    pub home: Option<Merge>,
}

/// A list as kept: what was loaded of it. Kept as `[items, pages, done]`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(into = "(Vec<String>, u32, bool)", from = "(Vec<String>, u32, bool)")]
pub struct Kept {
    pub items: Vec<String>,
    pub pages: u32,
    pub done: bool,
}

impl From<Kept> for (Vec<String>, u32, bool) {
    fn from(kept: Kept) -> Self {
        (kept.items, kept.pages, kept.done)
    }
}

impl From<(Vec<String>, u32, bool)> for Kept {
    fn from((items, pages, done): (Vec<String>, u32, bool)) -> Self {
        Kept { items, pages, done }
    }
}

/// The app's IndexedDB stores, each one JSON text per account, behind
/// `index.html`'s `window.perchCopy` and `window.perchOutbox`.
#[derive(Clone, Copy)]
pub(super) enum Db {
    /// The local copy (this module).
    Copies,
    /// The actions waiting to be sent (`outbox.rs`).
    Outbox,
}

/// `index.html`'s object for `db`; `None` without IndexedDB.
pub(super) fn idb(db: Db) -> Option<JsValue> {
    let name = match db {
        Db::Copies => "perchCopy",
        Db::Outbox => "perchOutbox",
    };
    let object = js_sys::Reflect::get(&window(), &name.into()).ok()?;
    object.is_object().then_some(object)
}

/// Calls `db[method](args)` and waits for its promise.
pub(super) async fn call(db: Db, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let object = idb(db).ok_or(JsValue::NULL)?;
    let function: js_sys::Function = js_sys::Reflect::get(&object, &method.into())?.dyn_into()?;
    let promise = function.apply(&object, &args.iter().collect::<js_sys::Array>())?;
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&promise)).await
}

/// What `index.html` read from `db` for the account current at start, if
/// anything: `(account, text)` as it was kept, not read yet.
pub(super) async fn read_at_start(db: Db) -> Option<(String, String)> {
    let object = idb(db)?;
    let promise = js_sys::Reflect::get(&object, &"read".into()).ok()?.dyn_into::<js_sys::Promise>().ok()?;
    let found = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let account = js_sys::Reflect::get(&found, &"account".into()).ok()?.as_string()?;
    let text = js_sys::Reflect::get(&found, &"text".into()).ok()?.as_string()?;
    Some((account, text))
}

/// The copy `index.html` read for the account current at start, if any:
/// `(account, text)` as it was kept, not read yet.
pub async fn read() -> Option<(String, String)> {
    read_at_start(Db::Copies).await
}

/// What was kept for `me`, if it reads as this version's copy of `me`
/// within the bound of `max` posts; anything else is dropped. What it
/// holds is shown as text like any answer of the server's.
pub fn parse(me: &str, account: &str, text: &str, max: usize) -> Option<Copy> {
    if account != me {
        return None;
    }
    match serde_json::from_str::<Copy>(text) {
        Ok(copy) if copy.version == VERSION && copy.account == me && copy.within(max) => Some(copy),
        _ => {
            forget(me);
            None
        }
    }
}

impl Copy {
    /// Holds no more than `max` posts, [`LISTS_KEPT`] lists, and a user
    /// for each (an author, a profile, the account), as a copy written
    /// with this bound does (a smaller bound set since, or a copy
    /// that was not written by Perch, is not read).
    fn within(&self, max: usize) -> bool {
        let home = self.home.as_ref().map_or(0, |m| m.items().count());
        let users = max + LISTS_KEPT + 1;
        self.posts.len() <= max && home <= max && self.lists.len() <= LISTS_KEPT && self.users.len() <= users
    }
}

/// Drops `account`'s copy (sign-out).
pub fn forget(account: &str) {
    let account = JsValue::from_str(account);
    wasm_bindgen_futures::spawn_local(async move {
        let _ = call(Db::Copies, "drop", &[account]).await;
    });
}

/// Drops the copies of accounts no longer signed in here (signed out in
/// another tab, or before a drop could finish).
pub fn tidy(signed_in: Vec<String>) {
    wasm_bindgen_futures::spawn_local(async move {
        let Ok(kept) = call(Db::Copies, "accounts", &[]).await else { return };
        for account in js_sys::Array::from(&kept).iter().filter_map(|a| a.as_string()) {
            if !signed_in.contains(&account) {
                let _ = call(Db::Copies, "drop", &[account.into()]).await;
            }
        }
    });
}

impl Store {
    /// Fills the store from `copy` (before the first render): its posts,
    /// users, lists and the account's following list, as they were.
    /// Reading again then goes as after any earlier visit to a page.
    pub fn seed(&self, copy: &Copy) {
        for user in &copy.users {
            self.put_user(user.clone());
        }
        for post in &copy.posts {
            self.put_post(post.clone());
        }
        let mut opened = lock(&self.inner.opened);
        for (key, kept) in &copy.lists {
            let list =
                Paged { items: kept.items.clone(), pages_loaded: kept.pages, done: kept.done, ..Paged::default() };
            self.list_mut(key).set(list);
            opened.push(key.clone());
        }
        drop(opened);
        if let Some(following) = &copy.following {
            let list = Paged { items: following.clone(), pages_loaded: 1, done: true, ..Paged::default() };
            let key = ListKey::Following(copy.account.clone());
            self.list_mut(&key).set(list);
            self.inner.following_from_copy.store(true, Ordering::Relaxed);
            self.my_following_learned(&copy.account, following);
        }
        *lock(&self.inner.copy_saved) = Some(copy.saved);
        self.inner.saved_edits.store(self.inner.edits.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    /// When the copy the store was seeded from was written, if it was.
    pub fn copy_saved(&self) -> Option<f64> {
        *lock(&self.inner.copy_saved)
    }

    /// A list was opened: it is the most recently read.
    pub(super) fn opened(&self, key: &ListKey) {
        if matches!(key, ListKey::Replies(_) | ListKey::Posts(_)) {
            let mut opened = lock(&self.inner.opened);
            opened.retain(|k| k != key);
            opened.insert(0, key.clone());
            opened.truncate(LISTS_KEPT * 4);
        }
    }

    /// The copy of what the store holds for `me`, with `home`, within `max` posts.
    pub fn copy_of(&self, me: &str, home: Option<&Merge>, max: usize) -> Copy {
        let mut posts = Chosen::default();
        let home = home.and_then(|m| m.trimmed(max));
        for item in home.iter().flat_map(|m| m.items()) {
            posts.add(self, &item.uuid);
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
    fn chain_above(&self, uuid: &str) -> Vec<String> {
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

    /// Something the copy holds may have changed since it was written.
    fn changed_since_saved(&self) -> bool {
        self.inner.edits.load(Ordering::Relaxed) != self.inner.saved_edits.load(Ordering::Relaxed)
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

/// Writes the signed-in account's copy for the visit, when something
/// changed: once changes have paused for a [`SAVE_TICK`], at least every
/// [`SAVE_AT_MOST`] while they go on, and when the tab is hidden (it may
/// not come back). `home` gives the home timeline's merge of an account,
/// if it has one. Nothing is written for an account no longer current in
/// this browser (signed out or switched in another tab, this one about to
/// reload).
pub fn keep_saving(store: Store, max: usize, home: impl Fn(&str) -> Option<Merge> + 'static) {
    if idb(Db::Copies).is_none() {
        return;
    }
    let last_saved = std::rc::Rc::new(std::cell::Cell::new(js_sys::Date::now()));
    let save = std::rc::Rc::new({
        let (store, last_saved) = (store.clone(), last_saved.clone());
        move || {
            let Some(me) = store.me() else { return };
            if !store.changed_since_saved() || crate::account::session::current_in_storage() != Some(me.clone()) {
                return;
            }
            last_saved.set(js_sys::Date::now());
            store.inner.saved_edits.store(store.inner.edits.load(Ordering::Relaxed), Ordering::Relaxed);
            let copy = store.copy_of(&me, home(&me).as_ref(), max);
            let Ok(text) = serde_json::to_string(&copy) else { return };
            let account = JsValue::from_str(&me);
            wasm_bindgen_futures::spawn_local(async move {
                let _ = call(Db::Copies, "put", &[account, text.into()]).await;
            });
        }
    });
    let seen = std::cell::Cell::new(store.inner.edits.load(Ordering::Relaxed));
    let tick = send_wrapper::SendWrapper::new({
        let save = save.clone();
        move || {
            let now = store.inner.edits.load(Ordering::Relaxed);
            let paused = seen.replace(now) == now;
            if paused || js_sys::Date::now() - last_saved.get() >= SAVE_AT_MOST {
                save();
            }
        }
    });
    let _ = set_interval_with_handle(move || (*tick)(), SAVE_TICK);
    let hidden = send_wrapper::SendWrapper::new(move || {
        if document().visibility_state() == web_sys::VisibilityState::Hidden {
            save();
        }
    });
    // Both live as long as the visit, like the store.
    let _ = window_event_listener_untyped("visibilitychange", move |_| hidden());
}
