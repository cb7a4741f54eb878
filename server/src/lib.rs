//! The reference server. This file owns startup (the shared state is
//! `state.rs`):
//! opening the database, registering the served web app, building the router
//! (the interface under `/api/v1`, OAuth, the app's `config.json`, the static
//! app) and running it until it is stopped. `main.rs` is the command line.

pub mod accounts;
pub mod api;
pub mod connections;
pub mod db;
pub mod demo;
pub mod error;
pub mod extractor;
pub mod idempotency;
pub mod live;
pub mod oauth;
pub mod openapi;
pub mod rate_limit;
pub mod read_cache;
pub mod request_log;
pub mod sign_in;
pub mod state;
pub mod static_app;
pub mod tokens;

pub use state::{AppState, Limits};

use axum::http::{header, HeaderValue, Method};
use axum::Router;
use rate_limit::RateLimiter;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{oneshot, Mutex};
use tokio::task::JoinHandle;
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

/// The name the served web app is registered under.
pub const WEB_APP_NAME: &str = "Perch";

/// What `serve` was asked to do.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub db: PathBuf,
    pub static_dir: Option<PathBuf>,
    pub demo: bool,
    /// With the demo: demo people act at this pace (`live.rs`).
    pub live: Option<Duration>,
    /// Origins allowed to call the API from a browser (CORS), e.g. `https://perch.example`.
    pub allow_origins: Vec<String>,
    /// Where people reach the app, besides this machine's own address; its
    /// `/oauth/callback` is registered as a redirect URI.
    pub public_urls: Vec<String>,
    /// Requests a minute one token may make.
    pub token_requests_per_minute: u32,
    /// Failed sign-ins for one username from one address in
    /// `sign_in_window` before 429.
    pub sign_in_failures: u32,
    pub sign_in_window: Duration,
    /// Password checks that may run at once; more wait, then get 429.
    pub sign_in_parallel: usize,
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<sign_in::Cidr>,
    /// The bytes the read cache may hold (`read_cache.rs`).
    pub read_cache_bytes: usize,
    /// How long a just-retired refresh token answers its successor pair
    /// again (`tokens::REFRESH_GRACE`).
    pub refresh_grace: Duration,
    /// Header, body and shutdown timeouts (`connections.rs`).
    pub timeouts: connections::Timeouts,
    /// Where each accepted API call is written, as whom (`request_log.rs`).
    pub request_log: Option<PathBuf>,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            db: PathBuf::from("data/perch.db"),
            static_dir: None,
            demo: false,
            live: None,
            allow_origins: Vec::new(),
            public_urls: Vec::new(),
            token_requests_per_minute: 1200,
            sign_in_failures: 10,
            sign_in_window: Duration::from_secs(300),
            sign_in_parallel: std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 8),
            trusted_proxies: Vec::new(),
            read_cache_bytes: read_cache::DEFAULT_BUDGET,
            refresh_grace: tokens::REFRESH_GRACE,
            timeouts: connections::Timeouts::default(),
            request_log: None,
        }
    }
}

/// Builds the whole router for `state`.
pub fn router(state: AppState, options: &ServeOptions) -> Router {
    // Every answer of the API and of sign-in is about someone: never stored.
    let personal = || SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    let mut app = Router::new()
        .nest(
            "/api/v1",
            api::router()
                .route_layer(axum::middleware::from_fn_with_state(state.clone(), read_cache::remember))
                // Outside the read cache: an answer given again writes nothing.
                .route_layer(axum::middleware::from_fn_with_state(state.clone(), idempotency::replay_or_run))
                .layer(personal())
                // A page of posts is 15-20 KB of JSON and a fifth of that
                // compressed: on a phone's network, the difference is most of
                // a timeline's load. Only here: OAuth answers carry tokens and
                // are never compressed (BREACH).
                .layer(CompressionLayer::new().quality(CompressionLevel::Precise(4))),
        )
        // Beside the interface, not inside its router: the document is
        // made from every handler's annotations, so it may not be one of them.
        // Its headers stay those of the interface's answers.
        .merge(
            Router::new()
                .route("/api/v1/openapi.json", axum::routing::get(openapi::document))
                .layer(personal())
                .layer(CompressionLayer::new().quality(CompressionLevel::Precise(4))),
        )
        .merge(oauth::router().layer(personal()))
        .route("/config.json", axum::routing::get(static_app::client_config));
    app = match &options.static_dir {
        Some(dir) if dir.join("robots.txt").is_file() => app.fallback_service(static_app::service(dir)),
        Some(dir) => app
            .route("/robots.txt", axum::routing::get(static_app::robots_txt))
            .fallback_service(static_app::service(dir)),
        None => app.route("/robots.txt", axum::routing::get(static_app::robots_txt)).fallback(static_app::no_app),
    };
    let mut app = app
        .with_state(state)
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")))
        .layer(TraceLayer::new_for_http());
    if !options.allow_origins.is_empty() {
        let origins: Vec<HeaderValue> =
            options.allow_origins.iter().filter_map(|o| o.trim_end_matches('/').parse().ok()).collect();
        app = app.layer(
            CorsLayer::new()
                .allow_origin(AllowOrigin::list(origins))
                .allow_methods([Method::GET, Method::POST, Method::PATCH, Method::DELETE])
                .allow_headers([
                    header::AUTHORIZATION,
                    header::CONTENT_TYPE,
                    idempotency::HEADER,
                    header::IF_NONE_MATCH,
                ])
                .expose_headers([header::RETRY_AFTER, idempotency::REPLAYED, header::ETAG])
                .max_age(Duration::from_secs(3600)),
        );
    }
    app
}

