//! The outbox: what the account did that the server has not taken yet.
//! A post, reply, edit, deletion, like or follow made while the server
//! cannot be reached (offline, or a try got no answer) waits here instead
//! of failing. It is kept in IndexedDB (database `perch`, store `outbox`,
//! one JSON text per account, beside the local copy of `store/copy/`), so it
//! survives a reload, a browser restart and a crashed tab.
//!
//! It is sent in order ([`Store::send_waiting`]) on start, on `online` and
//! when a request is answered again, by one tab at a time (a lock shared
//! by tabs). Each action carries its own Idempotency-Key, kept with it, so
//! a try whose answer was lost is done once.
//!
//! Folding: a like or follow clicked back to what the server has leaves
//! the outbox, and nothing is sent; an edit or a deletion of a waiting post
//! changes or removes it; a reply to a waiting post waits for it and is
//! sent with its real uuid. A thread written as one (`store/thread.rs`) is
//! such a chain of replies, each part marked with its place ([`Part`]), so
//! a part that cannot go holds every part after it.
//!
//! Refusals are never silent: a refused action stays, with the server's
//! reason, until it is tried again, changed or discarded. A 401 waits for
//! the account to sign in again, a 429 for its Retry-After, a 5xx or a
//! network failure is tried again with backoff, [`TRIES`] times.
//!
//! Every change is made under a lock shared by tabs, on what IndexedDB
//! holds at that moment, and other tabs hear of it through
//! `Key::Outbox` (which also holds the count the sign-out question reads).
//!
//! The room: this file holds the types (an [`Action`], a [`Waiting`] one
//! and its [`Refusal`]) and the store's outbox as shown; `kept.rs` the
//! stored forms and their version; `changes.rs` every change (folding,
//! discard, undo, retry, a changed text); `sending.rs` sending in order,
//! tries, backoff and Retry-After. How it shows is `components/waiting.rs`.

mod changes;
mod kept;
mod sending;
#[cfg(test)]
mod tests;

use super::toggle::Toggle;
use super::{Store, ToggleKey};
use crate::api::{classify, ApiError};
use crate::browser::web_storage::{self, Key};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use kept::{load, ActionForm, WaitingForm};
use sending::offline;

pub use kept::{count, forget, parse, read};
pub use sending::Sender;

/// The kept outbox's shape: an outbox of another version is not read.
pub const VERSION: u32 = 1;
/// Tries of a 5xx or a network failure before the action waits for Retry.
pub const TRIES: u32 = 8;
/// At most this many actions wait; beyond, a new one fails as before.
pub const WAITING_KEPT: usize = 1000;
/// A waiting post's uuid starts with this until the server gives it one.
pub const LOCAL: &str = "waiting-";
/// How long a new post is held with Undo, when the reader asked for it.
pub const UNDO_MS: i64 = 5_000;
/// The lock changes of the outbox take, in every tab.
const CHANGE_LOCK: &str = "perch.outbox.change";
/// The lock only the sending tab holds.
const SEND_LOCK: &str = "perch.outbox.send";

/// One thing the account did. Kept as a tuple ([`ActionForm`]): a
/// smaller reader than an enum of structs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "ActionForm", try_from = "ActionForm")]
pub enum Action {
    /// A new post, or a reply to `parent` (a uuid, or a waiting post's);
    /// `part`: its place in a thread sent as one (`store/thread.rs`).
    Post {
        id: String,
        content: String,
        locked: bool,
        parent: Option<String>,
        part: Option<Part>,
    },
    /// A change to the account's post; `before` is what it was.
    Edit {
        uuid: String,
        content: String,
        locked: bool,
        before: String,
        was_locked: bool,
    },
    Delete {
        uuid: String,
    },
    /// Like (`want`) or unlike, where the server had `was`.
    Like {
        uuid: String,
        want: bool,
        was: bool,
    },
    /// `who`: the user's @username when it was made, for the list.
    Follow {
        uuid: String,
        want: bool,
        was: bool,
        who: String,
    },
}

/// A post's place in a thread of several, sent as one: part number
/// `index` (the first is 1) of `of`, of the thread whose first part's
/// waiting id is `first`, written under `under` (the post replied to;
/// `None`: a new post). Each part replies to the one before, so a part
/// waits until the one before is sent; the outbox shows the parts still
/// waiting as one item. Kept as one text, `first index of under`.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub first: String,
    pub index: u32,
    pub of: u32,
    pub under: Option<String>,
}

impl Part {
    pub(super) fn kept(&self) -> String {
        format!("{} {} {} {}", self.first, self.index, self.of, self.under.as_deref().unwrap_or(""))
    }

