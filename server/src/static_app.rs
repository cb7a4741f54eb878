//! Serving the built web app: its files, the fallback to `index.html` for
//! client routes (`/post/…`, `/user/@…`), cache headers, and `config.json`.

use axum::http::{header, HeaderValue, Request};
use axum::response::{IntoResponse, Response};
use axum::Json;
use perch_model::ClientConfig;
use std::path::Path;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

/// The app's `config.json`: the interface on this same server, so a relative
/// base works whatever name the browser used to reach us.
pub async fn client_config(axum::extract::State(state): axum::extract::State<crate::AppState>) -> Response {
    let config = ClientConfig { api_base: "/api/v1".into(), application_id: state.web_app_id.to_string() };
    ([(header::CACHE_CONTROL, "no-cache")], Json(config)).into_response()
}

/// Trunk names its outputs `name-<hash>.ext`: those never change and may be
/// cached for a year; everything else (index.html above all) is revalidated.
fn cache_control<B>(req: &Request<B>) -> Option<HeaderValue> {
    let name = req.uri().path().rsplit('/').next().unwrap_or("");
    let hashed = name
        .rsplit_once('.')
        .and_then(|(stem, _)| {
            stem.split(['-', '_']).find(|part| part.len() >= 16 && part.chars().all(|c| c.is_ascii_hexdigit()))
        })
        .is_some();
    Some(HeaderValue::from_static(if hashed { "public, max-age=31536000, immutable" } else { "no-cache" }))
}

pub fn service(dir: &Path) -> axum::routing::MethodRouter {
    let files = ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html")));
    axum::routing::get_service(files)
        .layer(CompressionLayer::new())
        .layer(axum::middleware::from_fn(with_cache_control))
}

async fn with_cache_control(req: Request<axum::body::Body>, next: axum::middleware::Next) -> Response {
    let value = cache_control(&req);
    let mut res = next.run(req).await;
    if let Some(v) = value {
        res.headers_mut().insert(header::CACHE_CONTROL, v);
    }
    res
}

/// Without `--static` there is no app to serve: say how to get one.
pub async fn no_app() -> impl IntoResponse {
    (
        axum::http::StatusCode::NOT_FOUND,
        "This perch-server serves only the API under /api/v1. Start it with --static dist to serve the web app.\n",
    )
}
