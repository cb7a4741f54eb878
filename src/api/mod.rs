//! The API client: one async function per operation of the interface and the
//! OAuth token calls. It adds the Bearer token, refreshes it shortly before
//! it expires and once on a 401, aborts a request when the page that asked
//! for it goes away, and turns every failure into one [`ApiError`]. A page's
//! first reads may start before its code has arrived ([`Api::read_early`]).
//! It counts the calls under way ([`under_way`]), so that background work
//! can wait for a page's own reads to be answered.

pub mod config;
pub mod http;
pub mod refresh;
pub mod tokens;

use crate::i18n::{t, Text};
use http::Reply;
use leptos::prelude::*;
use perch_model::{
    ClientConfig, CodeExchange, FollowResult, FollowersList, FollowingList, LikeResult, NewPost, Post, PostUpdate,
    RepliesPage, RevokeRequest, Scope, TokenSet, User, UserPostsPage,
};
use send_wrapper::SendWrapper;
use serde::de::DeserializeOwned;
use std::sync::Arc;
use tokens::{Held, Tokens};

thread_local! {
    /// The calls of this tab's clients that have not ended yet.
    static UNDER_WAY: ArcRwSignal<u32> = ArcRwSignal::new(0);
    /// How many requests this tab started: each takes the next number.
    static STARTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The number of the request whose answer was handed out last.
    static ANSWER_ASKED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many requests this tab has started so far: a request numbered
/// above it was asked after now ([`answer_asked`]).
pub fn requests_started() -> u64 {
    STARTED.with(std::cell::Cell::get)
}

/// The number of the request whose answer the caller is reading now: set
/// when an answer is handed out, so the code that runs on from the `await`
/// (keeping what it says) knows when it was asked. An answer `index.html`
/// read before the wasm counts as 0. The store weighs a read's word on a
/// like or follow by it: a read asked before that toggle's write was
/// answered says what the server had before (`store/relations.rs`).
pub fn answer_asked() -> u64 {
    ANSWER_ASKED.with(std::cell::Cell::get)
}

/// An answer `index.html` made before the wasm ran (`{status,
/// retry_after, etag, text}`, the early reads' and the sign-in's), as a
/// [`Reply`].
fn reply_in_page(got: &wasm_bindgen::JsValue) -> Option<Reply> {
    let field = |name: &str| js_sys::Reflect::get(got, &name.into()).ok();
    Some(Reply {
        status: field("status")?.as_f64()? as u16,
        retry_after: field("retry_after").and_then(|v| v.as_string()).and_then(|v| v.trim().parse().ok()),
        etag: field("etag").and_then(|v| v.as_string()),
        text: field("text")?.as_string()?,
    })
}

fn answer_from(asked: u64) {
    ANSWER_ASKED.with(|a| a.set(asked));
}

/// How many calls to the server are under way in this tab (tracked): each
/// exchange, and each wait for an early read's answer (counted in the two
/// functions that are not generic, so the count is compiled once).
/// Background work that would share the network with a page's first reads
/// waits for none (`routes::watch_activity_after_paint`).
pub fn under_way() -> u32 {
    UNDER_WAY.with(|n| n.get())
}

/// One call under way, for as long as this lives (dropped with an aborted
/// call too).
struct UnderWay;

impl UnderWay {
    #[inline(never)]
    fn start() -> Self {
        UNDER_WAY.with(|n| n.try_update(|n| *n += 1));
        UnderWay
    }
}

impl Drop for UnderWay {
    #[inline(never)]
    fn drop(&mut self) {
        UNDER_WAY.with(|n| n.try_update(|n| *n = n.saturating_sub(1)));
    }
}

/// Why a call failed, told apart as a person needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The server could not be reached (or the request was cut off).
    Network(String),
    /// 401: the sign-in is missing, expired or revoked.
    Unauthorized(String),
    /// 403: the token lacks these scopes, or the action is not allowed here.
    Forbidden { missing: Vec<Scope>, message: String },
    /// 404
    NotFound(String),
    /// 422: the content was refused; the server says why.
    Unprocessable(String),
    /// 429: slow down, for this many seconds when the server says.
    RateLimited { retry_after: Option<u64>, message: String },
    /// 5xx
    Server { status: u16, message: String },
    /// Any other status (400, 413…).
    Other { status: u16, message: String },
    /// A 200 whose body could not be read.
    Invalid(String),
}

