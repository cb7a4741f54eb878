//! The `Idempotency-Key` extension (docs/api.md): a write sent again with
//! the same key gets the first answer and is not done twice.

mod common;

use common::{assert_error, Server};
use serde_json::json;

async fn post_count(api: &common::Api, user: &str) -> usize {
    let (status, page) = api.get(&format!("/user/{user}/posts/1")).await;
    assert_eq!(status, 200, "{page}");
    page["posts"].as_array().map_or(0, Vec::len)
}

#[tokio::test]
async fn a_post_sent_twice_with_one_key_is_made_once_and_answered_the_same() {
    let server = Server::start().await;
    let ada = server.user("ada").await;
    let api = server.client("ada").await;
    let body = json!({ "content": "sent once, whatever the network does" });
    let (status, first, replayed) = api.keyed("POST", "/post", Some(body.clone()), "key-1").await;
    assert_eq!((status, replayed), (200, false), "{first}");
    let (status, again, replayed) = api.keyed("POST", "/post", Some(body), "key-1").await;
    assert_eq!((status, replayed), (200, true));
    assert_eq!(again, first, "the first answer, the same post");
    assert_eq!(post_count(&api, &ada).await, 1);

    // Without a key, or with another, it is a new post, as before.
    api.send("sent once, whatever the network does", None).await;
    let (status, other, _) = api.keyed("POST", "/post", Some(json!({ "content": "two" })), "key-2").await;
    assert_eq!(status, 200);
    assert_ne!(other["uuid"], first["uuid"]);
    assert_eq!(post_count(&api, &ada).await, 3);

    // A long answer is kept whole: 500 characters of three bytes each.
    let long = json!({ "content": "漢".repeat(500) });
    let (status, first, _) = api.keyed("POST", "/post", Some(long.clone()), "key-3").await;
    assert_eq!(status, 200);
    let (status, again, replayed) = api.keyed("POST", "/post", Some(long), "key-3").await;
    assert_eq!((status, replayed, &again), (200, true, &first));
}

#[tokio::test]
async fn a_key_used_again_for_another_request_is_422_and_changes_nothing() {
    let server = Server::start().await;
    let ada = server.user("ada").await;
    let api = server.client("ada").await;
    let (status, _, _) = api.keyed("POST", "/post", Some(json!({ "content": "first" })), "k").await;
    assert_eq!(status, 200);
    let (status, body, replayed) = api.keyed("POST", "/post", Some(json!({ "content": "second" })), "k").await;
    assert_error(&(status, body), 422);
    assert!(!replayed);
    assert_eq!(post_count(&api, &ada).await, 1);
}

#[tokio::test]
async fn keys_are_per_account() {
    let server = Server::start().await;
    let (ada, bob) = (server.user("ada").await, server.user("bob").await);
    let (a, b) = (server.client("ada").await, server.client("bob").await);
    let body = json!({ "content": "the same words" });
    assert_eq!(a.keyed("POST", "/post", Some(body.clone()), "shared").await.0, 200);
    let (status, post, replayed) = b.keyed("POST", "/post", Some(body), "shared").await;
    assert_eq!((status, replayed), (200, false), "bob's own post, not ada's answer");
    assert_eq!(post["author"]["username"], "bob");
    assert_eq!((post_count(&a, &ada).await, post_count(&b, &bob).await), (1, 1));
}

#[tokio::test]
async fn an_edit_and_a_delete_sent_again_answer_as_the_first_time() {
    let server = Server::start().await;
    server.user("ada").await;
    let api = server.client("ada").await;
    let uuid = api.send("to be edited, then deleted", None).await;
    let path = format!("/post/{uuid}");
    let edit = json!({ "content": "edited once" });
    let (status, first, _) = api.keyed("PATCH", &path, Some(edit.clone()), "edit").await;
    assert_eq!(status, 200);
    let (status, again, replayed) = api.keyed("PATCH", &path, Some(edit), "edit").await;
    assert_eq!((status, replayed, &again), (200, true, &first));

    let (status, deleted, _) = api.keyed("DELETE", &path, None, "delete").await;
    assert_eq!(status, 200, "{deleted}");
    // The post is gone: without the key, deleting again is 404; with it, the first answer.
    assert_error(&api.delete(&path).await, 404);
    let (status, again, replayed) = api.keyed("DELETE", &path, None, "delete").await;
    assert_eq!((status, replayed, &again), (200, true, &deleted));
}

