//! The reference server: builds the router (the interface under `/api/v1`,
//! the app's `config.json`, the static app) and runs it until a shutdown
//! signal. `main.rs` is only the command line around [`start`].

pub mod api;
pub mod error;
pub mod static_app;

use axum::Router;
use std::path::PathBuf;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// What `serve` was asked to do.
#[derive(Clone, Debug, Default)]
pub struct ServeOptions {
    pub db: PathBuf,
    pub static_dir: Option<PathBuf>,
    pub demo: bool,
}

/// The application id under which the served web app signs in.
pub const WEB_APP_ID: &str = "perch-web";

/// Builds the whole router.
pub fn router(options: &ServeOptions) -> Router {
    let app = Router::new()
        .nest("/api/v1", api::router())
        .route("/config.json", axum::routing::get(static_app::client_config));
    match &options.static_dir {
        Some(dir) => app.fallback_service(static_app::service(dir)),
        None => app.fallback(static_app::no_app),
    }
}

/// A running server: stop it, or wait for SIGINT/SIGTERM.
pub struct Running {
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

/// Starts serving on `listener` in the background.
pub async fn start(listener: TcpListener, options: ServeOptions) -> anyhow::Result<Running> {
    if let Some(dir) = &options.static_dir {
        anyhow::ensure!(dir.join("index.html").is_file(), "--static {}: no index.html there (run trunk build first)", dir.display());
    }
    let app = router(&options);
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(Running { stop, task })
}

impl Running {
    /// Finishes in-flight requests and returns.
    pub async fn stop(self) -> anyhow::Result<()> {
        let _ = self.stop.send(());
        self.task.await??;
        Ok(())
    }

    /// Serves until SIGINT or SIGTERM, then stops cleanly.
    pub async fn until_signal(self) -> anyhow::Result<()> {
        shutdown_signal().await;
        tracing::info!("shutting down");
        self.stop().await
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}
