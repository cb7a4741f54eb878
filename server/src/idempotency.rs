//! The `Idempotency-Key` request header (the IETF draft "The
//! Idempotency-Key HTTP Header Field"), an optional extension of the
//! interface (docs/api.md): a write sent again with the same key by the
//! same account within [`KEPT_MS`] is answered with the first answer, and
//! nothing is done again. So a client whose answer was lost (the connection
//! dropped after the server stored the post) can send again without making
//! a second post.
//!
//! - The key is 1 to 255 visible ASCII characters; anything else is 400.
//! - It is kept per account: two accounts may use the same key.
//! - The same key with another request (method, path or body) is 422.
//! - 409 means only that the first request with the key is running now, on
//!   this server ([`Running`], in memory): a request that ended without an
//!   answer (the client went, the server stopped) leaves nothing behind,
//!   so the key is free again.
//! - A write and its kept answer commit together or not at all: the
//!   handlers end their transaction with [`commit`], which keeps the answer
//!   in it. A refusal that wrote nothing (4xx) is kept after it is given.
//! - A 5xx answer is not kept: sending again runs the request again.
//! - A key older than [`KEPT_MS`] is unknown, whatever is left to sweep.
//! - At most [`MAX_PER_ACCOUNT`] keys are kept per account (the oldest go
//!   first), and expired ones are swept as new ones come: the table cannot
//!   grow without bound.
//! - Reads (GET) ignore the header; a request without it is not affected.

use crate::db::now_ms;
use crate::db::Db;
use crate::error::Error;
use crate::extractor::{Caller, CallerLookup};
use axum::body::{to_bytes, Body};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{header, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use sqlx::{Row, Sqlite, SqliteConnection, Transaction};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

pub const HEADER: HeaderName = HeaderName::from_static("idempotency-key");
/// Set on an answer given again.
pub const REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");
/// How long a key is kept: 24 hours.
pub const KEPT_MS: i64 = 24 * 60 * 60 * 1000;
/// The most keys kept for one account.
pub const MAX_PER_ACCOUNT: i64 = 1000;
/// A kept answer is at most this large (the API's answers are far smaller).
const MAX_ANSWER: usize = 256 * 1024;

/// Whether `key` is a key: 1 to 255 visible ASCII characters.
pub fn valid(key: &str) -> bool {
    (1..=255).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic())
}

/// What makes two requests the same: method, path and body.
fn fingerprint(method: &Method, path: &str, body: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(method.as_str().as_bytes());
    hasher.update(b" ");
    hasher.update(path.as_bytes());
    hasher.update(b"\n");
    hasher.update(body);
    hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The keyed requests being answered now, by account and key. Kept in
/// memory, not in the database: when a request ends without an answer
/// (its future dropped with the connection, or the process gone), its key
/// is no longer running, and nothing on disk says otherwise.
#[derive(Default)]
pub struct Running(Mutex<HashSet<(i64, String)>>);

/// A key taken by one request; let go when the request ends, however it ends.
struct Taken {
    running: std::sync::Arc<Running>,
    id: (i64, String),
}

impl Running {
    /// Takes `key` for this request, or `None` when another request with it
    /// is being answered.
    fn take(self: &std::sync::Arc<Self>, user_id: i64, key: &str) -> Option<Taken> {
        let id = (user_id, key.to_owned());
        let taken = self.0.lock().unwrap_or_else(|e| e.into_inner()).insert(id.clone());
        taken.then(|| Taken { running: self.clone(), id })
    }
}

impl Drop for Taken {
    fn drop(&mut self) {
        self.running.0.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.id);
    }
}

/// The key of the request being answered, for [`commit`] to keep its answer.
struct Pending {
    user_id: i64,
    key: String,
    print: String,
    kept: std::sync::atomic::AtomicBool,
}

tokio::task_local! {
    static PENDING: Pending;
}