impl ApiError {
    /// What went wrong, in the app's own words for the person using Perch
    /// (the server's message is the API's, in its language, and not shown).
    pub fn explain(&self) -> Text {
        match self {
            ApiError::Network(_) => t::error_network().into(),
            ApiError::Unauthorized(_) => t::error_unauthorized().into(),
            ApiError::Forbidden { missing, .. } if !missing.is_empty() => t::error_missing_scope(Scope::join(missing)),
            ApiError::Forbidden { .. } => t::error_forbidden().into(),
            ApiError::NotFound(_) => t::error_not_found().into(),
            ApiError::Unprocessable(_) => t::error_unprocessable().into(),
            ApiError::RateLimited { retry_after: Some(secs), .. } => t::error_rate_limited_for(*secs),
            ApiError::RateLimited { .. } => t::error_rate_limited().into(),
            ApiError::Server { status, .. } => t::error_server(status.to_string()),
            ApiError::Other { status, .. } => t::error_other(status.to_string()),
            ApiError::Invalid(_) => t::error_invalid().into(),
        }
    }

    pub fn is_not_found(&self) -> bool {
        matches!(self, ApiError::NotFound(_))
    }
}

/// The scope names a 403 message mentions.
pub fn scopes_in(message: &str) -> Vec<Scope> {
    let mut found: Vec<Scope> = Vec::new();
    for word in message.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_')) {
        if let Ok(scope) = word.trim_end_matches('.').parse::<Scope>() {
            if !found.contains(&scope) {
                found.push(scope);
            }
        }
    }
    found
}

/// The API client every page uses.
pub fn use_api() -> Api {
    expect_context::<Api>()
}

/// Why a request of a bound client was not sent ([`Api::as_account`]).
const NOT_BOUND: &str = "another account is signed in here now";

/// How long before expiry a token is refreshed.
const REFRESH_MARGIN_MS: i64 = 60_000;

#[derive(Clone)]
pub struct Api {
    /// `{base_url}` without a trailing slash.
    base: String,
    /// The server's root, where `/api/oauth/...` and `/oauth/authorise` live.
    root: String,
    /// Who keeps the sign-in (the session).
    tokens: Arc<dyn Tokens>,
    refreshing: Arc<futures::lock::Mutex<()>>,
    /// Whether the server answered this visit, and whether its last
    /// request failed on the network (the offline notice reads both).
    reach: ArcRwSignal<Reach>,
    /// The account every request of this client is made as ([`Api::as_account`]),
    /// or `None`: whichever account is current when a request goes.
    account: Option<Arc<str>>,
    /// `account` is another account signed in here, not the current one
    /// ([`Api::as_other_account`]).
    other: bool,
    /// Reads started before the page that wants them was drawn.
    early: Arc<std::sync::Mutex<Vec<EarlyRead>>>,
}

/// A read started before the page that needs it has its code (issue 48: a
/// page's `data()`): its route, in the main module, starts it while the
/// page's module downloads; the page's own read of the same path, as the
/// same account, takes the answer instead of asking again.
struct EarlyRead {
    account: String,
    path: String,
    /// When it was asked for (ms since the epoch): a later read gets no
    /// answer older than [`EARLY_FRESH_MS`].
    at: f64,
    /// Its request's number, or one below it ([`answer_asked`]).
    asked: u64,
    /// Resolves when the answer is in `reply` (a JS promise: the app awaits
    /// those already, where a shared Rust future cost 1.5 KB of wasm).
    done: SendWrapper<js_sys::Promise>,
    reply: Arc<std::sync::Mutex<Option<Result<Reply, ApiError>>>>,
}