#[tokio::test]
async fn a_refusal_is_kept_too_and_a_bad_key_is_400() {
    let server = Server::start().await;
    server.user("ada").await;
    let api = server.client("ada").await;
    let long = json!({ "content": "x".repeat(501) });
    let (status, first, _) = api.keyed("POST", "/post", Some(long.clone()), "too-long").await;
    assert_eq!(status, 422);
    let (status, again, replayed) = api.keyed("POST", "/post", Some(long), "too-long").await;
    assert_eq!((status, replayed, &again), (422, true, &first));
    for bad in ["has space", "", &"k".repeat(256)] {
        let (status, body, _) = api.keyed("POST", "/post", Some(json!({ "content": "hi" })), bad).await;
        assert_error(&(status, body), 400);
    }
    // Signed out, the key changes nothing: 401 as always.
    let (status, body, _) = server.anonymous().keyed("POST", "/post", Some(json!({ "content": "hi" })), "k").await;
    assert_error(&(status, body), 401);
}

#[tokio::test]
async fn keys_expire_after_a_day_and_are_bounded_per_account() {
    let server = Server::start().await;
    let ada = server.user("ada").await;
    let api = server.client("ada").await;
    let body = json!({ "content": "again after a day" });
    assert_eq!(api.keyed("POST", "/post", Some(body.clone()), "old").await.0, 200);
    // 23 hours later, it is still the same write.
    let hours = |h: i64| h * 60 * 60 * 1000;
    sqlx::query("UPDATE idempotency_keys SET created_ms = created_ms - ?")
        .bind(hours(23))
        .execute(server.db())
        .await
        .unwrap();
    let (status, _, replayed) = api.keyed("POST", "/post", Some(body.clone()), "old").await;
    assert_eq!((status, replayed), (200, true), "kept for 24 hours");
    assert_eq!(perch_server::idempotency::KEPT_MS, hours(24));
    // A day and a second later, the key is forgotten: the same request is new.
    sqlx::query("UPDATE idempotency_keys SET created_ms = created_ms - ?")
        .bind(hours(1) + 1000)
        .execute(server.db())
        .await
        .unwrap();
    let (status, _, replayed) = api.keyed("POST", "/post", Some(body), "old").await;
    assert_eq!((status, replayed), (200, false));
    assert_eq!(post_count(&api, &ada).await, 2);

    // However many keys an account sends, at most MAX_PER_ACCOUNT are kept.
    let user_id: i64 =
        sqlx::query_scalar("SELECT id FROM users WHERE username = 'ada'").fetch_one(server.db()).await.unwrap();
    let now: i64 =
        sqlx::query_scalar("SELECT MAX(created_ms) FROM idempotency_keys").fetch_one(server.db()).await.unwrap();
    for i in 0..perch_server::idempotency::MAX_PER_ACCOUNT {
        sqlx::query(
            "INSERT INTO idempotency_keys (user_id, key, fingerprint, status, created_ms) VALUES (?, ?, 'x', 200, ?)",
        )
        .bind(user_id)
        .bind(format!("filler-{i}"))
        .bind(now - 1000 + i)
        .execute(server.db())
        .await
        .unwrap();
    }
    assert_eq!(api.keyed("POST", "/post", Some(json!({ "content": "one more" })), "newest").await.0, 200);
    let kept: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM idempotency_keys WHERE user_id = ?")
        .bind(user_id)
        .fetch_one(server.db())
        .await
        .unwrap();
    assert_eq!(kept, perch_server::idempotency::MAX_PER_ACCOUNT);
    let newest: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM idempotency_keys WHERE key = 'newest'")
        .fetch_one(server.db())
        .await
        .unwrap();
    assert_eq!(newest, 1, "the oldest went, not the newest");
}

#[tokio::test]
async fn the_same_key_sent_twice_at_once_makes_one_post() {
    let server = Server::start().await;
    let ada = server.user("ada").await;
    let api = server.client("ada").await;
    for round in 0..5 {
        let key = format!("race-{round}");
        let body = json!({ "content": format!("raced {round}") });
        let (one, two) = tokio::join!(
            api.keyed("POST", "/post", Some(body.clone()), &key),
            api.keyed("POST", "/post", Some(body.clone()), &key)
        );
        // One makes the post; the other gets its answer, or 409 while it is made.
        let statuses = [one.0, two.0];
        assert!(statuses.contains(&200), "{statuses:?}");
        assert!(statuses.iter().all(|s| *s == 200 || *s == 409), "{statuses:?}");
    }
    assert_eq!(post_count(&api, &ada).await, 5);
}

