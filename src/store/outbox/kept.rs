//! The outbox as it is kept: one JSON text per account in IndexedDB
//! (`browser/indexed_db.rs`), `[version, account, [[key, action, made,
//! tried, tries, after, refused], …]]`, each action a tuple too (a smaller
//! reader than an enum of structs). Another version, another account or
//! an unknown action is not read.
//!
//! What IndexedDB holds is the truth (issue 45). Its count in Web Storage
//! (`perch.outbox.<uuid>`) is a hint: other tabs hear of a change through
//! it and the sign-out question reads it. A count that lags (another tab,
//! a failed write, storage the browser evicted) is set again from
//! IndexedDB ([`repair_count`]), never the other way round. The outbox is
//! dropped only when the person discarded it ([`forget`]): the discard is
//! marked in Web Storage (`perch.outbox.discarded`) until IndexedDB's drop
//! is done, so a drop cut off by the reload is finished at the next start.

use super::{now_ms, Action, Refusal, Waiting, VERSION, WAITING_KEPT};
use crate::browser::indexed_db::{call, read_at_start, Db};
use crate::browser::web_storage::{self, Key};
use wasm_bindgen::JsValue;

/// An action as kept: kind (0 post, 1 edit, 2 delete, 3 like, 4 follow),
/// its post's or user's uuid (a waiting post's own id), its text (a
/// follow: the @username), two switches (locked and was locked; want and
/// was), the parent, and an edit's text before (a post's place in a
/// thread, `Part::kept`; empty for a post alone, as earlier versions kept
/// every post).
pub(super) type ActionForm = (u8, String, String, bool, bool, Option<String>, String);

impl From<Action> for ActionForm {
    fn from(action: Action) -> Self {
        match action {
            Action::Post { id, content, locked, parent, part } => {
                (0, id, content, locked, false, parent, part.map(|p| p.kept()).unwrap_or_default())
            }
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
            0 => Action::Post { id: uuid, content: text, locked: a, parent, part: super::Part::read(&before) },
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
    let text = call(Db::Outbox, "get", &[me.into()]).await.ok()?;
    match text.as_string() {
        Some(text) => Some(parse(me, me, &text).unwrap_or_default()),
        None => Some(Vec::new()),
    }
}

/// Keeps `waiting` as `me`'s outbox, where it was `before`. Answers
/// whether it is on disk now: the write's transaction completed. A write
/// refused (storage full, the account signed out meanwhile) leaves what
/// was kept as it was.
pub(super) async fn save(me: &str, waiting: &[Waiting], before: usize) -> bool {
    // Nothing is written for an account signed out here meanwhile.
    if !web_storage::signed_in_here(me) {
        return false;
    }
    let text = serde_json::to_string(&(VERSION, me, waiting)).unwrap_or_default();
    if waiting.is_empty() {
        let dropped = call(Db::Outbox, "drop", &[me.into()]).await.is_ok();
        if dropped {
            set_count(me, 0);
        }
        return dropped;
    }
    // The hint first (other tabs hear of the change), then the truth; a
    // hint that cannot be written (Web Storage full) does not stop it.
    set_count(me, waiting.len());
    let kept = call(Db::Outbox, "put", &[me.into(), JsValue::from_str(&text)]).await.is_ok();
    if !kept {
        set_count(me, before);
    }
    kept
}

/// Sets the hint: `n` actions wait for `account`.
fn set_count(account: &str, n: usize) {
    let key = Key::Outbox { account: account.to_owned() };
    if n == 0 {
        web_storage::remove(&key);
    } else {
        web_storage::set(&key, &format!("{n} {}", now_ms()));
    }
}

/// Sets the hint from what IndexedDB holds, when it says otherwise.
pub(super) fn repair_count(account: &str, holds: usize) {
    if count(account) != holds {
        set_count(account, holds);
    }
}

/// How many actions `account` has waiting, as the last change left them.
pub fn count(account: &str) -> usize {
    web_storage::get(&Key::Outbox { account: account.to_owned() })
        .and_then(|v| v.split(' ').next().and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

/// Drops `account`'s outbox: the person discarded it (sign-out, when they
/// said so). Marked first, dropped, then unmarked, before the page is left
/// (`browser/leaving.rs`); a mark still there at a start finishes the drop
/// ([`discarded_at`]).
pub fn forget(account: &str) {
    mark_discarded(account, Some(now_ms()));
    web_storage::remove(&Key::Outbox { account: account.to_owned() });
    let account = account.to_owned();
    crate::browser::leaving::finish_first(async move {
        if call(Db::Outbox, "drop", &[account.as_str().into()]).await.is_ok() {
            mark_discarded(&account, None);
        }
    });
}

/// The discards whose drop may not have finished, kept as `uuid:ms` words
/// (a plain text: no JSON reader for it in the main module).
fn discards() -> Vec<(String, i64)> {
    let kept = web_storage::get(&Key::OutboxDiscarded).unwrap_or_default();
    kept.split(' ')
        .filter_map(|w| w.split_once(':').and_then(|(a, at)| Some((a.to_owned(), at.parse().ok()?))))
        .collect()
}

/// Marks `account`'s outbox discarded at `at`, or (`None`) its drop done.
fn mark_discarded(account: &str, at: Option<i64>) {
    let mut all = discards();
    all.retain(|(a, _)| a != account);
    all.extend(at.map(|at| (account.to_owned(), at)));
    all.truncate(20);
    let text: Vec<String> = all.iter().map(|(a, at)| format!("{a}:{at}")).collect();
    if text.is_empty() {
        web_storage::remove(&Key::OutboxDiscarded);
    } else {
        web_storage::set(&Key::OutboxDiscarded, &text.join(" "));
    }
}

/// When the person discarded `account`'s outbox, if its drop may not have
/// finished: what was made before then goes, what was made after stays.
pub(super) fn discarded_at(account: &str) -> Option<i64> {
    discards().into_iter().find(|(a, _)| a == account).map(|(_, at)| at)
}

/// The discard of `account`'s outbox is finished.
pub(super) fn discard_done(account: &str) {
    mark_discarded(account, None);
}