/// A running server: stop it, or wait for SIGINT/SIGTERM.
pub struct Running {
    pub state: AppState,
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
    /// The live demo's acts, stopped with the server.
    live: Option<JoinHandle<()>>,
}

/// Opens the database, registers the web app, and starts serving on
/// `listener` in the background.
pub async fn start(listener: TcpListener, options: ServeOptions) -> anyhow::Result<Running> {
    if let Some(dir) = &options.static_dir {
        anyhow::ensure!(
            dir.join("index.html").is_file(),
            "--static {}: no index.html there (run trunk build first)",
            dir.display()
        );
    }
    let db = db::open(&options.db).await?;
    let addr = listener.local_addr()?;
    let mut callbacks =
        vec![format!("http://{addr}/oauth/callback"), format!("http://localhost:{}/oauth/callback", addr.port())];
    callbacks.extend(options.public_urls.iter().map(|u| format!("{}/oauth/callback", u.trim_end_matches('/'))));
    let (app_row, web_app_id) = accounts::ensure_application(&db, WEB_APP_NAME, None).await?;
    accounts::set_redirect_uris(&db, app_row, &callbacks).await?;
    if options.demo {
        demo::fill_if_empty(&db).await?;
    }
    let state = AppState {
        db,
        limits: Arc::new(Limits {
            per_token: Arc::new(RateLimiter::new(options.token_requests_per_minute, Duration::from_secs(60))),
            sign_in: sign_in::SignInGuard::new(
                options.sign_in_failures,
                options.sign_in_window,
                options.sign_in_parallel,
            ),
            trusted_proxies: options.trusted_proxies.clone(),
        }),
        write_lock: Arc::new(Mutex::new(())),
        web_app_id: web_app_id.into(),
        callers: Arc::new(extractor::CallerCache::default()),
        reads: Arc::new(read_cache::ReadCache::new(options.read_cache_bytes)),
        refreshes: Arc::new(tokens::RecentRefreshes::new(options.refresh_grace)),
        keyed: Arc::default(),
        activity_check_seconds: options.live.filter(|_| options.demo).map(|_| 30),
        requests: match &options.request_log {
            Some(path) => Some(Arc::new(request_log::RequestLog::open(path)?)),
            None => None,
        },
    };
    let app = router(state.clone(), &options);
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(connections::serve(listener, app, options.timeouts, stopped));
    let live = options
        .live
        .filter(|_| options.demo)
        .map(|every| tokio::spawn(live::run(state.clone(), app_row, every, live::MAX_ACTS)));
    Ok(Running { state, stop, task, live })
}

impl Running {
    /// Finishes in-flight requests (for at most the shutdown timeout, then
    /// cuts them off), closes the database, and returns.
    pub async fn stop(self) -> anyhow::Result<()> {
        if let Some(live) = &self.live {
            live.abort();
        }
        let _ = self.stop.send(());
        self.task.await??;
        self.state.db.close().await;
        Ok(())
    }

    /// Serves until `signals` fires, then stops cleanly.
    pub async fn until(self, signals: ShutdownSignals) -> anyhow::Result<()> {
        signals.recv().await;
        tracing::info!("shutting down");
        self.stop().await
    }
}

/// SIGINT and SIGTERM, listened for from the moment this is made: make it
/// before serving starts, or a signal that arrives in between kills the
/// process instead of stopping it cleanly.
pub struct ShutdownSignals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl ShutdownSignals {
    pub fn listen() -> std::io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Ok(ShutdownSignals {
                interrupt: signal(SignalKind::interrupt())?,
                terminate: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        Ok(ShutdownSignals {})
    }

    async fn recv(mut self) {
        #[cfg(unix)]
        tokio::select! { _ = self.interrupt.recv() => {}, _ = self.terminate.recv() => {} }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
