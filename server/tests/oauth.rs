//! The OAuth code flow with PKCE and state, through the real consent page.

mod common;

use common::{assert_error, Api, Server};
use perch_model::{Scope, TokenSet};
use perch_server::tokens::pkce_challenge;
use serde_json::json;

struct Flow {
    http: reqwest::Client,
    base: String,
    app_id: String,
    redirect_uri: String,
}

const VERIFIER: &str = "a-verifier-of-at-least-forty-three-characters-0123456789";

impl Flow {
    async fn new(server: &Server) -> Flow {
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let config: serde_json::Value =
            http.get(format!("{}/config.json", server.base)).send().await.unwrap().json().await.unwrap();
        Flow {
            http,
            base: server.base.clone(),
            app_id: config["application_id"].as_str().unwrap().to_owned(),
            redirect_uri: format!("{}/oauth/callback", server.base),
        }
    }

    fn query(&self, redirect_uri: &str, scopes: &str) -> Vec<(&'static str, String)> {
        vec![
            ("application_id", self.app_id.clone()),
            ("redirect_uri", redirect_uri.to_owned()),
            ("scopes", scopes.to_owned()),
            ("state", "st4te".to_owned()),
            ("code_challenge", pkce_challenge(VERIFIER)),
            ("code_challenge_method", "S256".to_owned()),
        ]
    }

    async fn page(&self, query: &[(&str, String)]) -> (u16, String) {
        let res = self.http.get(format!("{}/oauth/authorise", self.base)).query(query).send().await.unwrap();
        (res.status().as_u16(), res.text().await.unwrap())
    }

    /// Submits the consent form; returns the status and the Location header.
    async fn submit(
        &self,
        query: &[(&str, String)],
        user: &str,
        password: &str,
        ticked: &[&str],
        action: &str,
    ) -> (u16, String, String) {
        self.submit_from(None, query, user, password, ticked, action).await
    }

    /// `submit` through a proxy that says the client is `forwarded_for`.
    async fn submit_from(
        &self,
        forwarded_for: Option<&str>,
        query: &[(&str, String)],
        user: &str,
        password: &str,
        ticked: &[&str],
        action: &str,
    ) -> (u16, String, String) {
        let mut form: Vec<(String, String)> = query.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        form.push(("username".into(), user.into()));
        form.push(("password".into(), password.into()));
        form.extend(ticked.iter().map(|s| ("scope".to_string(), s.to_string())));
        form.push(("action".into(), action.into()));
        let mut req = self.http.post(format!("{}/oauth/authorise", self.base)).form(&form);
        if let Some(client) = forwarded_for {
            req = req.header("x-forwarded-for", client);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        let location = res.headers().get("location").map(|l| l.to_str().unwrap().to_owned()).unwrap_or_default();
        (status, location, res.text().await.unwrap())
    }

    async fn exchange(&self, code: &str, verifier: &str) -> (u16, serde_json::Value) {
        let res = self
            .http
            .post(format!("{}/api/oauth/code", self.base))
            .json(&json!({"code": code, "code_verifier": verifier}))
            .send()
            .await
            .unwrap();
        (res.status().as_u16(), res.json().await.unwrap())
    }

    async fn refresh(&self, refresh_token: &str) -> (u16, serde_json::Value) {
        let res = self
            .http
            .post(format!("{}/api/oauth/refreshtoken", self.base))
            .json(&json!({"refreshToken": refresh_token}))
            .send()
            .await
            .unwrap();
        (res.status().as_u16(), res.json().await.unwrap())
    }

    /// Signs in as ada with these scopes ticked and returns the code.
    async fn code(&self, requested: &str, ticked: &[&str]) -> String {
        let (status, location, _) =
            self.submit(&self.query(&self.redirect_uri, requested), "ada", "pw-ada", ticked, "allow").await;
        assert_eq!(status, 303, "{location}");
        param(&location, "code").expect("a code")
    }
}

fn param(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    serde_urlencoded::from_str::<Vec<(String, String)>>(query)
        .ok()?
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

#[tokio::test]
async fn the_whole_flow_through_the_consent_page_with_pkce() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let requested = "post.get,post.send,user.get,user.email";
    let (status, html) = flow.page(&flow.query(&flow.redirect_uri, requested)).await;
    assert_eq!(status, 200);
    for scope in requested.split(',') {
        assert!(html.contains(&format!("value=\"{scope}\" checked")), "{scope} ticked by default");
    }
    assert!(html.contains("name=\"password\""));

    // The person unticks user.email.
    let (status, location, _) = flow
        .submit(
            &flow.query(&flow.redirect_uri, requested),
            "ada",
            "pw-ada",
            &["post.get", "post.send", "user.get"],
            "allow",
        )
        .await;
    assert_eq!(status, 303);
    assert!(location.starts_with(&flow.redirect_uri), "{location}");
    assert_eq!(param(&location, "state").as_deref(), Some("st4te"));
    let code = param(&location, "code").unwrap();

    let (status, body) = flow.exchange(&code, VERIFIER).await;
    assert_eq!(status, 200, "{body}");
    let tokens: TokenSet = serde_json::from_value(body).unwrap();
    assert_eq!(tokens.scopes, vec![Scope::PostGet, Scope::PostSend, Scope::UserGet]);
    let week = tokens.token_expires_at.0 - perch_server::db::now_ms();
    assert!((7 * 86_400_000 - 60_000..=7 * 86_400_000).contains(&week), "7 days");
    let month = tokens.refresh_token_expires_at.0 - perch_server::db::now_ms();
    assert!((30 * 86_400_000 - 60_000..=30 * 86_400_000).contains(&month), "30 days");

    let api = Api::new(&server.base, Some(tokens.token.clone()));
    let (status, me) = api.get("/user").await;
    assert_eq!(status, 200);
    assert_eq!(me["username"], "ada");
    assert!(me["email"].is_null(), "user.email was unticked");
    let (status, post) = api.post("/post", json!({"content": "signed in through OAuth"})).await;
    assert_eq!(status, 200);
    assert_eq!(post["from"]["name"], "Perch", "posts say which application sent them");
    assert_error(&api.post_empty(&format!("/post/{}/like", post["uuid"].as_str().unwrap())).await, 403);

    // The code works once.
    assert_error(&flow.exchange(&code, VERIFIER).await, 400);
}

#[tokio::test]
async fn a_wrong_verifier_is_refused_and_burns_nothing() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let code = flow.code("user.get", &["user.get"]).await;
    assert_error(&flow.exchange(&code, "another-verifier-of-forty-three-characters-000000").await, 400);
    assert_eq!(flow.exchange(&code, VERIFIER).await.0, 200, "the right verifier still works");
}

