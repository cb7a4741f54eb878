//! Serving the built web app: its files (the `.br`/`.gz` beside them when
//! the browser takes one), the fallback to `index.html` for client routes
//! (`/post/…`, `/user/@…`), cache headers, `config.json` and `robots.txt`.

use axum::http::{header, HeaderValue, Request};
use axum::response::{IntoResponse, Response};
use axum::Json;
use perch_model::ClientConfig;
use std::path::Path;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

/// The app's `config.json`: the interface on this same server, so a relative
/// base works whatever name the browser used to reach us.
pub async fn client_config(axum::extract::State(state): axum::extract::State<crate::state::AppState>) -> Response {
    let config = ClientConfig {
        api_base: "/api/v1".into(),
        application_id: state.web_app_id.to_string(),
        local_copy_posts: None,
        store_posts: None,
        activity_check_seconds: state.activity_check_seconds,
    };
    ([(header::CACHE_CONTROL, "no-cache")], Json(config)).into_response()
}

/// Trunk names its outputs `name-<hash>.ext`, and the split build puts the
/// wasm and its JS in a folder `pkg-<hash>/` (xtask): those never change and
/// may be cached for a year; everything else (index.html above all) is
/// revalidated. The hash is a 64-bit number in hex without leading zeros:
/// usually 16 digits, 15 one time in 16, fewer rarely.
fn cache_control<B>(req: &Request<B>) -> Option<HeaderValue> {
    let mut segments = req.uri().path().rsplit('/');
    let name = segments.next().unwrap_or("");
    let folder = segments.next().unwrap_or("");
    let hashed = is_hashed(name) || (!name.is_empty() && folder.starts_with("pkg-") && is_hashed(folder));
    Some(HeaderValue::from_static(if hashed { "public, max-age=31536000, immutable" } else { "no-cache" }))
}

fn is_hashed(file_name: &str) -> bool {
    let stem = file_name.split('.').next().unwrap_or("");
    stem.split(['-', '_']).skip(1).any(|part| part.len() >= 12 && part.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The bodies of the inline `<script>` elements of a page (those without `src`).
fn inline_scripts(html: &str) -> Vec<&str> {
    let mut scripts = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let after = &rest[start..];
        let Some(tag_end) = after.find('>') else { break };
        let tag = &after[..tag_end];
        let body_start = &after[tag_end + 1..];
        let Some(close) = body_start.find("</script>") else { break };
        if !tag.contains("src=") {
            scripts.push(&body_start[..close]);
        }
        rest = &body_start[close..];
    }
    scripts
}

/// The Content-Security-Policy for the app: scripts only from this origin
/// and the inline loader trunk wrote (by hash), wasm compilation, styles
/// from this origin, avatars from any https host, API calls to this origin
/// and `connect_to`.
pub fn content_security_policy(index_html: &str, connect_to: &[String]) -> String {
    use base64::Engine;
    use sha2::Digest;
    let hashes: String = inline_scripts(index_html)
        .into_iter()
        .map(|body| {
            format!(
                " 'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(body.as_bytes()))
            )
        })
        .collect();
    let connect: String = connect_to.iter().map(|o| format!(" {}", o.trim_end_matches('/'))).collect();
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{hashes}; style-src 'self'; img-src 'self' https: data:; \
         connect-src 'self'{connect}; font-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// What crawlers may fetch: the app's pages, not the API or sign-in. Served
/// when `--static` has no `robots.txt` of its own, and without an app.
pub const ROBOTS_TXT: &str = "User-agent: *\nDisallow: /api/\nDisallow: /oauth/\nAllow: /\n";

pub async fn robots_txt() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], ROBOTS_TXT)
}

/// The files of `dir`, each from its `.br` or `.gz` twin when the release
/// build wrote one (`scripts/precompress.sh`) and the browser accepts it, so
/// nothing is compressed per request at a low quality; unknown paths get
/// `index.html`, for the app's own routes.
pub fn service(dir: &Path) -> axum::routing::MethodRouter {
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap_or_default();
    let csp = HeaderValue::from_str(&content_security_policy(&index, &[]))
        .unwrap_or(HeaderValue::from_static("default-src 'self'"));
    let files = ServeDir::new(dir)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(ServeFile::new(dir.join("index.html")).precompressed_br().precompressed_gzip());
    axum::routing::get_service(files).layer(CompressionLayer::new()).layer(axum::middleware::from_fn(
        move |mut req: Request<axum::body::Body>, next: axum::middleware::Next| {
            let csp = csp.clone();
            async move {
                // A segment no file name can be (over 255 bytes) is no file:
                // the app routes it. Asked of the file system, it was a 500.
                if req.uri().path().split('/').any(|segment| segment.len() > 255) {
                    *req.uri_mut() = axum::http::Uri::from_static("/");
                }
                let mut res = with_cache_control(req, next).await;
                res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, csp);
                res.headers_mut().insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
                // Every file may come in another encoding: caches keep one copy per encoding.
                if !res.headers().contains_key(header::VARY) {
                    res.headers_mut().insert(header::VARY, HeaderValue::from_static("accept-encoding"));
                }
                res
            }
        },
    ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunk_hashes_of_any_usual_length_are_recognised() {
        for name in [
            "perch-1ad3264c28128de7_bg.wasm",
            "perch-190ac5f8137d4f8.js",
            "main-aeef93900339ceb1.css",
            "perch-1ba3e6c7bb339b1_bg.wasm.br",
        ] {
            assert!(is_hashed(name), "{name}");
        }
        for name in ["index.html", "config.json", "robots.txt", "icon.svg", "deadbeefcafe0000.js", "perch-abc.js"] {
            assert!(!is_hashed(name), "{name}");
        }
    }

    #[test]
    fn a_file_in_a_hashed_package_folder_is_kept_a_year() {
        let control = |path: &str| {
            let req = Request::builder().uri(path).body(()).unwrap();
            cache_control(&req).unwrap().to_str().unwrap().to_owned()
        };
        for path in ["/pkg-0123456789abcdef/chunk_7.wasm", "/app/pkg-123456789abcdef/__wasm_split.js"] {
            assert!(control(path).contains("immutable"), "{path}");
        }
        for path in ["/pkg-0123456789abcdef/", "/pkg-notahash/perch.js", "/locales/en.json"] {
            assert_eq!(control(path), "no-cache", "{path}");
        }
    }

    #[test]
    fn the_policy_allows_exactly_the_inline_loader() {
        let html = r#"<head><script type=module>import init from"/a.js";await init();</script><script src="/b.js"></script></head>"#;
        let csp = content_security_policy(html, &["https://api.example/".into()]);
        // sha256 of `import init from"/a.js";await init();`
        use base64::Engine;
        use sha2::Digest;
        let expected = base64::engine::general_purpose::STANDARD
            .encode(sha2::Sha256::digest(br#"import init from"/a.js";await init();"#));
        assert!(csp.contains(&format!("script-src 'self' 'wasm-unsafe-eval' 'sha256-{expected}';")), "{csp}");
        assert_eq!(csp.matches("sha256-").count(), 1, "the script with src is not hashed");
        assert!(csp.contains("connect-src 'self' https://api.example;"));
        assert!(csp.contains("worker-src 'self';") && csp.contains("manifest-src 'self';"), "{csp}");
        assert!(!csp.contains("unsafe-inline"));
    }
}
