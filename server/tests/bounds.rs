//! What a client controls cannot make the server hold memory without
//! bound: the read cache ignores query strings, which no handler reads, and
//! stays within its byte budget however many distinct reads arrive.

mod common;

use common::Server;

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
