//! The harness of the server tests: a real perch-server on a loopback port
//! with a temporary database, users and tokens made through the same code
//! the command line uses, and a small JSON client.
#![allow(dead_code)]

pub mod flow;

use perch_model::Scope;
use perch_server::{accounts, start, Running, ServeOptions};
use serde_json::Value;

pub struct Server {
    pub base: String,
    pub options: ServeOptions,
    running: Option<Running>,
    pub dir: tempfile::TempDir,
}

impl Server {
    pub async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    pub async fn start_with(configure: impl FnOnce(&mut ServeOptions)) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut options = ServeOptions { db: dir.path().join("perch.db"), ..ServeOptions::default() };
        configure(&mut options);
        let (base, running) = Self::launch(&options).await;
        Server { base, options, running: Some(running), dir }
    }

    async fn launch(options: &ServeOptions) -> (String, Running) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        (base, start(listener, options.clone()).await.unwrap())
    }

    pub fn db(&self) -> &perch_server::db::Db {
        &self.running.as_ref().unwrap().state.db
    }

    /// The sign-in attempts counted now (keys of the failure limits).
    pub fn sign_in_keys(&self) -> usize {
        self.running.as_ref().unwrap().state.limits.sign_in.counted()
    }

    /// The password checks the sign-in page has run.
    pub fn password_checks(&self) -> u64 {
        self.running.as_ref().unwrap().state.limits.sign_in.checked()
    }

    /// The bytes the read cache holds now.
    pub fn read_cache_bytes(&self) -> usize {
        self.running.as_ref().unwrap().state.reads.bytes()
    }

    /// Stops the server cleanly and starts a new one on the same database.
    pub async fn restart(&mut self) {
        self.running.take().unwrap().stop().await.unwrap();
        let (base, running) = Self::launch(&self.options).await;
        self.base = base;
        self.running = Some(running);
    }

    pub async fn stop(mut self) {
        self.running.take().unwrap().stop().await.unwrap();
    }

    /// Creates a user with password `pw-<name>`; returns its uuid.
    pub async fn user(&self, name: &str) -> String {
        let new = accounts::NewUser {
            username: name.into(),
            display_name: Some(format!("{name} display")),
            email: Some(format!("{name}@example.org")),
            password: Some(format!("pw-{name}")),
            ..Default::default()
        };
        accounts::add_user(self.db(), new).await.unwrap().1
    }

    pub async fn token(&self, name: &str, scopes: &[Scope]) -> String {
        accounts::cli_token(self.db(), name, scopes, 3_600_000).await.unwrap()
    }

    pub async fn expired_token(&self, name: &str) -> String {
        accounts::cli_token(self.db(), name, &Scope::ALL, -1).await.unwrap()
    }

    /// A client for `name` holding every scope.
    pub async fn client(&self, name: &str) -> Api {
        self.client_with(name, &Scope::ALL).await
    }

    pub async fn client_with(&self, name: &str, scopes: &[Scope]) -> Api {
        Api::new(&self.base, Some(self.token(name, scopes).await))
    }

    pub fn anonymous(&self) -> Api {
        Api::new(&self.base, None)
    }
}

/// Every scope but `without`.
pub fn all_but(without: Scope) -> Vec<Scope> {
    Scope::ALL.into_iter().filter(|s| *s != without).collect()
}

#[derive(Clone)]
pub struct Api {
    http: reqwest::Client,
    pub base: String,
    pub token: Option<String>,
}

/// A status and the JSON body (Null when the body is not JSON).
pub type Answer = (u16, Value);

impl Api {
    pub fn new(base: &str, token: Option<String>) -> Self {
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        Api { http, base: base.to_owned(), token }
    }

    /// `method path` with the token, and `body` as JSON when given.
    fn request(&self, method: &str, path: &str, body: Option<Value>) -> reqwest::RequestBuilder {
        let mut req = self.http.request(method.parse().unwrap(), format!("{}/api/v1{path}", self.base));
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        req
    }

    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Answer {
        let res = self.request(method, path, body).send().await.unwrap();
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn raw(&self, method: &str, path: &str, body: &'static [u8]) -> Answer {
        let mut req = self.http.request(method.parse().unwrap(), format!("{}/api/v1{path}", self.base)).body(body);
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        let res = req.header("content-type", "application/json").send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    /// A write with an `Idempotency-Key`: the status, the JSON body and
    /// whether the answer was given again (`Idempotent-Replayed`).
    pub async fn keyed(&self, method: &str, path: &str, body: Option<Value>, key: &str) -> (u16, Value, bool) {
        let res = self.request(method, path, body).header("idempotency-key", key).send().await.unwrap();
        let status = res.status().as_u16();
        let replayed = res.headers().get("idempotent-replayed").is_some_and(|v| v == "true");
        let text = res.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null), replayed)
    }

    /// [`Api::keyed`] by a client that gives up after `wait` and drops the
    /// connection: `None` when it gave up before an answer came.
    pub async fn keyed_impatient(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
        key: &str,
        wait: std::time::Duration,
    ) -> Option<u16> {
        let req = self.request(method, path, body).header("idempotency-key", key).timeout(wait);
        req.send().await.ok().map(|res| res.status().as_u16())
    }

    /// A GET with `If-None-Match: tag` when given: the status, the answer's
    /// `ETag` and the body as text (empty on a 304).
    pub async fn get_if(&self, path: &str, tag: Option<&str>) -> (u16, Option<String>, String) {
        let mut req = self.request("GET", path, None);
        if let Some(tag) = tag {
            req = req.header("if-none-match", tag);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        let etag = res.headers().get("etag").map(|v| v.to_str().unwrap().to_owned());
        (status, etag, res.text().await.unwrap())
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.call("GET", path, None).await
    }
    pub async fn post(&self, path: &str, body: Value) -> Answer {
        self.call("POST", path, Some(body)).await
    }
    pub async fn post_empty(&self, path: &str) -> Answer {
        self.call("POST", path, None).await
    }
    pub async fn patch(&self, path: &str, body: Value) -> Answer {
        self.call("PATCH", path, Some(body)).await
    }
    pub async fn delete(&self, path: &str) -> Answer {
        self.call("DELETE", path, None).await
    }

    /// Sends a post (or a reply to `parent`) and returns its uuid; panics unless 200.
    pub async fn send(&self, content: &str, parent: Option<&str>) -> String {
        let mut body = serde_json::json!({ "content": content });
        if let Some(p) = parent {
            body["parent"] = p.into();
        }
        let (status, post) = self.post("/post", body).await;
        assert_eq!(status, 200, "{post}");
        post["uuid"].as_str().unwrap().to_owned()
    }
}

/// Asserts an error answer: the status, and the body `{code: status, _message: non-empty}`.
#[track_caller]
pub fn assert_error(answer: &Answer, status: u16) {
    assert_eq!(answer.0, status, "{}", answer.1);
    assert_eq!(answer.1["code"], status, "error body: {}", answer.1);
    assert!(answer.1["_message"].as_str().is_some_and(|m| !m.is_empty()), "error body: {}", answer.1);
}
