//! Answers of reads kept in memory, so a read that was answered before
//! costs no database round trip. Profiling `GET /post/{uuid}` showed the
//! time going to thread hand-offs between tokio and sqlx's SQLite worker
//! threads, the kernel's scheduling and file locks, and allocations, with
//! SQLite's own work at about 3 % (docs/server-performance.md).
//!
//! An answer is kept per (caller, the token's scopes, path): it is what that
//! caller was told, `liked`, `followed` and email fields included. Any
//! request that may write (every method but GET) moves the generation on
//! before its answer leaves, and an answer from an older generation is never
//! given again: whoever saw a write's answer reads its effect. An answer is
//! kept for at most `TTL`, which bounds how stale a read can be after a
//! write made by another process on the same database (the command line
//! adds only users and tokens, which no kept answer holds).
//!
//! It is bounded in bytes (`--read-cache-mb`, 64 by default): the oldest
//! answers go first when a new one would pass the budget, expired ones go
//! as soon as the cache is next touched, and a write empties it (nothing
//! kept before a write is given again anyway). The key is the path alone:
//! no handler reads a query string, so `?n=1`, `?n=2`… are one answer.
//!
//! **Conditional reads** (docs/api.md): every 200 it gives carries a weak
//! `ETag` made from the same key (caller, scopes, path) and the body, so
//! two tokens' views never share one; a GET whose `If-None-Match` names it
//! gets `304 Not Modified` with no body. Answers stay `no-store`: the app
//! keeps the tag itself beside what it keeps (the Activity check).

use crate::extractor::{Caller, CallerLookup};
use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use perch_model::Scope;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const TTL: Duration = Duration::from_secs(2);
/// Larger answers are not kept.
const MAX_BODY: usize = 256 * 1024;
/// What an entry costs beyond its key and body (the map's slot, the
/// queue's, the `Bytes` header), counted so that many tiny answers are
/// bounded too.
const ENTRY_OVERHEAD: usize = 128;
/// The budget when none is given: 64 MB.
pub const DEFAULT_BUDGET: usize = 64 * 1024 * 1024;

struct Kept {
    generation: u64,
    at: Instant,
    body: Bytes,
}

fn cost(key: &str, body: &Bytes) -> usize {
    key.len() * 2 + body.len() + ENTRY_OVERHEAD
}

/// The kept answers, and the order they were kept in (oldest first; an
/// answer kept again is queued again, and its older place skipped).
#[derive(Default)]
struct KeptAnswers {
    by_key: HashMap<String, Kept>,
    order: VecDeque<(String, Instant)>,
    bytes: usize,
}

impl KeptAnswers {
    fn remove(&mut self, key: &str) {
        if let Some(old) = self.by_key.remove(key) {
            self.bytes -= cost(key, &old.body);
        }
    }

    /// Drops answers from the oldest while they have expired or the total
    /// is over `budget`.
    fn trim(&mut self, budget: usize) {
        while let Some((key, at)) = self.order.front() {
            let current = self.by_key.get(key).is_some_and(|k| k.at == *at);
            if current && at.elapsed() < TTL && self.bytes <= budget {
                break;
            }
            let (key, _) = self.order.pop_front().expect("a front");
            if current {
                self.remove(&key);
            }
        }
    }

    fn clear(&mut self) {
        *self = KeptAnswers::default();
    }
}

pub struct ReadCache {
    generation: AtomicU64,
    budget: usize,
    kept: Mutex<KeptAnswers>,
}

impl Default for ReadCache {
    fn default() -> Self {
        ReadCache::new(DEFAULT_BUDGET)
    }
}

impl ReadCache {
    /// A cache holding at most `budget` bytes of answers and keys.
    pub fn new(budget: usize) -> Self {
        ReadCache { generation: AtomicU64::new(0), budget, kept: Mutex::default() }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, KeptAnswers> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The bytes held now (answers, keys and their bookkeeping).
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    /// Something may have changed: nothing kept so far is given again, so
    /// it is let go at once.
    pub fn changed(&self) {
        let mut kept = self.lock();
        self.generation.fetch_add(1, Ordering::SeqCst);
        kept.clear();
    }

    fn get(&self, key: &str) -> Option<Bytes> {
        let now = self.generation.load(Ordering::SeqCst);
        let mut kept = self.lock();
        kept.trim(self.budget);
        kept.by_key.get(key).filter(|k| k.generation == now && k.at.elapsed() < TTL).map(|k| k.body.clone())
    }

    fn put(&self, key: String, generation: u64, body: Bytes) {
        let mut kept = self.lock();
        // Read before a write that has since ended: never given, not kept.
        if generation != self.generation.load(Ordering::SeqCst) || cost(&key, &body) > self.budget {
            return;
        }
        kept.remove(&key);
        kept.bytes += cost(&key, &body);
        let at = Instant::now();
        kept.order.push_back((key.clone(), at));
        kept.by_key.insert(key, Kept { generation, at, body });
        kept.trim(self.budget);
    }
}

fn json(body: Bytes) -> Response {
    let mut res = Response::new(Body::from(body));
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

/// The weak tag of `body` as the caller, scopes and path of `key` were
/// told it: the same body told to another caller has another tag.
pub fn etag(key: &str, body: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update((key.len() as u64).to_le_bytes());
    hash.update(key.as_bytes());
    hash.update(body);
    let digest = hash.finalize();
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("W/\"{hex}\"")
}

/// Whether an `If-None-Match` value names `tag` (a list, `*`, weak or strong).
fn names(if_none_match: &str, tag: &str) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_owned();
    if_none_match.split(',').any(|t| t.trim() == "*" || bare(t) == bare(tag))
}

/// The answer `body` for `key`, or 304 when the request already holds it.
fn tagged(
    key: &str,
    if_none_match: Option<&HeaderValue>,
    parts: Option<axum::http::response::Parts>,
    body: Bytes,
) -> Response {
    let tag = etag(key, &body);
    let value = HeaderValue::from_str(&tag).expect("hex in quotes is a header value");
    let held = if_none_match.and_then(|v| v.to_str().ok()).is_some_and(|v| names(v, &tag));
    let mut res = if held {
        let mut res = StatusCode::NOT_MODIFIED.into_response();
        if let Some(parts) = parts {
            // A 304 carries what a 200 would have, but not the body's own headers.
            for (name, value) in parts.headers.iter() {
                if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
                    res.headers_mut().insert(name.clone(), value.clone());
                }
            }
        }
        res
    } else {
        match parts {
            Some(parts) => Response::from_parts(parts, Body::from(body)),
            None => json(body),
        }
    };
    res.headers_mut().insert(header::ETAG, value);
    res
}

