//! The server as a browser and the harness see it: ping, the app's files with
//! client routes falling back to index.html, config.json, and API errors in
//! the contract's body. Runs the real server on a loopback port.

use perch_model::{ClientConfig, ErrorBody, Ping};
use perch_server::{start, Running, ServeOptions};
use std::path::Path;

struct Harness {
    base: String,
    server: Running,
    _dir: tempfile::TempDir,
}

async fn serve_app() -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("dist");
    std::fs::create_dir(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><title>Perch</title>").unwrap();
    std::fs::write(dist.join("perch-0123456789abcdef_bg.wasm"), b"\0asm").unwrap();
    let options = ServeOptions { db: dir.path().join("perch.db"), static_dir: Some(dist), ..ServeOptions::default() };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = start(listener, options).await.unwrap();
    Harness { base, server, _dir: dir }
}

#[tokio::test]
async fn ping_answers_pong_without_a_token() {
    let h = serve_app().await;
    let res = reqwest::get(format!("{}/api/v1/ping", h.base)).await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Ping>().await.unwrap(), Ping { ping: "pong".into() });
    h.server.stop().await.unwrap();
}

#[tokio::test]
async fn client_routes_fall_back_to_the_app_and_files_are_served() {
    let h = serve_app().await;
    // Any address a link can hold is the app's to route, the odd ones too:
    // a segment longer than a file name may be (the file system refused it
    // with 500), dot segments, encoded slashes.
    let long = format!("/post/{}", "x".repeat(5000));
    let deep = "/a".repeat(1000);
    for path in [
        "/",
        "/post/abc",
        "/user/@ada",
        "/user/@ada/followers",
        "/oauth/callback?code=x",
        "/no/such/page",
        &long,
        &deep,
        "/%2e%2e/%2e%2e/etc/passwd",
        "/post/%00",
        "/user/@%F0%9F%90%A6",
    ] {
        let res = reqwest::get(format!("{}{path}", h.base)).await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(res.headers()["cache-control"], "no-cache", "{path}: the page must be revalidated");
        assert!(res.text().await.unwrap().contains("<title>Perch</title>"), "{path}");
    }
    let wasm = reqwest::get(format!("{}/perch-0123456789abcdef_bg.wasm", h.base)).await.unwrap();
    assert_eq!(wasm.status(), 200);
    assert_eq!(wasm.headers()["cache-control"], "public, max-age=31536000, immutable", "hashed files are cached");
    assert_eq!(wasm.bytes().await.unwrap().as_ref(), b"\0asm");
    h.server.stop().await.unwrap();
}

#[tokio::test]
async fn config_json_points_the_app_at_this_server() {
    let h = serve_app().await;
    let config: ClientConfig = reqwest::get(format!("{}/config.json", h.base)).await.unwrap().json().await.unwrap();
    assert_eq!(config.check(), Ok(()));
    assert_eq!(config.base(), "/api/v1");
    let ping = reqwest::get(format!("{}{}/ping", h.base, config.base())).await.unwrap();
    assert_eq!(ping.status(), 200);
    h.server.stop().await.unwrap();
}

#[tokio::test]
async fn unknown_api_paths_are_404_with_the_error_body_not_the_app() {
    let h = serve_app().await;
    let res = reqwest::get(format!("{}/api/v1/nothing/here", h.base)).await.unwrap();
    assert_eq!(res.status(), 404);
    let body: ErrorBody = res.json().await.unwrap();
    assert_eq!(body.code, 404);
    assert!(!body.message.is_empty());
    h.server.stop().await.unwrap();
}

#[tokio::test]
async fn refuses_a_static_folder_without_an_app() {
    let dir = tempfile::tempdir().unwrap();
    let options =
        ServeOptions { db: dir.path().join("db"), static_dir: Some(dir.path().to_owned()), ..ServeOptions::default() };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let err = start(listener, options).await.err().expect("no index.html: refused");
    assert!(err.to_string().contains("index.html"), "{err}");
    assert!(!Path::new(&dir.path().join("index.html")).exists());
}

#[tokio::test]
async fn the_app_is_compressed_for_browsers_that_accept_it() {
    let h = serve_app().await;
    let dist = h._dir.path().join("dist");
    std::fs::write(dist.join("perch-fedcba9876543210.js"), "console.log('perch');\n".repeat(200)).unwrap();
    let http = reqwest::Client::new();
    for (accept, expected) in [("br", "br"), ("gzip", "gzip")] {
        let res = http
            .get(format!("{}/perch-fedcba9876543210.js", h.base))
            .header("accept-encoding", accept)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers().get("content-encoding").map(|v| v.to_str().unwrap()), Some(expected), "{accept}");
    }
    let plain = http.get(format!("{}/perch-fedcba9876543210.js", h.base)).send().await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.text().await.unwrap().len(), 22 * 200);
    h.server.stop().await.unwrap();
}

#[tokio::test]
async fn cors_allows_only_the_configured_origins() {
    let dir = tempfile::tempdir().unwrap();
    let options = ServeOptions {
        db: dir.path().join("perch.db"),
        allow_origins: vec!["https://perch.example".into()],
        ..ServeOptions::default()
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = start(listener, options).await.unwrap();
    let http = reqwest::Client::new();
    let preflight = |origin: &'static str| {
        http.request(reqwest::Method::OPTIONS, format!("{base}/api/v1/post"))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "authorization,content-type")
            .send()
    };
    let allowed = preflight("https://perch.example").await.unwrap();
    assert_eq!(allowed.headers()["access-control-allow-origin"], "https://perch.example");
    let methods = allowed.headers()["access-control-allow-methods"].to_str().unwrap().to_owned();
    for m in ["GET", "POST", "PATCH", "DELETE"] {
        assert!(methods.contains(m), "{methods}");
    }
    let other = preflight("https://elsewhere.example").await.unwrap();
    assert!(other.headers().get("access-control-allow-origin").is_none());
    server.stop().await.unwrap();
}