    pub(super) fn read(text: &str) -> Option<Part> {
        let mut fields = text.split(' ');
        let first = fields.next().filter(|f| !f.is_empty())?.to_owned();
        let index = fields.next()?.parse().ok()?;
        let of = fields.next()?.parse().ok()?;
        let under = fields.next().filter(|u| !u.is_empty()).map(str::to_owned);
        (index >= 1 && index <= of && fields.next().is_none()).then_some(Part { first, index, of, under })
    }
}

/// Why the server refused an action (`status` 0: no answer, tried
/// [`TRIES`] times). Kept as `[status, message]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "(u16, String)", from = "(u16, String)")]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

impl Refusal {
    pub fn error(&self) -> ApiError {
        match self.status {
            0 => ApiError::Network(self.message.clone()),
            status => classify(status, self.message.clone(), None),
        }
    }
}

/// An action and where it stands. Kept as a tuple ([`WaitingForm`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "WaitingForm", from = "WaitingForm")]
pub struct Waiting {
    /// Its Idempotency-Key, and its name in the outbox.
    pub key: String,
    pub action: Action,
    /// When it was made (browser time, ms).
    pub made: i64,
    /// When a try first got no answer: the server may have done it.
    pub tried: Option<i64>,
    pub tries: u32,
    /// Not tried again before this time (backoff, Retry-After).
    pub after: i64,
    pub refused: Option<Refusal>,
}

impl Waiting {
    /// The waiting post's own id, if this is a post.
    pub fn post_id(&self) -> Option<&str> {
        match &self.action {
            Action::Post { id, .. } => Some(id),
            _ => None,
        }
    }

    pub fn new(action: Action) -> Self {
        Waiting { key: new_key(), action, made: now_ms(), tried: None, tries: 0, after: 0, refused: None }
    }

    /// Its place in a thread sent as one, if it is a part of one.
    pub fn part(&self) -> Option<&Part> {
        match &self.action {
            Action::Post { part, .. } => part.as_ref(),
            _ => None,
        }
    }

    /// The waiting post this one replies to, if any.
    fn waits_for(&self) -> Option<&str> {
        match &self.action {
            Action::Post { parent: Some(p), .. } if p.starts_with(LOCAL) => Some(p),
            _ => None,
        }
    }

    /// Held for Undo send: not tried yet, and not to be before `after`.
    pub fn held(&self) -> bool {
        self.tries == 0 && self.after > 0 && self.refused.is_none()
    }

    /// The toggle it drives, if it is a like or follow.
    pub fn toggle(&self) -> Option<(ToggleKey, bool, bool)> {
        match &self.action {
            Action::Like { uuid, want, was } => Some((ToggleKey::Like(uuid.clone()), *want, *was)),
            Action::Follow { uuid, want, was, .. } => Some((ToggleKey::Follow(uuid.clone()), *want, *was)),
            _ => None,
        }
    }
}

/// Whether new posts and replies are held [`UNDO_MS`] with Undo (a
/// setting of the browser's, off unless turned on).
pub fn undo_send() -> bool {
    web_storage::get(&Key::UndoSend).is_some_and(|v| v == "on")
}

pub fn set_undo_send(on: bool) {
    if on {
        web_storage::set(&Key::UndoSend, "on");
    } else {
        web_storage::remove(&Key::UndoSend);
    }
}

/// Browser time, in milliseconds.
pub fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// A new Idempotency-Key: a random uuid from the browser.
pub fn new_key() -> String {
    window().crypto().map(|c| c.random_uuid()).unwrap_or_default()
}

impl Store {
    /// The account's waiting actions, in the order they will be sent.
    pub fn waiting(&self) -> ArcReadSignal<Vec<Waiting>> {
        self.outbox.read_only()
    }

    /// Whether a new write should wait in the outbox rather than be tried
    /// now: the browser is offline, the server did not answer the last
    /// request, or earlier actions are still waiting (order is kept).
    pub(in crate::store) fn must_wait(&self) -> bool {
        offline()
            || self.api.reach_untracked().unreachable
            || self.outbox.with_untracked(|w| w.iter().any(|w| w.refused.is_none()))
    }

