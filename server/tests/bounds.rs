//! What a client controls cannot make the server hold memory without
//! bound: the read cache ignores query strings, which no handler reads, and
//! stays within its byte budget however many distinct reads arrive; sign-in
//! refuses a body over 16 KiB and a name no account can have before
//! counting it; and the failure limits count per address as well as per
//! (address, username).

mod common;

use common::flow::Flow;
use common::Server;

#[tokio::test]
async fn sign_in_counts_only_names_an_account_can_have() {
    let server = Server::start().await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let query = flow.query(&flow.redirect_uri, "user.get");
    // A megabyte of name is refused before it is read whole.
    let huge = "a".repeat(1024 * 1024);
    let (status, _, _) = flow.submit(&query, &huge, "wrong", &["user.get"], "allow").await;
    assert_eq!(status, 413);
    // Over 30 characters, or not letters, digits and underscores: refused,
    // not counted, not shown again.
    for name in ["a".repeat(31), "ada lovelace".to_owned(), "<script>".to_owned()] {
        let (status, _, html) = flow.submit(&query, &name, "wrong", &["user.get"], "allow").await;
        assert_eq!(status, 401, "{name}");
        assert!(html.contains("Wrong username or password."));
        assert!(!html.contains(&name), "the name is not echoed");
    }
    assert_eq!(server.sign_in_keys(), 0, "nothing was counted");
    let (status, _, _) = flow.submit(&query, "ada", "wrong", &["user.get"], "allow").await;
    assert_eq!(status, 401);
    assert_eq!(server.sign_in_keys(), 2, "a real attempt is counted per name and per address");
    // The limit is 16 KiB, not less: a form of 8 KiB is read and answered.
    let long = "p".repeat(8 * 1024);
    let (status, _, _) = flow.submit(&query, "ada", &long, &["user.get"], "allow").await;
    assert_eq!(status, 401, "a form under 16 KiB is read");
    let (status, _, _) = flow.submit(&query, "ada", &"p".repeat(17 * 1024), &["user.get"], "allow").await;
    assert_eq!(status, 413, "one over 16 KiB is not");
}

#[tokio::test]
async fn one_address_spraying_a_password_over_many_names_is_stopped() {
    // 2 failures per (address, name), so 10 per address.
    let server = Server::start_with(|o| {
        o.sign_in_failures = 2;
        o.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    })
    .await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let query = flow.query(&flow.redirect_uri, "user.get");
    let sprayer = Some("203.0.113.66");
    for i in 0..10 {
        let name = format!("user{i}");
        assert_eq!(flow.submit_from(sprayer, &query, &name, "Summer2026", &["user.get"], "allow").await.0, 401);
    }
    let (status, _, html) = flow.submit_from(sprayer, &query, "ada", "Summer2026", &["user.get"], "allow").await;
    assert_eq!(status, 429, "the eleventh name from one address waits: {html}");
    let (status, _, _) = flow.submit_from(Some("198.51.100.7"), &query, "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 303, "another address is not locked out");
}

#[tokio::test]
async fn right_passwords_never_count_as_failures() {
    let server = Server::start_with(|o| o.sign_in_failures = 2).await;
    server.user("ada").await;
    let flow = Flow::new(&server).await;
    let query = flow.query(&flow.redirect_uri, "user.get");
    // More than the per-name limit (2) and the per-address one (2 x 5).
    for n in 0..12 {
        let (status, location, _) = flow.submit(&query, "ada", "pw-ada", &["user.get"], "allow").await;
        assert_eq!(status, 303, "sign-in {n} of 12, with a limit of 2 failures: {location}");
    }
    assert_eq!(server.sign_in_keys(), 2, "counted, then refunded, never over");
}

#[tokio::test]
async fn query_strings_do_not_make_new_cache_entries() {
    let server = Server::start().await;
    let ada_uuid = server.user("ada").await;
    let ada = server.client("ada").await;
    for i in 0..15 {
        ada.send(&format!("post {i}: some text to make the page weigh something"), None).await;
    }
    let (status, first) = ada.get(&format!("/user/{ada_uuid}/posts/1")).await;
    assert_eq!(status, 200);
    let one = server.read_cache_bytes();
    assert!(one > 0, "a read is kept");
    for n in 0..300 {
        let (status, page) = ada.get(&format!("/user/{ada_uuid}/posts/1?n={n}")).await;
        assert_eq!(status, 200);
        assert_eq!(page, first, "the query changes nothing in the answer");
    }
    assert_eq!(server.read_cache_bytes(), one, "300 query strings, still one kept answer");
}

#[tokio::test]
async fn the_read_cache_stays_within_its_budget() {
    let budget = 32 * 1024;
    let server = Server::start_with(|o| o.read_cache_bytes = budget).await;
    server.user("ada").await;
    let ada = server.client("ada").await;
    let mut posts = Vec::new();
    for i in 0..60 {
        posts.push(ada.send(&format!("post {i}: {}", "x".repeat(400)), None).await);
    }
    let mut most = 0;
    for post in &posts {
        assert_eq!(ada.get(&format!("/post/{post}")).await.0, 200);
        most = most.max(server.read_cache_bytes());
    }
    assert!(most > budget / 2, "the cache was used ({most} bytes)");
    assert!(most <= budget, "{most} bytes kept with a budget of {budget}");
    // The newest answer is still kept: reading it again adds nothing.
    let before = server.read_cache_bytes();
    ada.get(&format!("/post/{}", posts[59])).await;
    assert_eq!(server.read_cache_bytes(), before);
}
