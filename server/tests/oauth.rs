//! The OAuth code flow with PKCE and state, through the real consent page.

mod common;

use common::flow::{param, Flow, VERIFIER};
use common::{assert_error, Api, Server};
use perch_model::{Scope, TokenSet};
use serde_json::json;

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
async fn the_consent_page_says_in_words_what_each_scope_allows() {
    // The person decides from these words; the scope's name alone says
    // little to most people.
    let server = Server::start().await;
    let flow = Flow::new(&server).await;
    let all = perch_model::Scope::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(",");
    let (status, html) = flow.page(&flow.query(&flow.redirect_uri, &all)).await;
    assert_eq!(status, 200);
    for (words, scope) in [
        ("read posts", "post.get"),
        ("delete your posts", "post.delete"),
        ("publish replies", "reply.post"),
        ("see your email address", "user.email"),
        ("follow and unfollow people", "user.follow"),
        ("see who follows people", "user.followers.get"),
    ] {
        assert!(html.contains(&format!("> {words} <code>{scope}</code>")), "{scope} is described as {words:?}");
    }
}

#[tokio::test]
async fn the_consent_page_speaks_the_language_the_browser_asks_for() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let query = flow.query(&flow.redirect_uri, "post.get,user.email");
    let page_in = |language: &'static str| {
        let (http, url, query) = (flow.http.clone(), format!("{}/oauth/authorise", flow.base), query.clone());
        async move {
            let res = http.get(url).query(&query).header("accept-language", language).send().await.unwrap();
            res.text().await.unwrap()
        }
    };
    let german = page_in("de-AT,de;q=0.9,en;q=0.5").await;
    assert!(german.contains("<html lang=\"de\" dir=\"ltr\">"), "{german}");
    for words in ["Bei Perch anmelden", "> Beiträge lesen <code>post.get</code>", "Anmelden und erlauben", "Ablehnen"]
    {
        assert!(german.contains(words), "{words}");
    }
    assert!(!german.contains("Sign in and allow"));
    let arabic = page_in("ar-EG").await;
    assert!(arabic.contains("<html lang=\"ar\" dir=\"rtl\">"));
    assert!(arabic.contains("> رؤية بريدك الإلكتروني <code>user.email</code>"));
    let other = page_in("fr-FR,fr;q=0.9").await;
    assert!(other.contains("<html lang=\"en\"") && other.contains("Sign in and allow"), "English for the rest");

    // What it says after a failed attempt is in the same language.
    let mut form: Vec<(String, String)> = query.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    form.extend(
        [("username", "ada"), ("password", "wrong"), ("scope", "post.get"), ("action", "allow")]
            .map(|(k, v)| (k.into(), v.into())),
    );
    let res = flow
        .http
        .post(format!("{}/oauth/authorise", flow.base))
        .header("accept-language", "de")
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 401);
    assert!(res.text().await.unwrap().contains("Falscher Benutzername oder falsches Passwort."));
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

#[tokio::test]
async fn an_unknown_username_costs_one_password_check_like_a_wrong_password() {
    // The time of a refusal must not say whether the name exists: an unknown
    // name is checked against a hash of the same cost (make bench-abuse
    // prints both times; a timed assertion would be noise here).
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let query = flow.query(&flow.redirect_uri, "user.get");
    let before = server.password_checks();
    let (status, _, html) = flow.submit(&query, "ada", "wrong", &["user.get"], "allow").await;
    assert_eq!(status, 401);
    assert_eq!(server.password_checks(), before + 1);
    let (status, _, unknown) = flow.submit(&query, "nobody_here", "wrong", &["user.get"], "allow").await;
    assert_eq!(status, 401);
    assert_eq!(server.password_checks(), before + 2, "an unknown name is hashed too");
    assert!(unknown.contains("Wrong username or password.") && html.contains("Wrong username or password."));
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
    assert_error(&flow.refresh("made-up").await, 401);
    assert_eq!(flow.refresh(&second.refresh_token).await.0, 200);
    assert_error(&flow.refresh(&first.refresh_token).await, 401);
}

