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
//! - The same key while the first request is still being answered is 409.
//! - A 5xx answer is not kept: sending again runs the request again.
//! - At most [`MAX_PER_ACCOUNT`] keys are kept per account (the oldest go
//!   first), and expired ones are swept as new ones come: the table cannot
//!   grow without bound.
//! - Reads (GET) ignore the header; a request without it is not affected.

use crate::db::now_ms;
use crate::error::Error;
use crate::extractor::Caller;
use crate::AppState;
use axum::body::{to_bytes, Body};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{header, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use sqlx::Row;

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

/// The middleware: answers a repeated write from what was kept, or runs it
/// and keeps its answer.
pub async fn replay_or_run(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if req.method() == Method::GET || !req.headers().contains_key(&HEADER) {
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
    let caller = match Caller::from_request_parts(&mut parts, &state).await {
        Ok(caller) => caller,
        Err(e) => return e.into_response(),
    };
    let Ok(body) = to_bytes(body, crate::api::BODY_LIMIT).await else {
        return Error::PayloadTooLarge.into_response();
    };
    let print = fingerprint(&parts.method, parts.uri.path(), &body);
    match remember(&state, caller.user_id, &key, &print).await {
        Ok(None) => {}
        Ok(Some(kept)) => return kept,
        Err(e) => return e.into_response(),
    }
    parts.extensions.insert(caller.clone());
    let res = next.run(Request::from_parts(parts, Body::from(body))).await;
    let (parts, body) = res.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_ANSWER).await else {
        forget(&state, caller.user_id, &key).await;
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    if parts.status.is_server_error() {
        forget(&state, caller.user_id, &key).await;
    } else {
        let content_type = parts.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        let _write = state.write_lock.lock().await;
        let kept = sqlx::query(
            "UPDATE idempotency_keys SET status = ?, content_type = ?, body = ? WHERE user_id = ? AND key = ?",
        )
        .bind(parts.status.as_u16() as i64)
        .bind(content_type)
        .bind(bytes.as_ref())
        .bind(caller.user_id)
        .bind(&key)
        .execute(&state.db)
        .await;
        if let Err(e) = kept {
            tracing::error!("an idempotency key's answer was not kept: {e}");
        }
    }
    Response::from_parts(parts, Body::from(bytes))
}

/// The kept answer for `key` (or 409, 422) when there is one; else takes
/// the key for this request and answers `None`.
async fn remember(state: &AppState, user_id: i64, key: &str, print: &str) -> Result<Option<Response>, Error> {
    let now = now_ms();
    let _write = state.write_lock.lock().await;
    // Expired keys go first, a few at a time, as new ones come.
    sqlx::query("DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE created_ms <= ? LIMIT 100)")
        .bind(now - KEPT_MS)
        .execute(&state.db)
        .await?;
    let row = sqlx::query(
        "SELECT fingerprint, status, content_type, body FROM idempotency_keys WHERE user_id = ? AND key = ?",
    )
    .bind(user_id)
    .bind(key)
    .fetch_optional(&state.db)
    .await?;
    if let Some(row) = row {
        if row.get::<String, _>("fingerprint") != print {
            return Err(Error::Unprocessable("This Idempotency-Key was used for another request.".into()));
        }
        let Some(status) = row.get::<Option<i64>, _>("status") else {
            return Err(Error::Conflict("A request with this Idempotency-Key is still being answered.".into()));
        };
        let mut res = Response::new(Body::from(row.get::<Vec<u8>, _>("body")));
        *res.status_mut() = StatusCode::from_u16(status as u16).unwrap_or(StatusCode::OK);
        if let Ok(value) = HeaderValue::from_str(&row.get::<String, _>("content_type")) {
            res.headers_mut().insert(header::CONTENT_TYPE, value);
        }
        res.headers_mut().insert(REPLAYED, HeaderValue::from_static("true"));
        return Ok(Some(res));
    }
    sqlx::query("INSERT INTO idempotency_keys (user_id, key, fingerprint, created_ms) VALUES (?, ?, ?, ?)")
        .bind(user_id)
        .bind(key)
        .bind(print)
        .bind(now)
        .execute(&state.db)
        .await?;
    // Bounded per account: the oldest keys beyond the most recent
    // MAX_PER_ACCOUNT go.
    sqlx::query(
        "DELETE FROM idempotency_keys WHERE user_id = ? AND rowid NOT IN \
         (SELECT rowid FROM idempotency_keys WHERE user_id = ? ORDER BY created_ms DESC, rowid DESC LIMIT ?)",
    )
    .bind(user_id)
    .bind(user_id)
    .bind(MAX_PER_ACCOUNT)
    .execute(&state.db)
    .await?;
    Ok(None)
}

/// Lets `key` be used again: its request failed on the server's side.
async fn forget(state: &AppState, user_id: i64, key: &str) {
    let _write = state.write_lock.lock().await;
    let _ = sqlx::query("DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?")
        .bind(user_id)
        .bind(key)
        .execute(&state.db)
        .await;
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
