//! The outbox as it is kept: one JSON text per account in IndexedDB
//! (`browser/indexed_db.rs`), `[version, account, [[key, action, made,
//! tried, tries, after, refused], …]]`, each action a tuple too (a smaller
//! reader than an enum of structs), and its count in Web Storage
//! (`perch.outbox.<uuid>`), written before IndexedDB and removed after:
//! without it, what IndexedDB holds is treated as discarded. Another
//! version, another account or an unknown action is not read.

use super::{now_ms, Action, Refusal, Waiting, VERSION, WAITING_KEPT};
use crate::browser::indexed_db::{call, read_at_start, Db};
use crate::browser::web_storage::{self, Key};
use wasm_bindgen::JsValue;

/// An action as kept: kind (0 post, 1 edit, 2 delete, 3 like, 4 follow),
/// its post's or user's uuid (a waiting post's own id), its text (a
/// follow: the @username), two switches (locked and was locked; want and
/// was), the parent, and an edit's text before.
pub(super) type ActionForm = (u8, String, String, bool, bool, Option<String>, String);

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

/// A waiting action as kept: key, action, made, tried, tries, after, refused.
pub(super) type WaitingForm = (String, Action, i64, Option<i64>, u32, i64, Option<Refusal>);

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
pub(super) async fn load(me: &str) -> Option<Vec<Waiting>> {
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
pub(super) async fn save(me: &str, waiting: &[Waiting], before: usize) -> bool {
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