#[tokio::test]
async fn the_app_is_served_with_a_content_security_policy() {
    let h = serve_app().await;
    for path in ["/", "/post/abc", "/perch-0123456789abcdef_bg.wasm"] {
        let res = reqwest::get(format!("{}{path}", h.base)).await.unwrap();
        let csp = res.headers()["content-security-policy"].to_str().unwrap().to_owned();
        assert!(csp.contains("script-src 'self' 'wasm-unsafe-eval'"), "{path}: {csp}");
        assert!(csp.contains("object-src 'none'") && csp.contains("frame-ancestors 'none'"));
        assert!(!csp.contains("unsafe-inline"));
        assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    }
    h.server.stop().await.unwrap();
}

#[tokio::test]
async fn every_answer_says_nosniff_and_no_referrer_and_personal_ones_are_never_stored() {
    let h = serve_app().await;
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let personal = [
        ("GET", "/api/v1/ping"),
        ("GET", "/api/v1/user"),
        ("GET", "/api/v1/no/such/path"),
        ("GET", "/api/v1/openapi.json"),
        ("POST", "/api/oauth/code"),
        ("POST", "/api/oauth/refreshtoken"),
        ("GET", "/oauth/authorise"),
        ("POST", "/oauth/authorise"),
    ];
    let public = ["/config.json", "/", "/post/abc", "/perch-0123456789abcdef_bg.wasm"];
    let all = personal.iter().copied().chain(public.iter().map(|p| ("GET", *p)));
    for (method, path) in all {
        let res = http.request(method.parse().unwrap(), format!("{}{path}", h.base)).send().await.unwrap();
        let header = |name: &str| res.headers().get(name).map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(header("x-content-type-options").as_deref(), Some("nosniff"), "{method} {path}");
        assert_eq!(header("referrer-policy").as_deref(), Some("no-referrer"), "{method} {path}");
        if personal.contains(&(method, path)) {
            assert_eq!(header("cache-control").as_deref(), Some("no-store"), "{method} {path} ({})", res.status());
        } else {
            assert_ne!(header("cache-control").as_deref(), Some("no-store"), "{path} may be cached");
        }
    }
    h.server.stop().await.unwrap();
}

#[tokio::test]
async fn precompressed_files_are_sent_as_they_are_with_vary() {
    let h = serve_app().await;
    let dist = h._dir.path().join("dist");
    // Marker bodies, not real compressed data: what is on disk is sent unchanged.
    std::fs::write(dist.join("perch-0123456789abcdef_bg.wasm.br"), b"brotli twin").unwrap();
    std::fs::write(dist.join("perch-0123456789abcdef_bg.wasm.gz"), b"gzip twin").unwrap();
    std::fs::write(dist.join("index.html.br"), b"brotli page").unwrap();
    let http = reqwest::Client::new();
    let get = |path: &str, accept: &'static str| {
        http.get(format!("{}{path}", h.base)).header("accept-encoding", accept).send()
    };
    for (accept, encoding, body) in [
        ("gzip, deflate, br", Some("br"), "brotli twin"),
        ("gzip", Some("gzip"), "gzip twin"),
        ("identity", None, "\0asm"),
    ] {
        let res = get("/perch-0123456789abcdef_bg.wasm", accept).await.unwrap();
        assert_eq!(res.status(), 200, "{accept}");
        assert_eq!(res.headers().get("content-encoding").map(|v| v.to_str().unwrap()), encoding, "{accept}");
        assert_eq!(res.headers()["content-type"], "application/wasm", "{accept}: the type of the file, not of .br");
        assert!(res.headers()["vary"].to_str().unwrap().to_ascii_lowercase().contains("accept-encoding"), "{accept}");
        assert_eq!(res.headers()["cache-control"], "public, max-age=31536000, immutable");
        assert_eq!(res.bytes().await.unwrap().as_ref(), body.as_bytes(), "{accept}");
    }
    // A client route gets the compressed page too, revalidated every time.
    let page = get("/post/abc", "br").await.unwrap();
    assert_eq!(page.headers()["content-encoding"], "br");
    assert_eq!(page.headers()["cache-control"], "no-cache");
    assert_eq!(page.bytes().await.unwrap().as_ref(), b"brotli page");
    h.server.stop().await.unwrap();
}

#[tokio::test]
async fn robots_txt_is_a_robots_file_not_the_app() {
    let h = serve_app().await;
    let res = reqwest::get(format!("{}/robots.txt", h.base)).await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    let text = res.text().await.unwrap();
    assert!(text.starts_with("User-agent: *\n"), "{text}");
    assert!(text.contains("Disallow: /api/\n") && !text.contains("<"), "{text}");
    h.server.stop().await.unwrap();

    // A robots.txt in the app's folder wins over the built-in one.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<title>Perch</title>").unwrap();
    std::fs::write(dir.path().join("robots.txt"), "User-agent: *\nDisallow: /\n").unwrap();
    let options =
        ServeOptions { db: dir.path().join("db"), static_dir: Some(dir.path().to_owned()), ..ServeOptions::default() };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = start(listener, options).await.unwrap();
    assert_eq!(
        reqwest::get(format!("{base}/robots.txt")).await.unwrap().text().await.unwrap(),
        "User-agent: *\nDisallow: /\n"
    );
    server.stop().await.unwrap();
}