/// The most early reads waiting to be taken: a page starts two or three.
const EARLY_KEPT: usize = 6;
/// How old an early answer may be when taken: a page that did not read a
/// path at once (it held what it needed) must not get an answer from the
/// start of the visit when it reads it much later.
const EARLY_FRESH_MS: f64 = 20_000.0;

/// A conditional read's answer ([`Api::get_if_changed`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Fresh<T> {
    /// 304: what the caller kept with this `ETag` is still true.
    Unchanged,
    /// The answer, and its `ETag` when the server gives one.
    Changed(T, Option<String>),
}

/// What the server's answers have shown so far this visit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reach {
    /// Some request was answered.
    pub answered: bool,
    /// The last request that ended got no answer.
    pub unreachable: bool,
}

/// An abort signal that fires when the current reactive owner is cleaned up
/// (the page or resource that asked goes away).
fn abort_on_cleanup() -> Option<web_sys::AbortSignal> {
    let controller = web_sys::AbortController::new().ok()?;
    let signal = controller.signal();
    if Owner::current().is_some() {
        let controller = SendWrapper::new(controller);
        on_cleanup(move || controller.abort());
    }
    Some(signal)
}

/// A sign-in `index.html` made on the callback ([`Api::take_early_sign_in`]):
/// the exchange's tokens, and who signed in when that answer came too.
pub struct EarlySignIn {
    pub tokens: Result<TokenSet, ApiError>,
    pub user: Option<User>,
}

impl Api {
    /// The client of the server `config` names, asking `tokens` (the
    /// session) for its sign-in.
    pub fn new(config: &ClientConfig, tokens: impl Tokens) -> Self {
        let base = config.base().to_owned();
        let root = server_root(&base);
        Api {
            base,
            root,
            tokens: Arc::new(tokens),
            refreshing: Default::default(),
            reach: ArcRwSignal::new(Reach::default()),
            account: None,
            other: false,
            early: Default::default(),
        }
    }

    /// Starts the read of `path` (a GET of the interface) now, for the page
    /// about to be drawn: its own read of that path, made as the same
    /// account, takes this answer ([`Api::call`]). Nothing when no one is
    /// signed in, or when that read was started already. An answer no page
    /// took is dropped when the route that asked goes away.
    pub fn read_early(&self, path: String) {
        let Some(account) = self.account_now() else { return };
        if Self::page_started(&path) {
            return;
        }
        let mut early = self.early.lock().unwrap_or_else(|e| e.into_inner());
        if early.iter().any(|e| e.account == account && e.path == path) {
            return;
        }
        let mut resolve = None;
        let done = js_sys::Promise::new(&mut |ok, _| resolve = Some(ok));
        let reply = Arc::new(std::sync::Mutex::new(None));
        let (api, asked, answer) = (self.clone(), path.clone(), reply.clone());
        leptos::task::spawn_local(async move {
            let got = api.exchange("GET", &asked, None, None, None).await;
            *answer.lock().unwrap_or_else(|e| e.into_inner()) = Some(got);
            if let Some(resolve) = resolve {
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            }
        });
        if early.len() >= EARLY_KEPT {
            early.remove(0);
        }
        let (at, asked) = (js_sys::Date::now(), requests_started() + 1);
        let done = SendWrapper::new(done);
        early.push(EarlyRead { account: account.clone(), path: path.clone(), at, asked, done, reply });
        drop(early);
        if Owner::current().is_some() {
            let early = self.early.clone();
            on_cleanup(move || {
                early.lock().unwrap_or_else(|e| e.into_inner()).retain(|e| e.account != account || e.path != path)
            });
        }
    }

    /// Lets go of every read started early whose answer no page took: what
    /// reads again (the reader back online, or back to the tab) must hear
    /// the server now, not an answer from when the page opened.
    pub fn forget_early(&self) {
        self.early.lock().unwrap_or_else(|e| e.into_inner()).clear();
        if let Ok(early) = js_sys::Reflect::get(&window(), &"perchEarly".into()) {
            if early.is_object() {
                let _ = js_sys::Reflect::set(&window(), &"perchEarly".into(), &js_sys::Object::new());
            }
        }
    }