/// The middleware of the routes under `/api/v1`: answers a GET from what
/// was kept, or keeps the handler's 200; moves the generation on after
/// every other method.
pub async fn remember(
    State(reads): State<Arc<ReadCache>>,
    State(callers): State<CallerLookup>,
    req: Request,
    next: Next,
) -> Response {
    if req.method() != Method::GET {
        let res = next.run(req).await;
        reads.changed();
        return res;
    }
    let (mut parts, body) = req.into_parts();
    // The caller is checked (and counted against its rate limit) once, here;
    // the handler finds it in the request's extensions.
    // A request without a valid caller (ping, the OpenAPI document, a
    // refusal) goes on to its handler as it came, and is not kept.
    let Ok(caller) = Caller::from_request_parts(&mut parts, &callers).await else {
        return next.run(Request::from_parts(parts, body)).await;
    };
    // The path alone: no handler reads the query, so it must not make
    // new entries.
    let key = format!("{}|{}|{}", caller.user_id, Scope::join(&caller.scopes), parts.uri.path());
    let if_none_match = parts.headers.get(header::IF_NONE_MATCH).cloned();
    if let Some(body) = reads.get(&key) {
        return tagged(&key, if_none_match.as_ref(), None, body);
    }
    let generation = reads.generation.load(Ordering::SeqCst);
    parts.extensions.insert(caller);
    let res = next.run(Request::from_parts(parts, body)).await;
    if res.status() != StatusCode::OK {
        return res;
    }
    let (parts, body) = res.into_parts();
    match to_bytes(body, usize::MAX).await {
        Ok(bytes) => {
            if bytes.len() <= MAX_BODY {
                reads.put(key.clone(), generation, bytes.clone());
            }
            tagged(&key, if_none_match.as_ref(), Some(parts), bytes)
        }
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(n: usize) -> Bytes {
        Bytes::from(vec![b'x'; n])
    }

    #[test]
    fn the_oldest_answers_go_when_the_budget_is_full() {
        let cache = ReadCache::new(10_000);
        for i in 0..20 {
            cache.put(format!("k{i}"), 0, body(1_000));
            assert!(cache.bytes() <= 10_000, "{} bytes after {i}", cache.bytes());
        }
        assert!(cache.get("k0").is_none(), "the oldest went");
        assert!(cache.get("k19").is_some(), "the newest stays");
        // Kept again: one entry, not two.
        let before = cache.bytes();
        cache.put("k19".into(), 0, body(1_000));
        assert_eq!(cache.bytes(), before);
    }

    #[test]
    fn an_answer_over_the_budget_is_not_kept() {
        let cache = ReadCache::new(1_000);
        cache.put("big".into(), 0, body(2_000));
        assert_eq!(cache.bytes(), 0);
        assert!(cache.get("big").is_none());
    }

    #[test]
    fn a_write_lets_everything_go_and_a_read_from_before_it_is_not_kept() {
        let cache = ReadCache::new(DEFAULT_BUDGET);
        cache.put("a".into(), 0, body(10));
        cache.changed();
        assert_eq!(cache.bytes(), 0);
        cache.put("b".into(), 0, body(10));
        assert!(cache.get("b").is_none());
        assert_eq!(cache.bytes(), 0, "an answer read before the write is not kept");
    }

    #[test]
    fn a_tag_is_per_caller_and_body_and_matches_as_browsers_send_it() {
        let tag = etag("ada|post.get|/post/1", b"{}");
        assert!(tag.starts_with("W/\"") && tag.ends_with('"'));
        assert_ne!(tag, etag("bob|post.get|/post/1", b"{}"), "another caller, another tag");
        assert_ne!(tag, etag("ada|post.get|/post/1", b"{ }"), "another body, another tag");
        assert!(names(&tag, &tag));
        assert!(names(&format!("\"x\", {}", tag.trim_start_matches("W/")), &tag), "in a list, weak or not");
        assert!(names("*", &tag));
        assert!(!names("W/\"0000\"", &tag));
    }

    #[test]
    fn expired_answers_go_when_the_cache_is_next_touched() {
        let cache = ReadCache::new(DEFAULT_BUDGET);
        cache.put("a".into(), 0, body(10));
        std::thread::sleep(TTL + Duration::from_millis(50));
        assert!(cache.get("other").is_none());
        assert_eq!(cache.bytes(), 0);
    }
}