#[tokio::test]
async fn revoking_either_token_ends_the_whole_family_at_once() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let api = |t: &TokenSet| Api::new(&server.base, Some(t.token.clone()));
    for revoke_access in [false, true] {
        let first = flow.pair().await;
        let second: TokenSet = serde_json::from_value(flow.refresh(&first.refresh_token).await.1).unwrap();
        let other = flow.pair().await;
        assert_eq!(api(&first).get("/user").await.0, 200, "checked and cached");
        assert_eq!(api(&second).get("/user").await.0, 200, "checked and cached");
        let token = if revoke_access { &second.token } else { &second.refresh_token };
        assert_eq!(flow.revoke(json!({ "token": token })).await.0, 200);
        assert_error(&api(&first).get("/user").await, 401);
        assert_error(&api(&second).get("/user").await, 401);
        assert_error(&flow.refresh(&second.refresh_token).await, 401);
        assert_eq!(api(&other).get("/user").await.0, 200, "another sign-in is another family");
        assert_eq!(flow.refresh(&other.refresh_token).await.0, 200);
    }
    // The same answer whatever the token, so it tells nothing; a body without one is 400.
    assert_eq!(flow.revoke(json!({ "token": "made-up" })).await, (200, json!({})));
    assert_error(&flow.revoke(json!({})).await, 400);
    assert_error(&flow.revoke(json!({ "token": "" })).await, 400);
    let cli = server.token("ada", &[Scope::UserGet]).await;
    assert_eq!(flow.revoke(json!({ "token": cli })).await.0, 200);
    assert_error(&Api::new(&server.base, Some(cli)).get("/user").await, 401);
}

#[tokio::test]
async fn reusing_a_retired_refresh_token_revokes_its_family() {
    // No grace window: the second use is reuse at once.
    let server = Server::start_with(|o| o.refresh_grace = std::time::Duration::ZERO).await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let first = flow.pair().await;
    let second: TokenSet = serde_json::from_value(flow.refresh(&first.refresh_token).await.1).unwrap();
    let api = Api::new(&server.base, Some(second.token.clone()));
    assert_eq!(api.get("/user").await.0, 200);
    assert_error(&flow.refresh(&first.refresh_token).await, 401);
    assert_error(&api.get("/user").await, 401);
    assert_error(&flow.refresh(&second.refresh_token).await, 401);
}

#[tokio::test]
async fn two_tabs_refreshing_at_once_both_keep_working_tokens() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let first = flow.pair().await;
    // Both tabs send the same refresh token, at the same moment.
    let (a, b) = tokio::join!(flow.refresh(&first.refresh_token), flow.refresh(&first.refresh_token));
    assert_eq!((a.0, b.0), (200, 200), "{} {}", a.1, b.1);
    let (a, b): (TokenSet, TokenSet) = (serde_json::from_value(a.1).unwrap(), serde_json::from_value(b.1).unwrap());
    assert_eq!(a.token, b.token, "the same pair, answered again");
    assert_eq!(a.refresh_token, b.refresh_token);
    assert_eq!(Api::new(&server.base, Some(a.token.clone())).get("/user").await.0, 200);
    // The pair goes on working: its refresh token rotates as usual.
    let (status, next) = flow.refresh(&a.refresh_token).await;
    assert_eq!(status, 200, "{next}");
    // The first token, once its successor has itself been used, is reuse.
    assert_error(&flow.refresh(&first.refresh_token).await, 401);
    let next: TokenSet = serde_json::from_value(next).unwrap();
    assert_error(&Api::new(&server.base, Some(next.token)).get("/user").await, 401);
}