    /// The answer of a read `index.html` started before the wasm
    /// (`window.perchEarly`, a promise per path), taken once: only a 200,
    /// made as the account this request goes as, asked for less than
    /// [`EARLY_FRESH_MS`] ago.
    async fn take_from_page(&self, path: &str) -> Option<Reply> {
        use wasm_bindgen::JsCast;
        let early = js_sys::Reflect::get(&window(), &"perchEarly".into()).ok().filter(|v| v.is_object())?;
        let key = wasm_bindgen::JsValue::from_str(path);
        let promise = js_sys::Reflect::get(&early, &key).ok()?.dyn_into::<js_sys::Promise>().ok()?;
        let _ = js_sys::Reflect::delete_property(early.unchecked_ref::<js_sys::Object>(), &key);
        let answer = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
        let field = |name: &str| js_sys::Reflect::get(&answer, &name.into()).ok();
        let fresh = field("at")?.as_f64().is_some_and(|at| js_sys::Date::now() - at <= EARLY_FRESH_MS);
        if !fresh || field("account")?.as_string() != self.account_now() {
            return None;
        }
        let reply = reply_in_page(&answer).filter(|r| r.status == 200)?;
        self.learn_reach(true);
        answer_from(0);
        Some(reply)
    }

    /// Whether `index.html` started the read of `path` already.
    fn page_started(path: &str) -> bool {
        js_sys::Reflect::get(&window(), &"perchEarly".into())
            .ok()
            .filter(|v| v.is_object())
            .is_some_and(|early| js_sys::Reflect::has(&early, &path.into()).unwrap_or(false))
    }

    /// The account a request made now goes as.
    fn account_now(&self) -> Option<String> {
        match &self.account {
            Some(bound) => Some(bound.to_string()),
            None => self.tokens.held().map(|h| h.account),
        }
    }

    /// The answer of the early read of `path`, once it is in: only when the
    /// account it was made as is the one this request goes as.
    async fn take_early(&self, path: &str) -> Option<Result<Reply, ApiError>> {
        let _under_way = UnderWay::start();
        let read = {
            let mut early = self.early.lock().unwrap_or_else(|e| e.into_inner());
            early.iter().position(|e| e.path == path).map(|at| early.remove(at))
        };
        let Some(read) = read else { return self.take_from_page(path).await.map(Ok) };
        if Some(&read.account) != self.account_now().as_ref() || js_sys::Date::now() - read.at > EARLY_FRESH_MS {
            return None;
        }
        let _ = wasm_bindgen_futures::JsFuture::from(read.done.take()).await;
        let answer = read.reply.lock().unwrap_or_else(|e| e.into_inner()).take();
        answer_from(read.asked);
        answer
    }

    /// This client, bound to the account `uuid` from the first request to
    /// the last: each request (and its refresh, and its retry after a 401)
    /// goes with that account's token, or not at all. When another account
    /// has become current (added, switched to, or this one signed out,
    /// from the moment the sign-out's reload is asked for: a try under way
    /// when the person discarded the outbox sends nothing after it), the
    /// request is not sent and fails as [`ApiError::Unauthorized`]: an
    /// action one account made is never sent as another.
    pub fn as_account(&self, uuid: &str) -> Api {
        Api { account: Some(uuid.into()), other: false, ..self.clone() }
    }

    /// This client, reading as the account `uuid`, signed in here but not
    /// current, with that account's own token and no other (its activity,
    /// checked in the background: `store/activity/`). Such a client never
    /// refreshes the token nor tells the session of a refusal or missing
    /// scopes (that is for when the account is current again): a request
    /// whose token expired, or made once the account is current or gone,
    /// fails as [`ApiError::Unauthorized`] without being sent.
    pub fn as_other_account(&self, uuid: &str) -> Api {
        Api { account: Some(uuid.into()), other: true, ..self.clone() }
    }

