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

mod choosing;
mod saving;

use super::{lock, ListKey, Paged, Store};
use crate::browser::indexed_db::{call, read_at_start, Db};
use leptos::prelude::*;
use perch_model::{Post, User};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;
use wasm_bindgen::JsValue;

pub use saving::keep_saving;

/// The home timeline as the copy keeps it: the timeline's own data, which
/// only the timeline reads back (`timeline::Merge`), given to the copy
/// through what it must know of it. The copy never imports the timeline.
pub trait Home: Serialize + DeserializeOwned + 'static {
    /// The posts it shows, in order.
    fn posts(&self) -> Vec<&str>;
    /// Itself cut to at most `max` posts where a reader can go on from
    /// (`None` when nothing fits).
    fn cut_to(&self, max: usize) -> Option<Self>;
}

/// The copy's shape. A copy with another number is dropped: change it
/// whenever [`Copy`], the merge or the model's posts and users change
/// shape.
pub const VERSION: u32 = 2;
/// At most this many posts per account, unless `config.json` says
/// otherwise (`local_copy_posts`). About 600 bytes each.
pub const POSTS_KEPT: usize = 2000;
/// At most this many threads and profiles.
pub const LISTS_KEPT: usize = 20;

/// One account's copy, as kept, with its home timeline `H`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Copy<H> {
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
    /// The home timeline, cut to the bound.
    pub home: Option<H>,
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

/// The copy `index.html` read for the account current at start, if any:
/// `(account, text)` as it was kept, not read yet.
pub async fn read() -> Option<(String, String)> {
    read_at_start(Db::Copies).await
}

/// What was kept for `me`, if it reads as this version's copy of `me`
/// within the bound of `max` posts; anything else is dropped. What it
/// holds is shown as text like any answer of the server's.
pub fn parse<H: Home>(me: &str, account: &str, text: &str, max: usize) -> Option<Copy<H>> {
    if account != me {
        return None;
    }
    match serde_json::from_str::<Copy<H>>(text) {
        Ok(copy) if copy.version == VERSION && copy.account == me && copy.within(max) => Some(copy),
        _ => {
            forget(me);
            None
        }
    }
}

impl<H: Home> Copy<H> {
    /// Holds no more than `max` posts, [`LISTS_KEPT`] lists, and a user
    /// for each (an author, a profile, the account), as a copy written
    /// with this bound does (a smaller bound set since, or a copy
    /// that was not written by Perch, is not read).
    fn within(&self, max: usize) -> bool {
        let home = self.home.as_ref().map_or(0, |h| h.posts().len());
        let users = max + LISTS_KEPT + 1;
        self.posts.len() <= max && home <= max && self.lists.len() <= LISTS_KEPT && self.users.len() <= users
    }
}

/// How many characters `account`'s copy holds (about its bytes), `None`
/// when none is kept.
pub async fn size(account: &str) -> Option<usize> {
    let text = call(Db::Copies, "get", &[JsValue::from_str(account)]).await.ok()?.as_string()?;
    Some(text.len())
}

/// Drops `account`'s copy (sign-out, or the settings' Empty).
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
    pub fn seed<H>(&self, copy: &Copy<H>) {
        for user in &copy.users {
            self.put_user(user.clone());
        }
        for post in &copy.posts {
            self.put_post(post.clone());
        }
        lock(&self.inner.read_here).clear();
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
}