#[tokio::test]
async fn after_the_grace_window_a_retired_refresh_token_is_reuse() {
    let server = Server::start_with(|o| o.refresh_grace = std::time::Duration::from_millis(300)).await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let first = flow.pair().await;
    let second: TokenSet = serde_json::from_value(flow.refresh(&first.refresh_token).await.1).unwrap();
    assert_eq!(flow.refresh(&first.refresh_token).await.0, 200, "within the window");
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_error(&flow.refresh(&first.refresh_token).await, 401);
    assert_error(&Api::new(&server.base, Some(second.token)).get("/user").await, 401);
    assert_error(&flow.refresh(&second.refresh_token).await, 401);
}

#[tokio::test]
async fn a_code_used_twice_revokes_the_tokens_its_first_use_issued() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let code = flow.code("user.get", &["user.get"]).await;
    let (status, body) = flow.exchange(&code, VERIFIER).await;
    assert_eq!(status, 200, "{body}");
    let tokens: TokenSet = serde_json::from_value(body).unwrap();
    let api = Api::new(&server.base, Some(tokens.token.clone()));
    assert_eq!(api.get("/user").await.0, 200, "checked and cached");
    assert_error(&flow.exchange(&code, VERIFIER).await, 400);
    assert_error(&api.get("/user").await, 401);
    assert_error(&flow.refresh(&tokens.refresh_token).await, 401);
    // Another sign-in is untouched.
    let other = flow.pair().await;
    assert_eq!(Api::new(&server.base, Some(other.token)).get("/user").await.0, 200);
}

#[tokio::test]
async fn a_token_revoked_through_another_server_stops_working_within_seconds() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let pair = flow.pair().await;
    let other = Server::start_with(|o| o.db = server.options.db.clone()).await;
    let api = Api::new(&server.base, Some(pair.token.clone()));
    assert_eq!(api.get("/user").await.0, 200, "checked and cached here");
    let res = reqwest::Client::new()
        .post(format!("{}/api/oauth/revoke", other.base))
        .json(&json!({ "token": pair.token }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    tokio::time::sleep(std::time::Duration::from_millis(5_200)).await;
    assert_error(&api.get("/user").await, 401);
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

#[tokio::test]
async fn a_code_lives_ten_minutes_and_an_expired_one_is_refused() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let code = flow.code("user.get", &["user.get"]).await;
    let code_hash = perch_server::tokens::hash(&code);
    let expires: i64 = sqlx::query_scalar("SELECT expires_ms FROM auth_codes WHERE hash = ?")
        .bind(&code_hash)
        .fetch_one(server.db())
        .await
        .unwrap();
    let left = expires - perch_server::db::now_ms();
    assert!((9 * 60_000..=10 * 60_000).contains(&left), "a code lives 10 minutes, not {left} ms");
    sqlx::query("UPDATE auth_codes SET expires_ms = ? WHERE hash = ?")
        .bind(perch_server::db::now_ms() - 1)
        .bind(&code_hash)
        .execute(server.db())
        .await
        .unwrap();
    let answer = flow.exchange(&code, VERIFIER).await;
    assert_error(&answer, 400);
    assert!(answer.1["_message"].as_str().unwrap().contains("expired"), "{}", answer.1);
}

#[tokio::test]
async fn a_pkce_challenge_shorter_than_43_characters_gets_an_error_page() {
    let server = Server::start().await;
    let flow = Flow::new(&server).await;
    let good = flow.query(&flow.redirect_uri, "user.get");
    assert_eq!(flow.page(&good).await.0, 200);
    for challenge in ["", "abc", &"a".repeat(42)] {
        let query: Vec<(&str, String)> = good
            .iter()
            .map(|(k, v)| (*k, if *k == "code_challenge" { challenge.to_owned() } else { v.clone() }))
            .collect();
        let (status, html) = flow.page(&query).await;
        assert_eq!(status, 400, "a challenge of {} characters: {html}", challenge.len());
    }
    let query: Vec<(&str, String)> =
        good.iter().map(|(k, v)| (*k, if *k == "code_challenge" { "a".repeat(43) } else { v.clone() })).collect();
    assert_eq!(flow.page(&query).await.0, 200, "43 characters is enough");
}
