//! What handlers take from a request: the authenticated caller (from the
//! Bearer token, with its scopes and a per-token rate limit), JSON bodies
//! whose failures are the contract's 400 and 413, and page numbers.

use crate::db::now_ms;
use crate::db::Db;
use crate::error::{Error, Result};
use crate::rate_limit::RateLimiter;
use axum::body::Bytes;
use axum::extract::FromRef;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::{header, request::Parts, StatusCode};
use perch_model::{Operation, Scope, Subject};
use serde::de::DeserializeOwned;
use sqlx::Row;
use std::sync::Arc;

/// The owner of the token on the request.
#[derive(Clone, Debug)]
pub struct Caller {
    pub user_id: i64,
    pub application_id: i64,
    pub scopes: Vec<Scope>,
}

impl Caller {
    /// 403 naming the missing scopes unless the token may do `op` on `subject`.
    pub fn require(&self, op: Operation, subject: Subject) -> Result<()> {
        let missing = op.missing(subject, &self.scopes);
        if missing.is_empty() {
            Ok(())
        } else {
            Err(Error::MissingScopes(missing))
        }
    }

    pub fn has(&self, scope: Scope) -> bool {
        self.scopes.contains(&scope)
    }
}

/// Access tokens already checked, by hash, for at most `TTL_MS`: a token
/// revoked by another process stops working within seconds, and one revoked
/// here at once (`forget`). This saves a query on nearly every call.
///
/// A fill and a revoke may cross: a request reads the token's row, a revoke
/// retires it and empties the cache, then the request would keep what it
/// read. So every revoke starts a new generation, and a fill that began in
/// an earlier one is not kept (`generation`, then `put`).
#[derive(Default)]
pub struct CallerCache(std::sync::Mutex<Known>);

#[derive(Default)]
struct Known {
    by_hash: std::collections::HashMap<String, (Caller, i64)>,
    generation: u64,
}

impl CallerCache {
    const MAX: usize = 10_000;
    const TTL_MS: i64 = 5_000;

    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, hash: &str, now: i64) -> Option<Caller> {
        self.lock().by_hash.get(hash).filter(|(_, until)| *until > now).map(|(c, _)| c.clone())
    }

    /// The generation a fill starts in: read it before the token's row.
    pub fn generation(&self) -> u64 {
        self.lock().generation
    }

    /// Keeps `caller` for `hash`, unless a revoke came since `generation`.
    pub fn put(&self, hash: String, caller: Caller, expires_ms: i64, now: i64, generation: u64) {
        let mut callers = self.lock();
        if callers.generation != generation {
            return;
        }
        let map = &mut callers.by_hash;
        if map.len() >= Self::MAX {
            map.retain(|_, (_, until)| *until > now);
            if map.len() >= Self::MAX {
                map.clear();
            }
        }
        map.insert(hash, (caller, expires_ms.min(now + Self::TTL_MS)));
    }

    /// Drops these token hashes: they were just revoked. Fills in flight
    /// are not kept.
    pub fn forget(&self, hashes: &[String]) {
        let mut callers = self.lock();
        callers.generation += 1;
        for hash in hashes {
            callers.by_hash.remove(hash);
        }
    }
}

/// The token of an `Authorization: Bearer …` header.
pub fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
}

/// What finding the caller needs of the server's state (`state.rs` gives it
/// from `AppState`): the database, the callers already found, and the
/// per-token rate limit.
#[derive(Clone)]
pub struct CallerLookup {
    pub db: Db,
    pub callers: Arc<CallerCache>,
    pub per_token: Arc<RateLimiter>,
    /// `serve --request-log`: each accepted call written, as whom.
    pub requests: Option<Arc<crate::request_log::RequestLog>>,
}