    /// The current account's tokens, if it is the one this client is bound to.
    fn held_as_bound(&self) -> Result<Option<Held>, ApiError> {
        if self.account.is_some() && crate::browser::leaving::asked() {
            return Err(ApiError::Unauthorized(NOT_BOUND.into()));
        }
        if self.other {
            let bound = self.account.as_deref().unwrap_or_default();
            let held = self.tokens.held_other(bound).ok_or_else(|| ApiError::Unauthorized(NOT_BOUND.into()))?;
            let expired = held.expires_at.is_some_and(|at| at.millis() <= js_sys::Date::now() as i64);
            return if expired { Err(ApiError::Unauthorized(NOT_BOUND.into())) } else { Ok(Some(held)) };
        }
        let held = self.tokens.held();
        match (&self.account, &held) {
            (Some(bound), Some(h)) if **bound != *h.account => Err(ApiError::Unauthorized(NOT_BOUND.into())),
            (Some(_), None) => Err(ApiError::Unauthorized(NOT_BOUND.into())),
            _ => Ok(held),
        }
    }

    /// What the server's answers have shown so far this visit.
    pub fn reach(&self) -> Reach {
        self.reach.get()
    }

    /// [`Api::reach`], read in place.
    pub fn reach_untracked(&self) -> Reach {
        self.reach.get_untracked()
    }

    fn learn_reach(&self, answered: bool) {
        let next = Reach { answered: answered || self.reach.with_untracked(|r| r.answered), unreachable: !answered };
        if self.reach.with_untracked(|r| *r != next) {
            self.reach.set(next);
        }
    }

    pub fn root(&self) -> &str {
        &self.root
    }

    /// The interface's base address (`config.json`'s `api_base`, trimmed).
    pub fn base(&self) -> &str {
        &self.base
    }

    async fn token(&self) -> Result<Option<String>, ApiError> {
        let Some(held) = self.held_as_bound()? else { return Ok(None) };
        let now = js_sys::Date::now() as i64;
        if self.other {
            return Ok(Some(held.token));
        }
        if let (Some(expires), Some(_)) = (held.expires_at, &held.refresh_token) {
            if expires.millis() - now < REFRESH_MARGIN_MS && self.refresh_now(&held).await.is_ok() {
                return Ok(self.held_as_bound()?.map(|h| h.token));
            }
        }
        Ok(Some(held.token))
    }

    /// Asks the server to revoke `token` (the refresh token when there is
    /// one, which takes its family): a beacon, which outlives the reload
    /// of a sign-out; a server without the revoke endpoint answers 404,
    /// which changes nothing.
    pub fn revoke(&self, token: String) {
        let body = serde_json::to_string(&RevokeRequest { token }).unwrap_or_default();
        let url = format!("{}/api/oauth/revoke", self.root);
        let _ = window().navigator().send_beacon_with_opt_str(&url, Some(&body));
    }

    /// One operation's request, answered with the body it read: generic
    /// only in what the body is read as, so the request, the refresh and
    /// the retry are compiled once ([`Api::exchange`]).
    async fn call<T: DeserializeOwned>(&self, method: &str, path: &str, body: Option<String>) -> Result<T, ApiError> {
        self.call_keyed(method, path, body, None).await
    }