#[tokio::test]
async fn a_foreign_redirect_uri_gets_an_error_page_and_no_redirect() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let evil = "https://evil.example/oauth/callback";
    let (status, html) = flow.page(&flow.query(evil, "user.get")).await;
    assert_eq!(status, 400);
    assert!(html.contains("not registered"), "{html}");
    let (status, location, _) =
        flow.submit(&flow.query(evil, "user.get"), "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 400);
    assert_eq!(location, "", "never redirected to an unregistered address");
    // Unknown application, missing PKCE, unknown scope.
    let mut unknown_app = flow.query(&flow.redirect_uri, "user.get");
    unknown_app[0].1 = "no-such-app".into();
    assert_eq!(flow.page(&unknown_app).await.0, 400);
    let mut plain = flow.query(&flow.redirect_uri, "user.get");
    plain[5].1 = "plain".into();
    assert_eq!(flow.page(&plain).await.0, 400);
    assert_eq!(flow.page(&flow.query(&flow.redirect_uri, "user.get,admin.all")).await.0, 400);
}

#[tokio::test]
async fn registered_redirect_uris_are_exactly_what_serve_was_told() {
    let mut server =
        Server::start_with(|o| o.public_urls = vec!["https://old.example".into(), "https://kept.example/".into()])
            .await;
    server.user("ada").await;
    server.options.public_urls = vec!["https://kept.example".into()];
    server.restart().await;
    let flow = Flow::new(&server).await;
    let (status, html) = flow.page(&flow.query("https://old.example/oauth/callback", "user.get")).await;
    assert_eq!(status, 400, "a --public-url no longer given is no longer accepted: {html}");
    assert_eq!(flow.page(&flow.query("https://kept.example/oauth/callback", "user.get")).await.0, 200);
    assert_eq!(flow.page(&flow.query(&flow.redirect_uri, "user.get")).await.0, 200, "its own address");
}

#[tokio::test]
async fn the_consent_form_may_post_and_redirect_only_to_its_checked_origin() {
    let server = Server::start_with(|o| o.public_urls = vec!["https://app.example:8443".into()]).await;
    let flow = Flow::new(&server).await;
    let res = flow
        .http
        .get(format!("{}/oauth/authorise", server.base))
        .query(&flow.query("https://app.example:8443/oauth/callback", "user.get"))
        .send()
        .await
        .unwrap();
    let csp = res.headers()["content-security-policy"].to_str().unwrap().to_owned();
    let form_action = csp.split(';').map(str::trim).find(|d| d.starts_with("form-action")).unwrap();
    // Chromium applies form-action to the redirect after the form: the app's origin must be there.
    assert_eq!(form_action, "form-action 'self' https://app.example:8443");
    let (_, html) = flow.page(&flow.query("https://evil.example/oauth/callback", "user.get")).await;
    assert!(!html.contains("<form"), "an unchecked address gets no form");
}

#[tokio::test]
async fn deny_returns_access_denied_with_the_state() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let (status, location, _) = flow.submit(&flow.query(&flow.redirect_uri, "user.get"), "", "", &[], "deny").await;
    assert_eq!(status, 303);
    assert_eq!(param(&location, "error").as_deref(), Some("access_denied"));
    assert_eq!(param(&location, "state").as_deref(), Some("st4te"));
    assert_eq!(param(&location, "code"), None);
}