    /// Starts from what was kept for the account at start: the waiting
    /// likes and follows show their new state, edits their new text; then
    /// the outbox is sent by `sender`, and kept following other tabs.
    pub fn start_outbox(&self, kept: Option<(String, String)>, sender: Sender) {
        let _ = self.inner.outbox_sender.set(sender);
        // What IndexedDB held at start is shown at once, unless a discard
        // of it was not finished; then it is read again under the lock,
        // the discard finished and the count set from it (`kept.rs`).
        if let Some(me) = self.me() {
            if kept::discarded_at(&me).is_none() {
                if let Some(waiting) = kept.and_then(|(account, text)| parse(&me, &account, &text)) {
                    self.outbox_now(waiting, false);
                }
            }
            let store = self.clone();
            leptos::task::spawn_local(async move { store.read_outbox_again().await });
        }
        // Signed in during the visit: that account's outbox is read. Signed
        // in again after a 401 stopped it: it is sent.
        let (store, session) = (self.clone(), self.session);
        Effect::new(move |was: Option<(Option<String>, bool)>| {
            let now = (session.user().map(|u| u.uuid), session.ended());
            match &was {
                Some((me, _)) if *me != now.0 && now.0.is_some() => {
                    let store = store.clone();
                    leptos::task::spawn_local(async move { store.read_outbox_again().await });
                }
                Some((_, true)) if !now.1 => store.send_waiting(true),
                _ => {}
            }
            now
        });
        // Another tab changed it.
        let store = self.clone();
        web_storage::on_change_elsewhere(move |name, _| {
            let Some(me) = store.me() else { return };
            if name == (Key::Outbox { account: me }).name() {
                let store = store.clone();
                leptos::task::spawn_local(async move { store.read_outbox_again().await });
            }
        });
        let store = self.clone();
        let online = window_event_listener(leptos::ev::online, move |_| store.send_waiting(true));
        on_cleanup(move || online.remove());
        // A request answered again after none was: the server is back.
        let (store, api) = (self.clone(), self.api.clone());
        Effect::new(move |was_unreachable: Option<bool>| {
            let unreachable = api.reach().unreachable;
            if was_unreachable == Some(true) && !unreachable {
                store.send_waiting(true);
            }
            unreachable
        });
        self.send_waiting(false);
    }

    /// Reads the account's outbox as IndexedDB holds it once no tab is
    /// changing it (a change announced is then written whole), and sends it.
    async fn read_outbox_again(&self) {
        let Some(me) = self.me() else { return };
        let read = crate::browser::tab_lock::exclusive(CHANGE_LOCK, async {
            let mut waiting = load(&me).await?;
            // A discard cut off by a reload: what was made before it goes.
            if let Some(at) = kept::discarded_at(&me) {
                let before = waiting.len();
                waiting.retain(|w| w.made > at);
                if waiting.len() != before && !kept::save(&me, &waiting, before).await {
                    return None;
                }
                kept::discard_done(&me);
            }
            kept::repair_count(&me, waiting.len());
            Some(waiting)
        })
        .await;
        if let Some(waiting) = read {
            if self.outbox.with_untracked(|now| *now != waiting) {
                self.outbox_now(waiting, true);
            }
            self.send_waiting(false);
        }
    }

    /// The outbox is `waiting` now: shown, and the toggles follow it.
    /// `elsewhere`: another tab changed it.
    fn outbox_now(&self, waiting: Vec<Waiting>, elsewhere: bool) {
        let before = self.outbox.get_untracked();
        for (key, want, was) in waiting.iter().filter_map(Waiting::toggle) {
            let toggle = self.toggle_with(key, Toggle::new(was));
            toggle.update(|t| t.waits(was, want));
        }
        // A toggle that left the outbox in another tab was sent there.
        for (key, want, _) in before.iter().filter(|_| elsewhere).filter_map(Waiting::toggle) {
            if !waiting.iter().filter_map(Waiting::toggle).any(|(k, ..)| k == key) {
                let toggle = self.toggle_with(key, Toggle::new(want));
                toggle.update(|t| t.learn_waited(want));
            }
        }
        self.outbox.set(waiting);
    }

    /// Whether the like or follow `key` waits in the outbox.
    pub(in crate::store) fn toggle_waiting(&self, key: &ToggleKey) -> bool {
        self.outbox.with_untracked(|list| list.iter().any(|w| w.toggle().is_some_and(|(k, ..)| &k == key)))
    }

    /// The waiting edit of the account's post `uuid`, if any: its text
    /// and Locked switch are what the post shows until it is sent.
    pub fn waiting_edit(&self, uuid: &str) -> Option<(String, bool)> {
        self.outbox.with(|list| {
            list.iter().rev().find_map(|w| match &w.action {
                Action::Edit { uuid: u, content, locked, .. } if u == uuid => Some((content.clone(), *locked)),
                _ => None,
            })
        })
    }

    /// The waiting action on the post or toggle `uuid` (an edit, a
    /// deletion, a like or follow), for its mark.
    pub fn waiting_on(&self, uuid: &str) -> Option<Waiting> {
        self.outbox.with(|list| {
            list.iter()
                .rev()
                .find(|w| match &w.action {
                    Action::Edit { uuid: u, .. }
                    | Action::Delete { uuid: u }
                    | Action::Like { uuid: u, .. }
                    | Action::Follow { uuid: u, .. } => u == uuid,
                    Action::Post { .. } => false,
                })
                .cloned()
        })
    }
}