impl<S: Send + Sync> FromRequestParts<S> for Caller
where
    CallerLookup: FromRef<S>,
{
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self> {
        let state = &CallerLookup::from_ref(state);
        // Already checked and counted by the read cache's middleware.
        if let Some(caller) = parts.extensions.get::<Caller>() {
            return Ok(caller.clone());
        }
        let token = bearer(parts)
            .ok_or_else(|| Error::Unauthorized("A token is needed: send Authorization: Bearer <token>.".into()))?;
        let hash = crate::tokens::hash(token);
        let now = now_ms();
        if let Some(caller) = state.callers.get(&hash, now) {
            state.per_token.hit(&hash).map_err(|retry_after_secs| Error::TooManyRequests { retry_after_secs })?;
            log(state, &caller, parts).await;
            return Ok(caller);
        }
        let generation = state.callers.generation();
        let row = sqlx::query("SELECT user_id, application_id, scopes, expires_ms FROM tokens WHERE hash = ? AND kind = 'access' AND retired = 0")
            .bind(&hash)
            .fetch_optional(&state.db)
            .await?
            .ok_or_else(|| Error::Unauthorized("The token is not known, or was revoked.".into()))?;
        let expires_ms: i64 = row.get("expires_ms");
        if expires_ms <= now {
            return Err(Error::Unauthorized("The token has expired.".into()));
        }
        state.per_token.hit(&hash).map_err(|retry_after_secs| Error::TooManyRequests { retry_after_secs })?;
        let scopes = Scope::parse_list(row.get::<&str, _>("scopes")).unwrap_or_default();
        let caller = Caller { user_id: row.get("user_id"), application_id: row.get("application_id"), scopes };
        state.callers.put(hash, caller.clone(), expires_ms, now, generation);
        log(state, &caller, parts).await;
        Ok(caller)
    }
}

/// Writes the accepted call in the request log, when there is one.
async fn log(state: &CallerLookup, caller: &Caller, parts: &Parts) {
    if let Some(requests) = &state.requests {
        // The whole path, not the part left inside `/api/v1`'s router.
        let path = parts.extensions.get::<axum::extract::OriginalUri>().map_or(parts.uri.path(), |u| u.0.path());
        requests.write(&state.db, caller.user_id, parts.method.as_str(), path).await;
    }
}

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 16 * 1024;

/// A JSON body: unreadable or wrongly shaped is 400, over the limit 413.
/// The Content-Type is not insisted on.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                Error::PayloadTooLarge
            } else {
                Error::BadRequest(format!("The request body could not be read: {}", e.body_text()))
            }
        })?;
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| Error::BadRequest(format!("The request body is not valid: {e}.")))
    }
}

/// The highest page number served: 15 million items deep, far past any
/// list here, and small enough that no offset can overflow.
pub const MAX_PAGE: i64 = 1_000_000;

/// A page number from a path: plain ASCII digits (no sign, no space) naming
/// a whole number from 1 to `MAX_PAGE`, else 400.
pub fn page(text: &str) -> Result<i64> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<i64>() {
        Ok(n) if digits && (1..=MAX_PAGE).contains(&n) => Ok(n),
        _ => Err(Error::BadRequest(format!("The page must be a whole number from 1 to {MAX_PAGE}, not {text:?}."))),
    }
}

#[cfg(test)]
mod tests {
    use super::{Caller, CallerCache};

    fn caller() -> Caller {
        Caller { user_id: 1, application_id: 1, scopes: Vec::new() }
    }

    #[test]
    fn a_token_read_before_a_revoke_is_not_kept_after_it() {
        let cache = CallerCache::default();
        let now = 1_000;
        // A request reads the token's row; meanwhile the token is revoked.
        let started = cache.generation();
        cache.forget(&["h".into()]);
        cache.put("h".into(), caller(), now + 60_000, now, started);
        assert!(cache.get("h", now).is_none(), "the revoked token must be read again, and refused");
        // A fill that began after the revoke is kept as before.
        let started = cache.generation();
        cache.put("h2".into(), caller(), now + 60_000, now, started);
        assert!(cache.get("h2", now).is_some());
        assert!(cache.get("h2", now + 5_000).is_none(), "kept at most five seconds");
    }
}