/// Commits a write's transaction. When the request carries an
/// Idempotency-Key, `answer` (what the handler answers, as JSON) is kept in
/// the same transaction: the write and its kept answer commit together, or
/// neither does.
pub async fn commit<T: serde::Serialize>(mut tx: Transaction<'static, Sqlite>, answer: &T) -> Result<(), Error> {
    let pending = PENDING.try_with(|p| (p.user_id, p.key.clone(), p.print.clone())).ok();
    if let Some((user_id, key, print)) = &pending {
        let body = serde_json::to_vec(answer).map_err(|e| Error::Internal(e.into()))?;
        keep(&mut tx, *user_id, key, print, (200, "application/json"), &body).await?;
    }
    tx.commit().await?;
    if pending.is_some() {
        let _ = PENDING.try_with(|p| p.kept.store(true, std::sync::atomic::Ordering::SeqCst));
    }
    Ok(())
}

/// Keeps `answer` for `key`, sweeping a few expired keys and the account's
/// oldest beyond [`MAX_PER_ACCOUNT`].
async fn keep(
    conn: &mut SqliteConnection,
    user_id: i64,
    key: &str,
    print: &str,
    (status, content_type): (u16, &str),
    body: &[u8],
) -> Result<(), sqlx::Error> {
    let now = now_ms();
    sqlx::query("DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE created_ms <= ? LIMIT 100)")
        .bind(now - KEPT_MS)
        .execute(&mut *conn)
        .await?;
    // An expired row not yet swept is replaced.
    sqlx::query(
        "INSERT INTO idempotency_keys (user_id, key, fingerprint, status, content_type, body, created_ms) \
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, \
         status = excluded.status, content_type = excluded.content_type, body = excluded.body, created_ms = excluded.created_ms",
    )
    .bind(user_id)
    .bind(key)
    .bind(print)
    .bind(status as i64)
    .bind(content_type)
    .bind(body)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "DELETE FROM idempotency_keys WHERE user_id = ? AND rowid NOT IN \
         (SELECT rowid FROM idempotency_keys WHERE user_id = ? ORDER BY created_ms DESC, rowid DESC LIMIT ?)",
    )
    .bind(user_id)
    .bind(user_id)
    .bind(MAX_PER_ACCOUNT)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The middleware: answers a repeated write from what was kept, or runs it
/// with its key taken, and keeps its answer.
///
/// A write, keyed or not, runs to its end once started, in a task of its
/// own, whether or not its client still waits: a handler dropped with its
/// connection in the middle of a transaction left its pooled connection
/// unusable for the next writer ("begin_with at non-zero transaction
/// depth", a 500), and a write half done is no one's answer.
pub async fn replay_or_run(
    State(keys): State<Keys>,
    State(callers): State<CallerLookup>,
    req: Request,
    next: Next,
) -> Response {
    if req.method() == Method::GET {
        return next.run(req).await;
    }
    tokio::spawn(write(keys, callers, req, next))
        .await
        .unwrap_or_else(|_| Error::Internal(anyhow::anyhow!("a write's task failed")).into_response())
}

/// What keyed writes need of the server's state (`state.rs` gives it from
/// `AppState`): the database, the keys being answered now, and the lock
/// writes queue on.
#[derive(Clone)]
pub struct Keys {
    pub db: Db,
    pub running: Arc<Running>,
    pub write_lock: Arc<tokio::sync::Mutex<()>>,
}

