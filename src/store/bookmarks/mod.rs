//! Bookmarks, per account, kept in this browser only (the server is never
//! told): posts kept to read later, each with its text as last read
//! (`kept.rs`), so `/bookmarks` reads offline and after the local copy is
//! emptied. Kept in Web Storage (`perch.bookmarks.<account>`, so every tab
//! shares them and hears changes), forgotten with the account's other data
//! at sign-out unless the person keeps them.
//!
//! Nothing of it is in the main module (issue 46: a feature costs the first
//! load nothing). [`Bookmarks`] is made when a card first asks: it knows
//! which posts are bookmarked (for the Bookmark buttons) and follows other
//! tabs. What writes (`kept.rs`, with its parser) comes later still, in a
//! split module reached through a [`Keeper`] the caller gives: when the
//! person bookmarks, or when there are bookmarks to keep up to date. From
//! then on the store's reads and deletions reach the bookmarks; what was
//! read before is caught up with at once.

pub mod kept;

use crate::account::session::Session;
use crate::browser::web_storage::{self, Key};
use leptos::prelude::*;
use perch_model::{Parent, Post};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// A change to an account's bookmarks, applied by `kept::change`.
#[derive(Clone, Debug)]
pub enum Change {
    /// Bookmark this post.
    Add(Post),
    /// Remove the bookmark of this post.
    Remove(String),
    /// Put this bookmark back (Undo).
    Put(kept::Bookmark),
    /// This post was read again: its bookmark keeps it.
    Read(Post),
    /// This post was found deleted.
    Gone(String),
}

/// Loads the split module that writes and runs `kept::keep` there with the
/// change, if any: given by the component room, which owns `lazy!`.
pub type Keeper = fn(Bookmarks, Option<Change>);

/// Which posts the current account bookmarked, followed across tabs.
#[derive(Clone)]
pub struct Bookmarks {
    /// The bookmarked posts' uuids, as kept; set again at every change.
    ids: RwSignal<Vec<String>>,
    /// A bookmark could not be kept (storage full or off): the post's uuid.
    failed: RwSignal<Option<String>>,
    session: Session,
    pub(crate) store: super::Store,
    keeper: Keeper,
    /// The store's reads reach the bookmarks (`kept::keep` made it so).
    pub(crate) following: Arc<AtomicBool>,
}

thread_local! {
    /// The shell's reactive owner: the bookmarks live as long as it.
    static SHELL: std::cell::OnceCell<Owner> = const { std::cell::OnceCell::new() };
    static MADE: std::cell::OnceCell<Bookmarks> = const { std::cell::OnceCell::new() };
}

/// Called once by the shell: what is made later for the whole visit is
/// made under its owner, not under the card that asked first.
pub fn made_under_shell() {
    if let Some(owner) = Owner::current() {
        SHELL.with(|s| drop(s.set(owner)));
    }
}

/// The shell's owner, for what else is made later for the whole visit
/// (the lists, `store/lists.rs`).
pub(crate) fn shell_owner() -> Option<Owner> {
    SHELL.with(|s| s.get().cloned())
}

/// The bookmarks, made the first time they are asked for.
pub fn bookmarks(keeper: Keeper) -> Option<Bookmarks> {
    if let Some(made) = MADE.with(|m| m.get().cloned()) {
        return Some(made);
    }
    let (session, store) = (use_context::<Session>()?, use_context::<super::Store>()?);
    let owner = SHELL.with(|s| s.get().cloned())?;
    let made = owner.with(|| Bookmarks::make(session, store, keeper));
    MADE.with(|m| drop(m.set(made.clone())));
    Some(made)
}

impl Bookmarks {
    fn make(session: Session, store: super::Store, keeper: Keeper) -> Self {
        let bookmarks = Bookmarks {
            ids: RwSignal::new(Vec::new()),
            failed: RwSignal::new(None),
            session,
            store,
            keeper,
            following: Arc::new(AtomicBool::new(false)),
        };
        let this = bookmarks.clone();
        Effect::new(move |_| {
            session.user();
            this.read();
            // Bookmarks to keep up to date: the writing module follows the store.
            if !this.following.load(Ordering::Relaxed) && this.ids.with_untracked(|ids| !ids.is_empty()) {
                (this.keeper)(this.clone(), None);
            }
        });
        bookmarks.read();
        let this = bookmarks.clone();
        web_storage::on_change_elsewhere(move |name, _| {
            if name.starts_with("perch.bookmarks.") {
                this.read();
            }
        });
        bookmarks
    }

    /// The current account, whose bookmarks these are.
    pub fn account(&self) -> Option<String> {
        self.session.signed_untracked().map(|s| s.user.uuid)
    }

    /// Reads the uuids again, as kept now.
    pub(crate) fn read(&self) {
        let ids = self.account().map(|a| ids_kept(&a)).unwrap_or_default();
        let _ = self.ids.try_set(ids);
    }

    /// Whether `uuid` is bookmarked, untracked.
    pub(crate) fn holds(&self, uuid: &str) -> bool {
        self.ids.try_with_untracked(|ids| ids.iter().any(|i| i == uuid)).unwrap_or(false)
    }

    /// The uuids as this tab knows them, untracked.
    pub(crate) fn ids_untracked(&self) -> Vec<String> {
        self.ids.try_get_untracked().unwrap_or_default()
    }

    /// Whether `uuid` is bookmarked (tracked).
    pub fn has(&self, uuid: &str) -> bool {
        self.ids.with(|ids| ids.iter().any(|i| i == uuid))
    }

    /// Tracks every change to the bookmarks, here or in another tab.
    pub fn track(&self) {
        self.ids.track();
    }