    /// [`Api::call`] with an `Idempotency-Key`.
    async fn call_keyed<T: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<String>,
        key: Option<&str>,
    ) -> Result<T, ApiError> {
        // A read the page's route started early: its answer, if it got one.
        // (Never for another account: those reads were the current one's.)
        if method == "GET" && body.is_none() && key.is_none() && !self.other {
            if let Some(Ok(reply)) = self.take_early(path).await {
                return parse(&reply.text);
            }
        }
        // Boxed as a trait object: one copy of its state machine, not one
        // inlined into each body type's future.
        let exchange: std::pin::Pin<Box<dyn std::future::Future<Output = Result<Reply, ApiError>> + '_>> =
            Box::pin(self.exchange(method, path, body, key, None));
        parse(&exchange.await?.text)
    }

    /// A conditional GET (docs/api.md): with the `ETag` kept from the last
    /// answer, a server that has nothing new answers 304, and this
    /// [`Fresh::Unchanged`]; a server without ETags answers in full.
    pub async fn get_if_changed<T: DeserializeOwned>(
        &self,
        path: &str,
        etag: Option<&str>,
    ) -> Result<Fresh<T>, ApiError> {
        let reply = self.exchange("GET", path, None, None, etag).await?;
        if reply.status == 304 {
            return Ok(Fresh::Unchanged);
        }
        Ok(Fresh::Changed(parse(&reply.text)?, reply.etag))
    }

    /// Sends a request with the session's token, refreshing it once on a
    /// 401, and answers the body of a success (learning missing scopes from
    /// a 403).
    async fn exchange(
        &self,
        method: &str,
        path: &str,
        body: Option<String>,
        key: Option<&str>,
        if_none_match: Option<&str>,
    ) -> Result<Reply, ApiError> {
        let _under_way = UnderWay::start();
        let asked = STARTED.with(|n| {
            n.set(n.get() + 1);
            n.get()
        });
        let url = format!("{}{path}", self.base);
        let abort = abort_on_cleanup();
        let mut retried = false;
        loop {
            let token = self.token().await?;
            let extra = http::Extra {
                token: token.as_deref(),
                body: body.as_deref(),
                key,
                abort: abort.as_ref(),
                if_none_match,
            };
            let sent = http::send(method, &url, extra).await;
            answer_from(asked);
            // A request the page cut off says nothing about the server.
            if !abort.as_ref().is_some_and(web_sys::AbortSignal::aborted) {
                self.learn_reach(sent.is_ok());
            }
            let res = sent.map_err(ApiError::Network)?;
            if self.other {
                // Not the current account's: nothing is refreshed or told.
                return if res.ok() || res.status == 304 { Ok(res) } else { Err(error_from(res)) };
            }
            if res.status == 401 && !retried {
                if let Some(held) = self.held_as_bound()?.filter(|h| h.refresh_token.is_some()) {
                    retried = true;
                    if self.refresh_now(&held).await.is_ok() {
                        continue;
                    }
                }
            }
            if res.status == 401 {
                if let Some(token) = &token {
                    self.tokens.refused(token);
                }
            }
            return read(res, &*self.tokens);
        }
    }

    // The eleven operations.

    pub async fn get_post(&self, uuid: &str) -> Result<Post, ApiError> {
        self.call("GET", &path::post(uuid), None).await
    }

    pub async fn replies(&self, uuid: &str, page: u32) -> Result<RepliesPage, ApiError> {
        self.call("GET", &path::replies(uuid, page), None).await
    }

    // The three writes carry the action's Idempotency-Key: sent again after
    // a lost answer, they are done once (docs/api.md).

    pub async fn send_post(&self, post: &NewPost, key: &str) -> Result<Post, ApiError> {
        self.call_keyed("POST", "/post", Some(serde_json::to_string(post).unwrap_or_default()), Some(key)).await
    }

    pub async fn update_post(&self, uuid: &str, update: &PostUpdate, key: &str) -> Result<Post, ApiError> {
        let body = Some(serde_json::to_string(update).unwrap_or_default());
        self.call_keyed("PATCH", &format!("/post/{}", enc(uuid)), body, Some(key)).await
    }

    pub async fn delete_post(&self, uuid: &str, key: &str) -> Result<Post, ApiError> {
        self.call_keyed("DELETE", &format!("/post/{}", enc(uuid)), None, Some(key)).await
    }

    pub async fn like(&self, uuid: &str) -> Result<LikeResult, ApiError> {
        self.call("POST", &format!("/post/{}/like", enc(uuid)), None).await
    }

    /// A user by `@username` or uuid.
    pub async fn user(&self, key: &str) -> Result<User, ApiError> {
        self.call("GET", &path::user(key), None).await
    }

    pub async fn user_posts(&self, uuid: &str, page: u32) -> Result<UserPostsPage, ApiError> {
        self.call("GET", &path::user_posts(uuid, page), None).await
    }

    pub async fn follow(&self, uuid: &str) -> Result<FollowResult, ApiError> {
        self.call("POST", &format!("/user/{}/follow", enc(uuid)), None).await
    }

    pub async fn following(&self, uuid: &str) -> Result<FollowingList, ApiError> {
        self.call("GET", &path::following(uuid), None).await
    }

    pub async fn followers(&self, uuid: &str) -> Result<FollowersList, ApiError> {
        self.call("GET", &format!("/user/{}/followers", enc(uuid)), None).await
    }

    // OAuth.

    pub async fn exchange_code(&self, exchange: &CodeExchange) -> Result<TokenSet, ApiError> {
        self.post_root("/api/oauth/code", serde_json::to_string(exchange).unwrap_or_default()).await
    }

    /// What `index.html` did of a sign-in on the callback before the wasm
    /// ran (`window.perchSignIn`, issue 68: a newcomer's Home in a second):
    /// the exchange of `code`, then who signed in with its token. Taken
    /// once; `None` when it did not start for this code, and then the app
    /// exchanges it itself. Once started, the code is never sent again (a
    /// code used twice is refused, and its tokens revoked): a failure here
    /// is the sign-in's failure.
    pub async fn take_early_sign_in(&self, code: &str) -> Option<EarlySignIn> {
        use wasm_bindgen::JsCast;
        let (page, key) = (window(), wasm_bindgen::JsValue::from_str("perchSignIn"));
        let started = js_sys::Reflect::get(&page, &key).ok().filter(|v| v.is_object())?;
        let _ = js_sys::Reflect::delete_property(page.unchecked_ref::<js_sys::Object>(), &key);
        let field = |of: &wasm_bindgen::JsValue, name: &str| js_sys::Reflect::get(of, &name.into()).ok();
        if field(&started, "code")?.as_string().as_deref() != Some(code) {
            return None;
        }
        let done = field(&started, "done")?.dyn_into::<js_sys::Promise>().ok()?;
        let answer = wasm_bindgen_futures::JsFuture::from(done).await.unwrap_or_default();
        let reply = |name: &str| reply_in_page(&field(&answer, name).filter(|v| v.is_object())?);
        let tokens = match reply("exchange") {
            Some(got) if got.ok() => parse::<TokenSet>(&got.text),
            Some(got) => Err(error_from(got)),
            None => Err(ApiError::Network(field(&answer, "failed").and_then(|v| v.as_string()).unwrap_or_default())),
        };
        if tokens.is_ok() {
            self.learn_reach(true);
        }
        let user = reply("user").filter(|got| tokens.is_ok() && got.ok()).and_then(|got| parse::<User>(&got.text).ok());
        Some(EarlySignIn { tokens, user })
    }

    /// Checks a pasted token by asking who owns it.
    pub async fn user_of_token(&self, token: &str) -> Result<User, ApiError> {
        let res =
            http::send("GET", &format!("{}/user", self.base), http::Extra { token: Some(token), ..Default::default() })
                .await
                .map_err(ApiError::Network)?;
        parse(&read(res, &*self.tokens)?.text)
    }

    async fn post_root<T: DeserializeOwned>(&self, path: &str, body: String) -> Result<T, ApiError> {
        parse(&self.post_root_text(path, body, None).await?)
    }

    /// A POST to the server's root (the OAuth calls), its answer's text;
    /// `abort` cuts it off (the refresh's time limit).
    async fn post_root_text(
        &self,
        path: &str,
        body: String,
        abort: Option<&web_sys::AbortSignal>,
    ) -> Result<String, ApiError> {
        let res = http::send(
            "POST",
            &format!("{}{path}", self.root),
            http::Extra { body: Some(&body), abort, ..Default::default() },
        )
        .await
        .map_err(ApiError::Network)?;
        if res.ok() {
            Ok(res.text)
        } else {
            Err(error_from(res))
        }
    }
}

