//! Accepting connections, with the limits axum's `serve` leaves off: a
//! client must send a request's headers within `header_read`, an idle
//! keep-alive connection is closed after that too, a request body must keep
//! arriving (`body` between pieces), and stopping waits for requests under
//! way at most `shutdown` before closing what is still open. Without them a
//! client trickling header bytes held a connection for ever, and a slow
//! request kept a stopped server from exiting.

use axum::extract::connect_info::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinSet;
use tower::ServiceExt;

/// How long a connection may take, and how long stopping may.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// To send a request's headers; also how long a connection may sit idle.
    pub header_read: Duration,
    /// Between two pieces of a request body.
    pub body: Duration,
    /// For requests under way to finish once the server is stopping.
    pub shutdown: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            header_read: Duration::from_secs(10),
            body: Duration::from_secs(30),
            shutdown: Duration::from_secs(10),
        }
    }
}

/// Serves `app` on `listener` until `stop` fires, then stops as described
/// above.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    timeouts: Timeouts,
    stop: oneshot::Receiver<()>,
) -> std::io::Result<()> {
    let app = app.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(timeouts.body));
    let mut builder = Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(timeouts.header_read);
    builder.http2().timer(TokioTimer::new()).keep_alive_interval(Some(timeouts.header_read));
    let graceful = GracefulShutdown::new();
    let mut open = JoinSet::new();
    tokio::pin!(stop);
    loop {
        // Finished connections leave the set as they end.
        while open.try_join_next().is_some() {}
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, say: wait a moment, go on.
                    tracing::warn!("accepting a connection failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            app.clone().oneshot(req.map(axum::body::Body::new))
        });
        let (builder, watcher, header_read) = (builder.clone(), graceful.watcher(), timeouts.header_read);
        open.spawn(async move {
            // hyper times the headers from their first byte: a client that
            // sends nothing at all is timed here.
            let mut first = [0u8; 1];
            match tokio::time::timeout(header_read, stream.peek(&mut first)).await {
                Ok(Ok(n)) if n > 0 => {}
                _ => return,
            }
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
            let _ = watcher.watch(connection).await;
        });
    }
    drop(listener);
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(timeouts.shutdown) => {
            tracing::warn!("requests still under way after {:?} are cut off", timeouts.shutdown);
        }
    }
    open.abort_all();
    while open.join_next().await.is_some() {}
    Ok(())
}