    /// Whether keeping a bookmark of `uuid` failed last (tracked).
    pub fn failed(&self, uuid: &str) -> bool {
        self.failed.with(|f| f.as_deref() == Some(uuid))
    }

    /// Bookmarks `post`, or removes its bookmark, kept at once (a page
    /// left right after still has it); when the browser refuses, nothing
    /// changes and the button says so.
    pub fn toggle(&self, post: &Post) {
        let on = !self.holds(&post.uuid);
        let change = if on { Change::Add(post.clone()) } else { Change::Remove(post.uuid.clone()) };
        self.keep_now(change);
    }

    /// Applies an Add or a Remove at once, with the browser's JSON parser
    /// (the list's own is in the writing module, which may not be here
    /// yet): the uuids are read again after, and a refusal says so. The
    /// writing module is reached the first time there is a bookmark, to
    /// keep it up to date.
    pub fn keep_now(&self, change: Change) {
        let Some(account) = self.account() else { return };
        let uuid = match &change {
            Change::Add(post) => post.uuid.clone(),
            Change::Remove(uuid) => uuid.clone(),
            _ => return self.keep(change),
        };
        let kept = write_now(&account, &change);
        self.read();
        let _ = self.failed.try_set((!kept).then_some(uuid));
        if kept && !self.following.load(Ordering::Relaxed) && matches!(change, Change::Add(_)) {
            (self.keeper)(self.clone(), None);
        }
    }

    /// Applies `change` in the writing module.
    pub fn keep(&self, change: Change) {
        (self.keeper)(self.clone(), Some(change));
    }

    /// What the writing module answers: the uuids are read again (a
    /// refusal rolls back what was shown), and a refused Add or Remove says so.
    pub(crate) fn answered(&self, change: Option<&Change>, kept: bool) {
        self.read();
        if !kept {
            let uuid = match change {
                Some(Change::Add(post)) => Some(post.uuid.clone()),
                Some(Change::Remove(uuid)) => Some(uuid.clone()),
                _ => None,
            };
            let _ = self.failed.try_set(uuid);
        }
    }

    /// The writing module could not be loaded (offline, not kept yet).
    pub fn unreachable(&self, change: Option<Change>) {
        self.answered(change.as_ref(), change.is_none());
    }
}

/// What is kept as a list, read by the browser's JSON parser; `None` when
/// it is not a list (nothing kept is an empty one).
pub(crate) fn js_list(text: &str) -> Option<js_sys::Array> {
    if text.is_empty() {
        return Some(js_sys::Array::new());
    }
    js_sys::JSON::parse(text).ok()?.dyn_into::<js_sys::Array>().ok()
}

/// `entry.post.uuid`, when it is a non-empty string.
fn uuid_of(entry: &wasm_bindgen::JsValue) -> Option<String> {
    let field = |v: &wasm_bindgen::JsValue, name: &str| {
        v.is_object().then(|| js_sys::Reflect::get(v, &name.into()).ok()).flatten()
    };
    field(entry, "post").and_then(|p| field(&p, "uuid")).and_then(|u| u.as_string()).filter(|u| !u.is_empty())
}

/// Where `account`'s bookmarks are kept.
pub(crate) fn key(account: &str) -> Key {
    Key::Bookmarks { account: account.to_owned() }
}

/// The uuids of `account`'s bookmarks as kept here, each once. Read by the
/// browser's JSON parser: what the Bookmark buttons need costs no parser.
pub fn ids_kept(account: &str) -> Vec<String> {
    let Some(all) = js_list(&web_storage::get(&key(account)).unwrap_or_default()) else { return Vec::new() };
    let mut ids: Vec<String> = Vec::new();
    for uuid in all.iter().filter_map(|entry| uuid_of(&entry)) {
        if !ids.contains(&uuid) {
            ids.push(uuid);
        }
    }
    ids
}

/// A post as a bookmark keeps it: without the account's like (the store
/// learns that from the server) and its parent by uuid alone.
pub(crate) fn as_kept(post: &Post) -> Post {
    let mut post = post.clone();
    post.liked = None;
    if let Parent::Post(parent) = &post.parent {
        post.parent = Parent::Uuid(parent.uuid.clone());
    }
    post
}

/// Adds a bookmark at the top, or removes one, in what `account` keeps,
/// with the browser's parser; every other entry is left as it was (the
/// writing module checks them). `false` when what is kept is not a list,
/// or the browser refused to keep it.
fn write_now(account: &str, change: &Change) -> bool {
    let Some(all) = js_list(&web_storage::get(&key(account)).unwrap_or_default()) else { return false };
    let (uuid, entry) = match change {
        Change::Add(post) => {
            let Some(post) = serde_json::to_string(&as_kept(post)).ok().and_then(|p| js_sys::JSON::parse(&p).ok())
            else {
                return false;
            };
            let entry = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&entry, &"post".into(), &post);
            let _ = js_sys::Reflect::set(&entry, &"at".into(), &js_sys::Date::now().into());
            (uuid_of(&entry), Some(entry))
        }
        Change::Remove(uuid) => (Some(uuid.clone()), None),
        _ => return false,
    };
    let kept: js_sys::Array = all.iter().filter(|e| uuid_of(e) != uuid).collect();
    if let Some(entry) = entry {
        kept.unshift(&entry);
        kept.set_length(kept.length().min(kept::MOST as u32));
    }
    js_sys::JSON::stringify(&kept).ok().and_then(|t| t.as_string()).is_some_and(|t| web_storage::set(&key(account), &t))
}

/// How many bookmarks `account` keeps here (for the sign-out question).
pub fn count(account: &str) -> usize {
    ids_kept(account).len()
}