/// The paths of the reads a page may start early ([`Api::read_early`]),
/// the same the operations ask.
pub mod path {
    use super::enc;

    pub fn post(uuid: &str) -> String {
        format!("/post/{}", enc(uuid))
    }

    pub fn replies(uuid: &str, page: u32) -> String {
        format!("/post/{}/replies/{page}", enc(uuid))
    }

    /// A user by `@username` or uuid.
    pub fn user(key: &str) -> String {
        format!("/user/{}", enc(key))
    }

    pub fn user_posts(uuid: &str, page: u32) -> String {
        format!("/user/{}/posts/{page}", enc(uuid))
    }

    pub fn following(uuid: &str) -> String {
        format!("/user/{}/following", enc(uuid))
    }
}

/// A body read as `T`.
fn parse<T: DeserializeOwned>(text: &str) -> Result<T, ApiError> {
    serde_json::from_str(text).map_err(|e| ApiError::Invalid(e.to_string()))
}
/// Reads a response: the answer on 200 (or 304, to a conditional read),
/// else the error (learning missing scopes).
fn read(res: Reply, tokens: &dyn Tokens) -> Result<Reply, ApiError> {
    if res.ok() || res.status == 304 {
        return Ok(res);
    }
    let error = error_from(res);
    if let ApiError::Forbidden { missing, .. } = &error {
        tokens.lacks(missing);
    }
    Err(error)
}

