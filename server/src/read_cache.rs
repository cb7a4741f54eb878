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

use crate::extractor::Caller;
use crate::AppState;
use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use perch_model::Scope;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const TTL: Duration = Duration::from_secs(2);
const MAX_ENTRIES: usize = 20_000;
/// Larger answers are not kept.
const MAX_BODY: usize = 256 * 1024;

struct Kept {
    generation: u64,
    at: Instant,
    body: Bytes,
}

#[derive(Default)]
pub struct ReadCache {
    generation: AtomicU64,
    kept: Mutex<HashMap<String, Kept>>,
}

impl ReadCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Kept>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Something may have changed: nothing kept so far is given again.
    pub fn changed(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    fn get(&self, key: &str) -> Option<Bytes> {
        let now = self.generation.load(Ordering::SeqCst);
        let kept = self.lock();
        kept.get(key).filter(|k| k.generation == now && k.at.elapsed() < TTL).map(|k| k.body.clone())
    }

    fn put(&self, key: String, generation: u64, body: Bytes) {
        let mut kept = self.lock();
        if kept.len() >= MAX_ENTRIES {
            let now = self.generation.load(Ordering::SeqCst);
            kept.retain(|_, k| k.generation == now && k.at.elapsed() < TTL);
            if kept.len() >= MAX_ENTRIES {
                kept.clear();
            }
        }
        kept.insert(key, Kept { generation, at: Instant::now(), body });
    }
}

fn json(body: Bytes) -> Response {
    let mut res = Response::new(Body::from(body));
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

/// The middleware of the routes under `/api/v1`: answers a GET from what
/// was kept, or keeps the handler's 200; moves the generation on after
/// every other method.
pub async fn remember(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if req.method() != Method::GET {
        let res = next.run(req).await;
        state.reads.changed();
        return res;
    }
    let (mut parts, body) = req.into_parts();
    // The caller is checked (and counted against its rate limit) once, here;
    // the handler finds it in the request's extensions.
    // A request without a valid caller (ping, the OpenAPI document, a
    // refusal) goes on to its handler as it came, and is not kept.
    let Ok(caller) = Caller::from_request_parts(&mut parts, &state).await else {
        return next.run(Request::from_parts(parts, body)).await;
    };
    let key = format!(
        "{}|{}|{}",
        caller.user_id,
        Scope::join(&caller.scopes),
        parts.uri.path_and_query().map_or("", |p| p.as_str())
    );
    if let Some(body) = state.reads.get(&key) {
        return json(body);
    }
    let generation = state.reads.generation.load(Ordering::SeqCst);
    parts.extensions.insert(caller);
    let res = next.run(Request::from_parts(parts, body)).await;
    if res.status() != StatusCode::OK {
        return res;
    }
    let (parts, body) = res.into_parts();
    match to_bytes(body, usize::MAX).await {
        Ok(bytes) => {
            if bytes.len() <= MAX_BODY {
                state.reads.put(key, generation, bytes.clone());
            }
            Response::from_parts(parts, Body::from(bytes))
        }
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}