#[tokio::test]
async fn wrong_passwords_are_refused_then_rate_limited() {
    let server = Server::start_with(|o| o.sign_in_failures = 3).await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let query = flow.query(&flow.redirect_uri, "user.get");
    for _ in 0..3 {
        let (status, location, html) = flow.submit(&query, "ada", "wrong", &["user.get"], "allow").await;
        assert_eq!((status, location.as_str()), (401, ""));
        assert!(html.contains("Wrong username or password."));
        assert!(html.contains("value=\"ada\""), "the username is kept");
    }
    let (status, _, html) = flow.submit(&query, "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 429, "even the right password waits: {html}");
    assert!(html.contains("Too many failed sign-ins"));
}

/// The process's peak resident memory, in MB (Linux).
fn peak_rss_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_wrong_passwords_is_counted_before_hashing_and_bounded() {
    let server = Server::start_with(|o| {
        o.sign_in_window = std::time::Duration::from_secs(3);
        o.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    })
    .await;
    server.user("ada").await;
    let flow = std::sync::Arc::new(Flow::new(&server).await);
    let query = flow.query(&flow.redirect_uri, "user.get");
    let burst = (0..200).map(|i| {
        let (flow, query) = (flow.clone(), query.clone());
        tokio::spawn(async move {
            flow.submit_from(Some("203.0.113.5"), &query, "ada", &format!("wrong-{i}"), &["user.get"], "allow").await.0
        })
    });
    let statuses: Vec<u16> = futures::future::join_all(burst).await.into_iter().map(|r| r.unwrap()).collect();
    let checked = statuses.iter().filter(|s| **s == 401).count();
    assert!(statuses.iter().all(|s| *s == 401 || *s == 429), "{statuses:?}");
    assert!(checked <= 10, "{checked} of 200 parallel wrong passwords were checked; the limit is 10");
    assert!(peak_rss_mb() < 300, "peak RSS {} MB", peak_rss_mb());

    // Someone else, behind the same proxy, signs in to the same account at once.
    let (status, location, _) =
        flow.submit_from(Some("198.51.100.7"), &query, "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 303, "another client is not locked out: {location}");
    // The attacker's address waits for the window, then the right password works.
    let (status, _, _) = flow.submit_from(Some("203.0.113.5"), &query, "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 429);
    tokio::time::sleep(std::time::Duration::from_millis(3100)).await;
    let (status, _, _) = flow.submit_from(Some("203.0.113.5"), &query, "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 303, "the window has passed");
}

#[tokio::test]
async fn failures_are_kept_per_address_and_username() {
    let server = Server::start_with(|o| o.sign_in_failures = 2).await;
    server.user("ada").await;
    server.user("bob").await;
    let flow = Flow::new(&server).await;
    let query = flow.query(&flow.redirect_uri, "user.get");
    for _ in 0..2 {
        assert_eq!(flow.submit(&query, "ada", "wrong", &["user.get"], "allow").await.0, 401);
    }
    assert_eq!(
        flow.submit(&query, "ADA", "pw-ada", &["user.get"], "allow").await.0,
        429,
        "usernames match in any case"
    );
    assert_eq!(
        flow.submit(&query, "bob", "pw-bob", &["user.get"], "allow").await.0,
        303,
        "one attacker cannot lock out every account"
    );
    // Without --trusted-proxy, X-Forwarded-For is the client's word and is ignored.
    let (status, _, _) = flow.submit_from(Some("198.51.100.9"), &query, "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 429, "a forged X-Forwarded-For does not escape the limit");
}

#[tokio::test]
async fn refresh_rotates_and_retires_the_old_refresh_token() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let code = flow.code("user.get,post.get", &["user.get", "post.get"]).await;
    let first: TokenSet = serde_json::from_value(flow.exchange(&code, VERIFIER).await.1).unwrap();
    let (status, body) = flow.refresh(&first.refresh_token).await;
    assert_eq!(status, 200, "{body}");
    let second: TokenSet = serde_json::from_value(body).unwrap();
    assert_ne!(second.token, first.token);
    assert_ne!(second.refresh_token, first.refresh_token);
    assert_eq!(second.scopes, first.scopes);
    assert_eq!(Api::new(&server.base, Some(second.token)).get("/user").await.0, 200);
    assert_error(&flow.refresh(&first.refresh_token).await, 401);
    assert_error(&flow.refresh("made-up").await, 401);
    assert_eq!(flow.refresh(&second.refresh_token).await.0, 200);
}

#[tokio::test]
async fn an_expired_access_token_is_401() {
    let server = Server::start().await;
    server.user("ada").await;
    let api = Api::new(&server.base, Some(server.expired_token("ada").await));
    let answer = api.get("/user").await;
    assert_error(&answer, 401);
    assert!(answer.1["_message"].as_str().unwrap().contains("expired"));
}