async fn write(state: Keys, callers: CallerLookup, req: Request, next: Next) -> Response {
    if !req.headers().contains_key(&HEADER) {
        return next.run(req).await;
    }
    let key = match req.headers().get(&HEADER).and_then(|v| v.to_str().ok()).filter(|k| valid(k)) {
        Some(key) => key.to_owned(),
        None => {
            return Error::BadRequest("Idempotency-Key must be 1 to 255 visible ASCII characters.".into())
                .into_response()
        }
    };
    let (mut parts, body) = req.into_parts();
    let caller = match Caller::from_request_parts(&mut parts, &callers).await {
        Ok(caller) => caller,
        Err(e) => return e.into_response(),
    };
    let Ok(body) = to_bytes(body, crate::extractor::BODY_LIMIT).await else {
        return Error::PayloadTooLarge.into_response();
    };
    let print = fingerprint(&parts.method, parts.uri.path(), &body);
    let Some(_taken) = state.running.take(caller.user_id, &key) else {
        return Error::Conflict("A request with this Idempotency-Key is still being answered.".into()).into_response();
    };
    match kept_answer(&state, caller.user_id, &key, &print).await {
        Ok(None) => {}
        Ok(Some(kept)) => return kept,
        Err(e) => return e.into_response(),
    }
    parts.extensions.insert(caller.clone());
    let pending = Pending { user_id: caller.user_id, key: key.clone(), print: print.clone(), kept: false.into() };
    let (res, kept) = PENDING
        .scope(pending, async {
            let res = next.run(Request::from_parts(parts, Body::from(body))).await;
            (res, PENDING.with(|p| p.kept.load(std::sync::atomic::Ordering::SeqCst)))
        })
        .await;
    if kept || res.status().is_server_error() {
        return res;
    }
    // An answer that wrote nothing (a refusal) is kept now.
    let (parts, body) = res.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_ANSWER).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let content_type = parts.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let _write = state.write_lock.lock().await;
    let kept = match state.db.acquire().await {
        Ok(mut conn) => {
            keep(&mut conn, caller.user_id, &key, &print, (parts.status.as_u16(), content_type), &bytes).await
        }
        Err(e) => Err(e),
    };
    if let Err(e) = kept {
        tracing::error!("an idempotency key's answer was not kept: {e}");
    }
    Response::from_parts(parts, Body::from(bytes))
}

/// The answer kept for `key` within [`KEPT_MS`] (or 422 when the key was
/// used for another request); `None` when there is none.
async fn kept_answer(state: &Keys, user_id: i64, key: &str, print: &str) -> Result<Option<Response>, Error> {
    let row = sqlx::query(
        "SELECT fingerprint, status, content_type, body FROM idempotency_keys \
         WHERE user_id = ? AND key = ? AND created_ms > ? AND status IS NOT NULL",
    )
    .bind(user_id)
    .bind(key)
    .bind(now_ms() - KEPT_MS)
    .fetch_optional(&state.db)
    .await?;
    let Some(row) = row else { return Ok(None) };
    if row.get::<String, _>("fingerprint") != print {
        return Err(Error::Unprocessable("This Idempotency-Key was used for another request.".into()));
    }
    let status = row.get::<i64, _>("status");
    let mut res = Response::new(Body::from(row.get::<Vec<u8>, _>("body")));
    *res.status_mut() = StatusCode::from_u16(status as u16).unwrap_or(StatusCode::OK);
    if let Ok(value) = HeaderValue::from_str(&row.get::<String, _>("content_type")) {
        res.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    res.headers_mut().insert(REPLAYED, HeaderValue::from_static("true"));
    Ok(Some(res))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_1_to_255_visible_ascii_characters() {
        assert!(valid("a"));
        assert!(valid(&"k".repeat(255)));
        assert!(valid("8e0b6c7a-2f7d-4f4e-9d1a-1f6c1c3e9b2a"));
        assert!(!valid(""));
        assert!(!valid(&"k".repeat(256)));
        assert!(!valid("with space"));
        assert!(!valid("é"));
        assert!(!valid("tab\there"));
    }

    #[test]
    fn requests_differing_in_method_path_or_body_differ() {
        let base = fingerprint(&Method::POST, "/api/v1/post", b"{\"content\":\"hi\"}");
        assert_eq!(base, fingerprint(&Method::POST, "/api/v1/post", b"{\"content\":\"hi\"}"));
        assert_ne!(base, fingerprint(&Method::PATCH, "/api/v1/post", b"{\"content\":\"hi\"}"));
        assert_ne!(base, fingerprint(&Method::POST, "/api/v1/post/x", b"{\"content\":\"hi\"}"));
        assert_ne!(base, fingerprint(&Method::POST, "/api/v1/post", b"{\"content\":\"ho\"}"));
        assert_eq!(base.len(), 64);
    }
}
