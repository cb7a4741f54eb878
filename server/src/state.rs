//! What every handler and layer can reach ([`AppState`], made once by
//! `lib.rs` at start). The caller's extractor
//! and the layers take their part of it through `FromRef`, so they never
//! import this module; the handlers take it whole.

use crate::{db, extractor, idempotency, rate_limit::RateLimiter, read_cache, sign_in, tokens};
use axum::extract::FromRef;
use std::sync::Arc;
use tokio::sync::Mutex;

pub struct Limits {
    pub per_token: Arc<RateLimiter>,
    pub sign_in: sign_in::SignInGuard,
    pub trusted_proxies: Vec<sign_in::Cidr>,
}

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub db: db::Db,
    pub limits: Arc<Limits>,
    /// Writes that read before they write (toggles, replies) queue here, so
    /// SQLite never sees two such transactions at once.
    pub write_lock: Arc<Mutex<()>>,
    /// The application id the served web app signs in with.
    pub web_app_id: Arc<str>,
    pub callers: Arc<extractor::CallerCache>,
    /// Answers of reads, until the next write.
    pub reads: Arc<read_cache::ReadCache>,
    /// Pairs issued by refreshes within the grace window.
    pub refreshes: Arc<tokens::RecentRefreshes>,
    /// Requests with an Idempotency-Key being answered now.
    pub keyed: Arc<idempotency::Running>,
    /// What `config.json` tells the app about its activity checks: 30 s
    /// under the live demo, the app's own pace otherwise.
    pub activity_check_seconds: Option<u32>,
    /// `serve --request-log`: each accepted API call, as whom.
    pub requests: Option<Arc<crate::request_log::RequestLog>>,
}

/// The caller's extractor and the layers ask for their part of the state
/// alone, so that none of them imports this module.
impl FromRef<AppState> for extractor::CallerLookup {
    fn from_ref(state: &AppState) -> Self {
        extractor::CallerLookup {
            db: state.db.clone(),
            callers: state.callers.clone(),
            per_token: state.limits.per_token.clone(),
            requests: state.requests.clone(),
        }
    }
}

impl FromRef<AppState> for Arc<read_cache::ReadCache> {
    fn from_ref(state: &AppState) -> Self {
        state.reads.clone()
    }
}

impl FromRef<AppState> for idempotency::Keys {
    fn from_ref(state: &AppState) -> Self {
        idempotency::Keys { db: state.db.clone(), running: state.keyed.clone(), write_lock: state.write_lock.clone() }
    }
}