fn error_from(res: Reply) -> ApiError {
    let message = serde_json::from_str::<perch_model::ErrorBody>(&res.text).map(|e| e.message).unwrap_or_default();
    classify(res.status, message, res.retry_after)
}

/// The error for a status and the server's message.
pub fn classify(status: u16, message: String, retry_after: Option<u64>) -> ApiError {
    match status {
        401 => ApiError::Unauthorized(message),
        403 => ApiError::Forbidden { missing: scopes_in(&message), message },
        404 => ApiError::NotFound(message),
        422 => ApiError::Unprocessable(message),
        429 => ApiError::RateLimited { retry_after, message },
        // 409: the first request with this Idempotency-Key is still being
        // answered (the only 409 of the interface). Not a refusal: like a
        // 5xx, the write waits and is sent again with its key, which then
        // answers the first request's answer.
        409 | 500..=599 => ApiError::Server { status, message },
        _ => ApiError::Other { status, message },
    }
}

/// A path segment, percent-encoded (keeps `@` for usernames).
fn enc(segment: &str) -> String {
    js_sys::encode_uri_component(segment).as_string().unwrap_or_default().replace("%40", "@")
}

/// The origin of an absolute base URL, or this page's origin for a path.
pub fn server_root(base: &str) -> String {
    if let Some(rest) = base
        .strip_prefix("https://")
        .map(|r| ("https://", r))
        .or_else(|| base.strip_prefix("http://").map(|r| ("http://", r)))
    {
        let (scheme, after) = rest;
        let host = after.split('/').next().unwrap_or("");
        return format!("{scheme}{host}");
    }
    window().location().origin().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_403_names_its_missing_scopes() {
        assert_eq!(scopes_in("The token lacks the scopes post.get,post.like."), vec![Scope::PostGet, Scope::PostLike]);
        assert_eq!(scopes_in("The token lacks the scope user.followers.get."), vec![Scope::UserFollowersGet]);
        assert_eq!(scopes_in("Only the author of a post may change it."), vec![]);
    }

    #[test]
    fn statuses_are_told_apart() {
        assert!(matches!(classify(401, String::new(), None), ApiError::Unauthorized(_)));
        assert_eq!(classify(429, "slow".into(), Some(7)).explain(), t::error_rate_limited_for(7));
        assert_eq!(classify(503, String::new(), None).explain(), t::error_server("503"));
        assert!(
            matches!(classify(409, String::new(), None), ApiError::Server { status: 409, .. }),
            "a key still being answered is tried again, not refused"
        );
        assert_eq!(
            classify(422, "The post is 1 character over the limit of 500.".into(), None).explain(),
            t::error_unprocessable().into()
        );
        assert_eq!(
            classify(403, "lacks the scope reply.post".into(), None).explain(),
            t::error_missing_scope("reply.post")
        );
        assert_eq!(classify(403, "Only the author may.".into(), None).explain(), t::error_forbidden().into());
        assert!(classify(404, String::new(), None).is_not_found());
    }
}
