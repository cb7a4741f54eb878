//! The outbox: what the account did that the server has not taken yet.
//! A post, reply, edit, deletion, like or follow made while the server
//! cannot be reached (offline, or a try got no answer) waits here instead
//! of failing. It is kept in IndexedDB (database `perch`, store `outbox`,
//! one JSON text per account, beside the local copy of `copy.rs`), so it
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
//! sent with its real uuid.
//!
//! Refusals are never silent: a refused action stays, with the server's
//! reason, until it is tried again, changed or discarded. A 401 waits for
//! the account to sign in again, a 429 for its Retry-After, a 5xx or a
//! network failure is tried again with backoff, [`TRIES`] times.
//!
//! Every change is made under a lock shared by tabs, on what IndexedDB
//! holds at that moment, and other tabs hear of it through
//! `Key::Outbox` (which also holds the count the sign-out question reads).

use super::toggle::Toggle;
use super::{lock, Store, ToggleKey};
use crate::api::{classify, Api, ApiError};
use crate::browser::indexed_db::{call, idb, read_at_start, Db};
use crate::browser::web_storage::{self, DraftContext, Key};
use leptos::prelude::*;
use perch_model::{FollowAction, LikeAction, NewPost, Parent, Post, PostUpdate};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

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
    /// A new post, or a reply to `parent` (a uuid, or a waiting post's).
    Post {
        id: String,
        content: String,
        locked: bool,
        parent: Option<String>,
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

/// An action as kept: kind (0 post, 1 edit, 2 delete, 3 like, 4 follow),
/// its post's or user's uuid (a waiting post's own id), its text (a
/// follow: the @username), two switches (locked and was locked; want and
/// was), the parent, and an edit's text before.
type ActionForm = (u8, String, String, bool, bool, Option<String>, String);

impl From<Action> for ActionForm {
    fn from(action: Action) -> Self {
        match action {
            Action::Post { id, content, locked, parent } => (0, id, content, locked, false, parent, String::new()),
            Action::Edit { uuid, content, locked, before, was_locked } => {
                (1, uuid, content, locked, was_locked, None, before)
            }
            Action::Delete { uuid } => (2, uuid, String::new(), false, false, None, String::new()),
            Action::Like { uuid, want, was } => (3, uuid, String::new(), want, was, None, String::new()),
            Action::Follow { uuid, want, was, who } => (4, uuid, who, want, was, None, String::new()),
        }
    }
}

impl TryFrom<ActionForm> for Action {
    type Error = String;

    fn try_from((kind, uuid, text, a, b, parent, before): ActionForm) -> Result<Self, String> {
        Ok(match kind {
            0 => Action::Post { id: uuid, content: text, locked: a, parent },
            1 => Action::Edit { uuid, content: text, locked: a, before, was_locked: b },
            2 => Action::Delete { uuid },
            3 => Action::Like { uuid, want: a, was: b },
            4 => Action::Follow { uuid, want: a, was: b, who: text },
            _ => return Err(format!("no action {kind}")),
        })
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

impl From<Refusal> for (u16, String) {
    fn from(r: Refusal) -> Self {
        (r.status, r.message)
    }
}

impl From<(u16, String)> for Refusal {
    fn from((status, message): (u16, String)) -> Self {
        Refusal { status, message }
    }
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

/// A waiting action as kept: key, action, made, tried, tries, after, refused.
type WaitingForm = (String, Action, i64, Option<i64>, u32, i64, Option<Refusal>);

impl From<Waiting> for WaitingForm {
    fn from(w: Waiting) -> Self {
        (w.key, w.action, w.made, w.tried, w.tries, w.after, w.refused)
    }
}

impl From<WaitingForm> for Waiting {
    fn from((key, action, made, tried, tries, after, refused): WaitingForm) -> Self {
        Waiting { key, action, made, tried, tries, after, refused }
    }
}

impl Waiting {
    pub fn new(action: Action) -> Self {
        Waiting { key: new_key(), action, made: now_ms(), tried: None, tries: 0, after: 0, refused: None }
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

/// A change to the outbox, applied to what every tab left in it.
type Change<'a> = Box<dyn FnOnce(&mut Vec<Waiting>) + 'a>;

/// An account's outbox as kept: version, account, the actions in order.
type Kept = (u32, String, Vec<Waiting>);

/// The outbox `index.html` read for the account current at start.
pub async fn read() -> Option<(String, String)> {
    read_at_start(Db::Outbox).await
}

/// What was kept for `me`, if it reads as this version's outbox of `me`.
pub fn parse(me: &str, account: &str, text: &str) -> Option<Vec<Waiting>> {
    let (version, kept_for, waiting): Kept = serde_json::from_str(text).ok()?;
    (version == VERSION && kept_for == me && account == me && waiting.len() <= WAITING_KEPT).then_some(waiting)
}

/// The outbox IndexedDB holds for `me` now; `None` when it cannot be read.
async fn load(me: &str) -> Option<Vec<Waiting>> {
    if count(me) == 0 {
        return Some(Vec::new());
    }
    let text = call(Db::Outbox, "get", &[me.into()]).await.ok()?;
    match text.as_string() {
        Some(text) => Some(parse(me, me, &text).unwrap_or_default()),
        None => Some(Vec::new()),
    }
}

/// Keeps `waiting` as `me`'s outbox, where it was `before`. Answers
/// whether it is on disk now: the write's transaction completed. A write
/// refused (storage full, the account signed out meanwhile) leaves what
/// was kept, count included, as it was.
async fn save(me: &str, waiting: &[Waiting], before: usize) -> bool {
    let text = serde_json::to_string(&(VERSION, me, waiting)).unwrap_or_default();
    // The count is written first and removed last: without it, what
    // IndexedDB holds was discarded at a sign-out and is not read again.
    // Other tabs hear of the change; the sign-out question reads the count.
    let key = Key::Outbox { account: me.to_owned() };
    if waiting.is_empty() {
        let _ = call(Db::Outbox, "drop", &[me.into()]).await;
        web_storage::remove(&key);
        return true;
    }
    if !web_storage::set(&key, &format!("{} {}", waiting.len(), now_ms())) {
        return false;
    }
    let kept = call(Db::Outbox, "put", &[me.into(), JsValue::from_str(&text)]).await.is_ok();
    if !kept && before == 0 {
        web_storage::remove(&key);
    } else if !kept {
        web_storage::set(&key, &format!("{before} {}", now_ms()));
    }
    kept
}

/// How many actions `account` has waiting, as the last change left them.
pub fn count(account: &str) -> usize {
    web_storage::get(&Key::Outbox { account: account.to_owned() })
        .and_then(|v| v.split(' ').next().and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

/// Drops `account`'s outbox (sign-out, when the person said so).
pub fn forget(account: &str) {
    web_storage::remove(&Key::Outbox { account: account.to_owned() });
    let account = JsValue::from_str(account);
    wasm_bindgen_futures::spawn_local(async move {
        let _ = call(Db::Outbox, "drop", &[account]).await;
    });
}

/// Whether the browser says it is offline.
fn offline() -> bool {
    !window().navigator().on_line()
}

/// How long to wait after `tries` failed tries: 2 s, doubling, at most 2 min.
fn backoff_ms(tries: u32) -> i64 {
    (2_000i64 << tries.saturating_sub(1).min(16)).min(120_000)
}

/// What a try of an action ended with.
enum Outcome {
    Posted(Post),
    Edited(Post),
    Deleted,
    /// The toggle's state on the server now.
    Toggled(bool),
    /// The server had the like or follow already (read back: a try whose
    /// answer was lost did it); the counts came with what was read.
    Found(bool),
}

impl Store {
    /// The account's waiting actions, in the order they will be sent.
    pub fn waiting(&self) -> ArcReadSignal<Vec<Waiting>> {
        self.outbox.read_only()
    }

    /// Whether a new write should wait in the outbox rather than be tried
    /// now: the browser is offline, the server did not answer the last
    /// request, or earlier actions are still waiting (order is kept).
    pub(super) fn must_wait(&self) -> bool {
        offline()
            || self.api.reach_untracked().unreachable
            || self.outbox.with_untracked(|w| w.iter().any(|w| w.refused.is_none()))
    }

    /// Starts from what was kept for the account at start: the waiting
    /// likes and follows show their new state, edits their new text; then
    /// the outbox is sent, and kept following other tabs.
    pub fn start_outbox(&self, kept: Option<(String, String)>) {
        if let Some(me) = self.me() {
            if count(&me) == 0 {
                // Discarded at a sign-out whose drop may not have finished.
                if kept.is_some() {
                    forget(&me);
                }
            } else if let Some(waiting) = kept.and_then(|(account, text)| parse(&me, &account, &text)) {
                self.outbox_now(waiting, false);
            }
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
        if let Some(waiting) = crate::browser::tab_lock::exclusive(CHANGE_LOCK, load(&me)).await {
            self.outbox_now(waiting, true);
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

    /// Changes the outbox as `change` says, on what every tab left in it,
    /// and keeps the result; answers what `change` answered (`None`
    /// signed out).
    pub(super) async fn change_outbox<R>(&self, change: impl FnOnce(&mut Vec<Waiting>) -> R) -> Option<R> {
        // Written out rather than through `change_outbox_of`: one state
        // machine per answer type, not two.
        let me = self.me()?;
        let mut answer = None;
        let kept = self.change_outbox_with(&me, Box::new(|list| answer = Some(change(list)))).await;
        answer.filter(|_| kept)
    }

    /// [`Store::change_outbox`] of the account `me`, whether or not it is
    /// still current (a send that ended after another account became
    /// current is recorded in its own account's outbox).
    /// `None` also when the change could not be kept: nothing changed.
    async fn change_outbox_of<R>(&self, me: &str, change: impl FnOnce(&mut Vec<Waiting>) -> R) -> Option<R> {
        let mut answer = None;
        let kept = self.change_outbox_with(me, Box::new(|list| answer = Some(change(list)))).await;
        answer.filter(|_| kept)
    }

    /// [`Store::change_outbox`]'s work, one copy of it for every caller.
    fn change_outbox_with<'a>(
        &'a self,
        me: &'a str,
        change: Change<'a>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = bool> + 'a>> {
        Box::pin(async move {
            let current = self.me().as_deref() == Some(me);
            let kept = crate::browser::tab_lock::exclusive(CHANGE_LOCK, async {
                let on_disk = idb(Db::Outbox).is_some();
                let mut waiting = match on_disk {
                    true => load(me).await.unwrap_or_else(|| self.outbox.get_untracked()),
                    false if current => self.outbox.get_untracked(),
                    false => return false,
                };
                let before = waiting.clone();
                change(&mut waiting);
                // Looking (the next action to send) writes nothing and
                // wakes no other tab. What is shown as waiting is on disk
                // first (a browser without IndexedDB keeps it for the visit).
                if waiting != before && !save(me, &waiting, before.len()).await && on_disk {
                    return false;
                }
                if current && self.outbox.with_untracked(|now| *now != waiting) {
                    self.outbox_now(waiting, false);
                }
                true
            })
            .await;
            kept
        })
    }

    /// Puts `action` in the outbox and sends what can be sent. Answers
    /// false when it could not be kept (the outbox is full).
    pub(super) async fn wait_with(&self, mut waiting: Waiting) -> bool {
        if waiting.key.is_empty() {
            waiting.key = new_key();
        }
        let kept = self
            .change_outbox(move |list| {
                if list.len() >= WAITING_KEPT {
                    return false;
                }
                list.push(waiting);
                true
            })
            .await
            .unwrap_or(false);
        if kept {
            self.send_waiting(false);
        }
        kept
    }

    /// A like or follow clicked while it waits (or while writes wait): the
    /// outbox holds what the person wants now, or nothing when that is
    /// what the server has.
    pub(super) fn toggle_waits(&self, key: ToggleKey, want: bool, was: bool, tried: Option<i64>) {
        let who = match &key {
            ToggleKey::Follow(uuid) => self.user(uuid).map(|u| u.with_untracked(|u| u.username.clone())),
            ToggleKey::Like(_) => None,
        }
        .unwrap_or_default();
        let (store, toggle) = (self.clone(), self.toggle_with(key.clone(), Toggle::new(was)));
        let error = self.toggle_error_mut(&key);
        leptos::task::spawn_local(async move {
            let kept = store
                .change_outbox(move |list| {
                    let same = |w: &Waiting| w.toggle().is_some_and(|(k, ..)| k == key);
                    match list.iter_mut().find(|w| same(w)) {
                        Some(_) if want == was => list.retain(|w| !same(w)),
                        Some(w) => {
                            w.action = action_for(&key, want, was, &who);
                            w.refused = None;
                        }
                        None if want != was => {
                            let mut w = Waiting::new(action_for(&key, want, was, &who));
                            w.tried = tried;
                            list.push(w)
                        }
                        None => {}
                    }
                })
                .await;
            // Shown as waiting only once it is kept on disk; the browser
            // refusing to keep it is a failure, shown as one.
            match kept {
                Some(()) => toggle.update(|t| {
                    if t.busy() {
                        t.park()
                    }
                }),
                None => {
                    toggle.update(Toggle::failed);
                    error.set(Some(ApiError::Network(String::new()).explain()));
                }
            }
            store.send_waiting(false);
        });
    }

    /// Discards the waiting action `key`: a waiting post goes with the
    /// replies that wait for it; a like or follow shows the server's state
    /// again, an edit the post as it was.
    pub fn discard_waiting(&self, key: &str) {
        let (store, key) = (self.clone(), key.to_owned());
        leptos::task::spawn_local(async move {
            let gone = store
                .change_outbox(|list| {
                    let mut gone: Vec<Waiting> = list.iter().filter(|w| w.key == key).cloned().collect();
                    // Replies to a discarded post, and theirs.
                    loop {
                        let ids: Vec<String> = gone.iter().filter_map(|w| post_id(w).map(str::to_owned)).collect();
                        let more: Vec<Waiting> = list
                            .iter()
                            .filter(|w| w.waits_for().is_some_and(|p| ids.iter().any(|i| i == p)))
                            .filter(|w| !gone.iter().any(|g| g.key == w.key))
                            .cloned()
                            .collect();
                        if more.is_empty() {
                            break;
                        }
                        gone.extend(more);
                    }
                    list.retain(|w| !gone.iter().any(|g| g.key == w.key));
                    gone
                })
                .await
                .unwrap_or_default();
            for w in gone {
                match w.action {
                    Action::Like { uuid, was, .. } => {
                        store.toggle_with(ToggleKey::Like(uuid), Toggle::new(was)).set(Toggle::new(was))
                    }
                    Action::Follow { uuid, was, .. } => {
                        store.toggle_with(ToggleKey::Follow(uuid), Toggle::new(was)).set(Toggle::new(was))
                    }
                    _ => {}
                }
            }
        });
    }

    /// Undo send: the held post leaves the outbox (with the replies that
    /// wait for it), and its text goes back into its box.
    pub fn undo_waiting(&self, key: &str) {
        let found = self.outbox.with_untracked(|l| l.iter().find(|w| w.key == key).map(|w| w.action.clone()));
        if let Some(Action::Post { content, parent, .. }) = found {
            let context = parent.map_or(DraftContext::New, DraftContext::Reply);
            let now = self.writing(context.clone()).text.get_untracked();
            let text = if now.trim().is_empty() { content } else { format!("{content}\n\n{now}") };
            self.typed(context, text, None);
        }
        self.discard_waiting(key);
    }

    /// Tries a refused or stopped action again now.
    pub fn retry_waiting(&self, key: &str) {
        let (store, key) = (self.clone(), key.to_owned());
        leptos::task::spawn_local(async move {
            store
                .change_outbox(|list| {
                    if let Some(w) = list.iter_mut().find(|w| w.key == key) {
                        w.refused = None;
                        w.tries = 0;
                        w.after = 0;
                    }
                })
                .await;
            store.send_waiting(true);
        });
    }

    /// Changes the text of a waiting post, or of a waiting edit: what will
    /// be sent, not a second request.
    pub fn change_waiting(&self, key: &str, text: String, locked: bool) {
        let (store, key) = (self.clone(), key.to_owned());
        leptos::task::spawn_local(async move {
            store
                .change_outbox(|list| {
                    if let Some(w) = list.iter_mut().find(|w| w.key == key) {
                        rewrite(w, text, locked, new_key);
                    }
                })
                .await;
            store.send_waiting(false);
        });
    }

    /// Whether the like or follow `key` waits in the outbox.
    pub(super) fn toggle_waiting(&self, key: &ToggleKey) -> bool {
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

    /// Sends the waiting actions in order, from this tab while it holds
    /// the lock (another tab sending meanwhile leaves nothing to send).
    /// `again`: the server or the network is back; actions waiting for
    /// their backoff are tried at once.
    pub fn send_waiting(&self, again: bool) {
        if self.outbox.with_untracked(|w| w.is_empty()) || offline() {
            return;
        }
        if again {
            lock(&self.inner.outbox_again).clone_from(&true);
        }
        if self.inner.outbox_sending.swap(true, std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let store = self.clone();
        leptos::task::spawn_local(async move {
            crate::browser::tab_lock::exclusive(SEND_LOCK, store.send_in_order()).await;
            store.inner.outbox_sending.store(false, std::sync::atomic::Ordering::Relaxed);
        });
    }

    async fn send_in_order(&self) {
        // Every action goes as the account whose outbox this is, with its
        // own token from the first request to the last: when another
        // account becomes current meanwhile (added, switched to), sending
        // stops and the actions wait for their account.
        let Some(me) = self.me() else { return };
        let api = self.api.as_account(&me);
        loop {
            if offline() || self.session.ended_untracked() || self.me().as_deref() != Some(me.as_str()) {
                return;
            }
            let again = std::mem::take(&mut *lock(&self.inner.outbox_again));
            let now = now_ms();
            // The first action that may go now, with every tab's latest.
            let next = self
                .change_outbox(|list| {
                    if again {
                        // Backoffs end; a post held for Undo stays held.
                        for w in list.iter_mut().filter(|w| w.refused.is_none() && w.tries > 0) {
                            w.after = 0;
                        }
                    }
                    list.iter().find(|w| w.refused.is_none() && w.waits_for().is_none()).cloned()
                })
                .await
                .flatten();
            let Some(next) = next else { return };
            if next.after > now {
                self.send_later(next.after - now);
                return;
            }
            let result = self.try_action(&api, &next).await;
            let stop = match &result {
                Ok(outcome) => {
                    self.done(&me, &next, outcome).await;
                    false
                }
                Err(error) => self.not_done(&me, &next, error).await,
            };
            if stop {
                return;
            }
        }
    }

    /// Sends again in `ms` (the next try's time).
    fn send_later(&self, ms: i64) {
        let store = self.clone();
        set_timeout(move || store.send_waiting(false), std::time::Duration::from_millis(ms.max(0) as u64 + 50));
    }

    /// One try of `w`.
    async fn try_action(&self, api: &Api, w: &Waiting) -> Result<Outcome, ApiError> {
        match &w.action {
            Action::Post { content, locked, parent, .. } => {
                let body = NewPost { content: content.clone(), locked: *locked, parent: parent.clone() };
                // A server that ignores the key may have made it on a try
                // whose answer was lost.
                if let Some(since) = w.tried {
                    let look: std::pin::Pin<Box<dyn std::future::Future<Output = Option<Post>> + '_>> =
                        Box::pin(self.already_made(api, &body, since));
                    if let Some(post) = look.await {
                        return Ok(Outcome::Posted(post));
                    }
                }
                api.send_post(&body, &w.key).await.map(Outcome::Posted)
            }
            Action::Edit { uuid, content, locked, .. } => {
                let update = PostUpdate { content: Some(content.clone()), locked: Some(*locked) };
                api.update_post(uuid, &update, &w.key).await.map(Outcome::Edited)
            }
            Action::Delete { uuid } => match api.delete_post(uuid, &w.key).await {
                // Gone already: what was asked is done.
                Ok(_) | Err(ApiError::NotFound(_)) => Ok(Outcome::Deleted),
                Err(e) => Err(e),
            },
            Action::Like { uuid, want, .. } => {
                // A try whose answer was lost may have toggled already.
                if w.tried.is_some() {
                    let post = api.get_post(uuid).await?;
                    self.put_post(post);
                }
                if self.liked_said(uuid) == Some(*want) {
                    return Ok(Outcome::Found(*want));
                }
                api.like(uuid).await.map(|r| Outcome::Toggled(r.action == LikeAction::Liked))
            }
            Action::Follow { uuid, want, .. } => {
                if w.tried.is_some() {
                    let user = api.user(uuid).await?;
                    self.put_user(user);
                }
                if self.followed_said(uuid) == Some(*want) {
                    return Ok(Outcome::Found(*want));
                }
                api.follow(uuid).await.map(|r| Outcome::Toggled(r.action == FollowAction::Followed))
            }
        }
    }

    /// `sent` was done: it leaves the outbox (or, changed meanwhile, what
    /// changed is sent next), and the store shows the server's answer.
    async fn done(&self, me: &str, sent: &Waiting, outcome: &Outcome) {
        let real = match outcome {
            Outcome::Posted(post) => Some(post.uuid.clone()),
            _ => None,
        };
        let toggled = match outcome {
            Outcome::Toggled(now) | Outcome::Found(now) => Some(*now),
            _ => None,
        };
        let sent_clone = sent.clone();
        let settled = self
            .change_outbox_of(me, move |list| {
                let sent = &sent_clone;
                if let (Some(real), Some(id)) = (&real, post_id(sent)) {
                    // Replies that waited for it go with its real uuid.
                    for w in list.iter_mut() {
                        if let Action::Post { parent: Some(p), .. } = &mut w.action {
                            if p == id {
                                *p = real.clone();
                            }
                        }
                    }
                }
                let at = list.iter().position(|w| w.key == sent.key)?;
                let now = list[at].clone();
                match (&now.action, &sent.action, toggled) {
                    _ if now.action == sent.action && toggled.is_none() => {
                        list.remove(at);
                    }
                    // Edited while it was sent: the change goes as an edit.
                    (
                        Action::Post { content, locked, .. },
                        Action::Post { content: was, locked: was_locked, .. },
                        _,
                    ) => {
                        if let Some(real) = &real {
                            list[at] = Waiting::new(Action::Edit {
                                uuid: real.clone(),
                                content: content.clone(),
                                locked: *locked,
                                before: was.clone(),
                                was_locked: *was_locked,
                            });
                        }
                    }
                    (Action::Like { want, .. } | Action::Follow { want, .. }, _, Some(now_on)) => {
                        if *want == now_on {
                            list.remove(at);
                        } else {
                            // Another device toggled it meanwhile: once more.
                            let w = &mut list[at];
                            w.tries += 1;
                            if w.tries > TRIES {
                                w.refused = Some(Refusal { status: 409, message: String::new() });
                            }
                            match &mut w.action {
                                Action::Like { was, .. } | Action::Follow { was, .. } => *was = now_on,
                                _ => {}
                            }
                        }
                    }
                    _ => {
                        // An edit changed again meanwhile: sent next, with a new key.
                        list[at].key = new_key();
                        list[at].tried = None;
                    }
                }
                Some(now)
            })
            .await
            .flatten();
        match outcome {
            Outcome::Posted(post) => self.post_sent(post.clone()),
            Outcome::Edited(post) => self.post_edited(post.clone()),
            Outcome::Deleted => {
                if let Action::Delete { uuid } = &sent.action {
                    self.post_deleted(uuid)
                }
            }
            Outcome::Toggled(now) | Outcome::Found(now) => {
                let want = match settled.as_ref().map(|w| &w.action) {
                    Some(Action::Like { want, .. } | Action::Follow { want, .. }) => *want,
                    _ => *now,
                };
                let found = matches!(outcome, Outcome::Found(_));
                match &sent.action {
                    Action::Like { uuid, .. } if found => {
                        self.like_answered(uuid, *now, *now);
                        self.toggle_with(ToggleKey::Like(uuid.clone()), Toggle::new(*now))
                            .update(|t| t.waits(*now, want));
                    }
                    Action::Follow { uuid, was, .. } if found => {
                        if was != now {
                            self.follow_changed(uuid, *now);
                        }
                        self.toggle_with(ToggleKey::Follow(uuid.clone()), Toggle::new(*now))
                            .update(|t| t.waits(*now, want));
                    }
                    Action::Like { uuid, was, .. } => {
                        self.like_answered(uuid, *was, *now);
                        self.toggle_with(ToggleKey::Like(uuid.clone()), Toggle::new(*now))
                            .update(|t| t.waits(*now, want));
                    }
                    Action::Follow { uuid, was, .. } => {
                        self.follow_answered(uuid, *was, *now);
                        self.toggle_with(ToggleKey::Follow(uuid.clone()), Toggle::new(*now))
                            .update(|t| t.waits(*now, want));
                    }
                    _ => {}
                }
            }
        }
    }

    /// `w` was not done: a refusal is kept with its reason; a failure to
    /// reach the server, a 5xx or a 429 waits to be tried again. Answers
    /// whether sending stops here (later actions wait behind it).
    async fn not_done(&self, me: &str, w: &Waiting, error: &ApiError) -> bool {
        let now = now_ms();
        let (key, failure) = (w.key.clone(), error.clone());
        let stop = self
            .change_outbox_of(me, move |list| {
                let Some(w) = list.iter_mut().find(|w| w.key == key) else { return false };
                let error = &failure;
                match error {
                    // Signed out elsewhere: waits for the account to sign in again.
                    ApiError::Unauthorized(_) => true,
                    ApiError::RateLimited { retry_after, .. } => {
                        w.after = now + retry_after.unwrap_or(30).min(86_400) as i64 * 1000;
                        true
                    }
                    ApiError::Network(_) | ApiError::Server { .. } => {
                        if matches!(error, ApiError::Network(_)) && w.tried.is_none() {
                            w.tried = Some(now);
                        }
                        w.tries += 1;
                        if w.tries >= TRIES {
                            w.refused = Some(refusal_of(error));
                            false
                        } else {
                            w.after = now + backoff_ms(w.tries);
                            true
                        }
                    }
                    refused => {
                        w.refused = Some(refusal_of(refused));
                        false
                    }
                }
            })
            .await
            .unwrap_or(true);
        if let (Some((key, ..)), true) = (w.toggle(), !stop) {
            // A refused like or follow shows the server's state, and why.
            let toggle = self.toggle_with(key.clone(), Toggle::new(false));
            toggle.update(Toggle::failed);
            self.toggle_error_mut(&key).set(Some(error.explain()));
        }
        if stop && !matches!(error, ApiError::Unauthorized(_)) {
            let after = self.outbox.with_untracked(|l| l.iter().find(|x| x.key == w.key).map(|x| x.after));
            if let Some(after) = after {
                self.send_later(after - now);
            }
        }
        stop
    }
}

/// A waiting post's or edit's new text and Locked switch. What is sent
/// changed: it is another request, with another Idempotency-Key
/// (`fresh_key`), or the server would refuse it as the first key's reuse
/// (422) for as long as it keeps the key. The same text keeps its key.
fn rewrite(w: &mut Waiting, text: String, locked: bool, fresh_key: impl FnOnce() -> String) {
    let (Action::Post { content, locked: l, .. } | Action::Edit { content, locked: l, .. }) = &mut w.action else {
        return;
    };
    if *content != text || *l != locked {
        *content = text;
        *l = locked;
        w.key = fresh_key();
        w.tried = None;
    }
    w.refused = None;
    w.tries = 0;
    w.after = 0;
}

fn refusal_of(error: &ApiError) -> Refusal {
    let (status, message) = match error {
        ApiError::Network(m) => (0, m.clone()),
        ApiError::Unauthorized(m) => (401, m.clone()),
        ApiError::Forbidden { message, .. } => (403, message.clone()),
        ApiError::NotFound(m) => (404, m.clone()),
        ApiError::Unprocessable(m) => (422, m.clone()),
        ApiError::RateLimited { message, .. } => (429, message.clone()),
        ApiError::Server { status, message } | ApiError::Other { status, message } => (*status, message.clone()),
        ApiError::Invalid(m) => (502, m.clone()),
    };
    Refusal { status, message }
}

/// The waiting post's own id, if `w` is a post.
fn post_id(w: &Waiting) -> Option<&str> {
    match &w.action {
        Action::Post { id, .. } => Some(id),
        _ => None,
    }
}

fn action_for(key: &ToggleKey, want: bool, was: bool, who: &str) -> Action {
    match key {
        ToggleKey::Like(uuid) => Action::Like { uuid: uuid.clone(), want, was },
        ToggleKey::Follow(uuid) => Action::Follow { uuid: uuid.clone(), want, was, who: who.to_owned() },
    }
}

/// The waiting posts to show under `root` (a thread's post, or `None`
/// for Home: top-level ones), with the waiting replies to them, in order.
pub fn posts_under(list: &[Waiting], root: Option<&str>) -> Vec<Waiting> {
    let mut shown: Vec<Waiting> = Vec::new();
    for w in list {
        let Action::Post { parent, .. } = &w.action else { continue };
        let under = match parent.as_deref() {
            p if p == root => true,
            Some(p) => shown.iter().any(|s| post_id(s) == Some(p)),
            None => false,
        };
        if under {
            shown.push(w.clone());
        }
    }
    shown
}

/// The author a waiting post shows: the account.
pub fn waiting_post(w: &Waiting, me: &perch_model::User) -> Option<Post> {
    let Action::Post { id, content, locked, parent } = &w.action else { return None };
    Some(Post {
        uuid: id.clone(),
        parent: parent.clone().map_or(Parent::None, Parent::Uuid),
        author: me.clone(),
        content: content.clone(),
        from: None,
        locked: *locked,
        reply_count: 0,
        like_count: 0,
        created_at: None,
        liked: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(id: &str, parent: Option<&str>) -> Waiting {
        let action = Action::Post {
            id: id.into(),
            content: format!("text of {id}"),
            locked: false,
            parent: parent.map(Into::into),
        };
        Waiting { key: format!("k-{id}"), action, made: 1, tried: None, tries: 0, after: 0, refused: None }
    }

    #[test]
    fn a_changed_text_is_another_request_with_another_key_and_the_same_text_keeps_it() {
        let mut refused = post("a", None);
        refused.refused = Some(Refusal { status: 422, message: "too long".into() });
        refused.tries = 3;
        refused.tried = Some(5);
        let mut same = refused.clone();
        rewrite(&mut same, "text of a".into(), false, || "fresh".into());
        assert_eq!(same.key, "k-a", "the same request keeps its key: a lost answer is still found");
        assert_eq!((same.refused.clone(), same.tries, same.tried), (None, 0, Some(5)));
        let mut changed = refused.clone();
        rewrite(&mut changed, "shorter".into(), false, || "fresh".into());
        assert_eq!(changed.key, "fresh", "another body under the first key is refused (422) for a day");
        assert_eq!((changed.refused.clone(), changed.tried), (None, None));
        let mut locked = refused;
        rewrite(&mut locked, "text of a".into(), true, || "fresh".into());
        assert_eq!(locked.key, "fresh", "the Locked switch is part of the request");
    }

    #[test]
    fn every_action_is_read_back_as_it_was_kept() {
        let mut edit = post("e", None);
        edit.action = Action::Edit {
            uuid: "p".into(),
            content: "new".into(),
            locked: true,
            before: "old".into(),
            was_locked: false,
        };
        edit.tried = Some(7);
        edit.refused = Some(Refusal { status: 422, message: "too long".into() });
        let list = vec![
            post(&format!("{LOCAL}1"), Some("p0")),
            edit,
            Waiting { action: Action::Delete { uuid: "d".into() }, ..post("d", None) },
            Waiting { action: Action::Like { uuid: "l".into(), want: true, was: false }, ..post("l", None) },
            Waiting {
                action: Action::Follow { uuid: "u".into(), want: false, was: true, who: "olga".into() },
                ..post("f", None)
            },
        ];
        let text = serde_json::to_string(&(VERSION, "me", &list)).unwrap();
        assert_eq!(parse("me", "me", &text), Some(list));
    }

    #[test]
    fn an_outbox_of_another_account_or_version_or_unreadable_is_not_read() {
        let text = serde_json::to_string(&(VERSION, "me", vec![post("a", None)])).unwrap();
        assert_eq!(parse("you", "me", &text), None, "kept for another account");
        assert_eq!(parse("you", "you", &text), None, "named for one account, kept for another");
        let old = serde_json::to_string(&(VERSION + 1, "me", vec![post("a", None)])).unwrap();
        assert_eq!(parse("me", "me", &old), None);
        assert_eq!(
            parse("me", "me", "[1,\"me\",[[\"k\",[9,\"u\",\"\",false,false,null,\"\"],1,null,0,0,null]]]"),
            None,
            "an unknown action"
        );
        assert_eq!(parse("me", "me", "{"), None);
    }

    #[test]
    fn a_thread_shows_its_waiting_replies_and_theirs_in_order_and_home_its_top_level_posts() {
        let a = format!("{LOCAL}a");
        let list =
            vec![post(&a, None), post("r1", Some("thread")), post("r2", Some(&a)), post("other", Some("elsewhere"))];
        let keys = |root| posts_under(&list, root).into_iter().map(|w| w.key).collect::<Vec<_>>();
        assert_eq!(keys(None), vec![format!("k-{a}"), "k-r2".to_owned()]);
        assert_eq!(keys(Some("thread")), vec!["k-r1".to_owned()]);
        assert_eq!(keys(Some("nowhere")), Vec::<String>::new());
    }

    #[test]
    fn tries_wait_longer_each_time_up_to_two_minutes() {
        assert_eq!(backoff_ms(1), 2_000);
        assert_eq!(backoff_ms(2), 4_000);
        assert_eq!(backoff_ms(5), 32_000);
        assert_eq!(backoff_ms(TRIES), 120_000);
        assert_eq!(backoff_ms(u32::MAX), 120_000);
    }

    #[test]
    fn a_reply_waits_for_its_waiting_post_and_a_held_post_is_told_apart_from_a_backoff() {
        let a = format!("{LOCAL}a");
        assert_eq!(post("r", Some(&a)).waits_for(), Some(a.as_str()));
        assert_eq!(post("r", Some("real")).waits_for(), None);
        let held = Waiting { after: 10, ..post("h", None) };
        assert!(held.held());
        assert!(!Waiting { tries: 1, ..held.clone() }.held());
    }
}