#[tokio::test]
async fn a_request_that_failed_on_the_server_runs_again_when_sent_again() {
    let server = Server::start().await;
    let ada = server.user("ada").await;
    let api = server.client("ada").await;
    let body = json!({ "content": "the server broke the first time" });
    // The database refuses posts for a moment: a 500, which is not kept.
    sqlx::query("ALTER TABLE posts RENAME TO posts_away").execute(server.db()).await.unwrap();
    let (status, _, _) = api.keyed("POST", "/post", Some(body.clone()), "after-500").await;
    sqlx::query("ALTER TABLE posts_away RENAME TO posts").execute(server.db()).await.unwrap();
    assert_eq!(status, 500);
    let (status, post, replayed) = api.keyed("POST", "/post", Some(body), "after-500").await;
    assert_eq!((status, replayed), (200, false), "{post}");
    assert_eq!(post_count(&api, &ada).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_whose_connection_dropped_is_free_again_and_its_post_is_made_once() {
    let server = Server::start().await;
    let ada = server.user("ada").await;
    let api = std::sync::Arc::new(server.client("ada").await);
    let body = |i: usize| json!({ "content": format!("sent on a bad network {i}") });
    // 40 posts at once, each client giving up after 2 to 80 ms: some are
    // dropped before the post is made, some after, some answered.
    let impatient = (0..40).map(|i| {
        let api = api.clone();
        tokio::spawn(async move {
            let wait = std::time::Duration::from_millis(2 + (i as u64 * 2));
            api.keyed_impatient("POST", "/post", Some(body(i)), &format!("dropped-{i}"), wait).await
        })
    });
    let first: Vec<Option<u16>> = futures::future::join_all(impatient).await.into_iter().map(|r| r.unwrap()).collect();
    assert!(first.iter().any(Option::is_none), "some connections dropped: {first:?}");
    // Each sent again, as the app does: a 409 means "still running" and
    // is tried again; it may last only while a first request runs.
    for i in 0..40 {
        let mut tries = 0;
        let (status, post) = loop {
            let (status, post, _) = api.keyed("POST", "/post", Some(body(i)), &format!("dropped-{i}")).await;
            tries += 1;
            if status != 409 || tries == 100 {
                break (status, post);
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        };
        assert_eq!(status, 200, "key {i} stuck after {tries} tries: {post}");
        assert_eq!(post["content"], body(i)["content"]);
    }
    assert_eq!(count_all_posts(&api, &ada).await, 40, "each post made once");
}

#[tokio::test]
async fn a_key_older_than_a_day_is_unknown_however_many_wait_to_be_swept() {
    let server = Server::start().await;
    let ada = server.user("ada").await;
    let api = server.client("ada").await;
    let user_id: i64 =
        sqlx::query_scalar("SELECT id FROM users WHERE username = 'ada'").fetch_one(server.db()).await.unwrap();
    let body = json!({ "content": "the same words, two days apart" });
    // After downtime: 300 expired keys wait to be swept (100 go a request),
    // older than the one sent again.
    let day_and_hour_ago = perch_server::db::now_ms() - perch_server::idempotency::KEPT_MS - 3_600_000;
    for i in 0..300 {
        sqlx::query(
            "INSERT INTO idempotency_keys (user_id, key, fingerprint, status, created_ms) VALUES (?, ?, 'x', 200, ?)",
        )
        .bind(user_id)
        .bind(format!("expired-{i}"))
        .bind(day_and_hour_ago)
        .execute(server.db())
        .await
        .unwrap();
    }
    assert_eq!(api.keyed("POST", "/post", Some(body.clone()), "two-days").await.0, 200);
    sqlx::query("UPDATE idempotency_keys SET created_ms = ? WHERE key = 'two-days'")
        .bind(day_and_hour_ago)
        .execute(server.db())
        .await
        .unwrap();
    sqlx::query("UPDATE idempotency_keys SET created_ms = created_ms - 1 WHERE key LIKE 'expired-%'")
        .execute(server.db())
        .await
        .unwrap();
    let (status, post, replayed) = api.keyed("POST", "/post", Some(body), "two-days").await;
    assert_eq!((status, replayed), (200, false), "a 25-hour-old key is unknown: {post}");
    assert_eq!(post_count(&api, &ada).await, 2);
}

/// Every post of `user`, all pages.
async fn count_all_posts(api: &common::Api, user: &str) -> usize {
    let mut total = 0;
    for page in 1.. {
        let (status, answer) = api.get(&format!("/user/{user}/posts/{page}")).await;
        assert_eq!(status, 200, "{answer}");
        let n = answer["posts"].as_array().map_or(0, Vec::len);
        total += n;
        if n == 0 {
            return total;
        }
    }
    total
}
