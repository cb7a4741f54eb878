//! The demo data keeps its promises: eight people with bios and badges who
//! follow each other, about two hundred posts over weeks, deep threads, more
//! than a page of replies somewhere, likes, a locked post and a post of
//! exactly 500 characters; and it fills only an empty database.

mod common;

use common::Server;
use perch_model::{User, UserPostsPage};
use perch_server::accounts::cli_token;
use perch_server::demo::{fill_if_empty, five_hundred_chars, PEOPLE};

#[test]
fn the_long_post_is_exactly_500_mixed_characters() {
    let text = five_hundred_chars();
    assert_eq!(text.chars().count(), 500);
    assert!(perch_model::validate_content(&text).is_ok());
    for sample in ["Привет", "こんにちは", "مرحبا", "🐦"] {
        assert!(text.contains(sample), "{sample}");
    }
}

#[tokio::test]
async fn the_demo_has_what_the_app_needs_to_show() {
    let dir = tempfile::tempdir().unwrap();
    let db = perch_server::db::open(&dir.path().join("demo.db")).await.unwrap();
    assert!(fill_if_empty(&db).await.unwrap());
    assert!(!fill_if_empty(&db).await.unwrap(), "a second start adds nothing");
    let posts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM posts").fetch_one(&db).await.unwrap();
    assert!((190..=230).contains(&posts), "{posts} posts");
    let first: i64 = sqlx::query_scalar("SELECT MIN(created_ms) FROM posts").fetch_one(&db).await.unwrap();
    let last: i64 = sqlx::query_scalar("SELECT MAX(created_ms) FROM posts").fetch_one(&db).await.unwrap();
    assert!(last - first > 21 * 86_400_000, "spread over weeks");
    assert!(last <= perch_server::db::now_ms(), "nothing in the future");
    let depth: i64 = sqlx::query_scalar(
        "WITH RECURSIVE chain(uuid, depth) AS (SELECT uuid, 0 FROM posts WHERE parent_uuid IS NULL \
         UNION ALL SELECT p.uuid, c.depth + 1 FROM posts p JOIN chain c ON p.parent_uuid = c.uuid) SELECT MAX(depth) FROM chain",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(depth >= 5, "threads several levels deep: {depth}");
    let widest: i64 = sqlx::query_scalar("SELECT MAX(reply_count) FROM posts").fetch_one(&db).await.unwrap();
    assert!(widest > 15, "a thread with a second page of replies: {widest}");
    let locked: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM posts WHERE locked = 1").fetch_one(&db).await.unwrap();
    assert_eq!(locked, 1);
    let replies_to_locked: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM posts r JOIN posts p ON r.parent_uuid = p.uuid WHERE p.locked = 1")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(replies_to_locked, 0);
    let long_posts: Vec<String> =
        sqlx::query_scalar("SELECT content FROM posts WHERE length(content) = 500").fetch_all(&db).await.unwrap();
    assert_eq!(long_posts, vec![five_hundred_chars()], "one post of exactly 500 characters");
    let likes: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM likes").fetch_one(&db).await.unwrap();
    assert!(likes > 100);
    let counts_agree: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM posts p WHERE p.like_count <> (SELECT COUNT(*) FROM likes l WHERE l.post_id = p.id) \
         OR p.reply_count <> (SELECT COUNT(*) FROM posts r WHERE r.parent_uuid = p.uuid)",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(counts_agree, 0, "every count matches its rows");

    let token = cli_token(&db, "mira", &perch_model::Scope::ALL, 60_000).await.unwrap();
    drop(db);
    let server = Server::start_with(|o| o.db = dir.path().join("demo.db")).await;
    let api = common::Api::new(&server.base, Some(token));
    let (_, me) = api.get("/user").await;
    let me: User = serde_json::from_value(me).unwrap();
    assert!(me.following_count >= 6, "the demo account follows most people");
    for (name, _, bio, _) in PEOPLE {
        let (status, user) = api.get(&format!("/user/@{name}")).await;
        assert_eq!(status, 200);
        assert_eq!(user["bio"], bio);
        assert!(user["avatar"].as_str().unwrap().starts_with("https://"));
    }
    let (_, page) = api.get(&format!("/user/{}/posts/1", me.uuid)).await;
    let page: UserPostsPage = serde_json::from_value(page).unwrap();
    assert_eq!(page.posts.len(), 15, "a full first page of the demo account's posts");
}

/// `serve --demo --live`: demo people reply to mira, like, follow and post
/// through the interface, so what she reads changes; the counts stay true;
/// the acts stop with the server; config.json tells the app to check often.
#[tokio::test]
async fn the_live_demo_acts_through_the_interface_and_stops_with_the_server() {
    let server = Server::start_with(|o| {
        o.demo = true;
        o.live = Some(std::time::Duration::from_millis(40));
    })
    .await;
    let posts_before = count(server.db(), "SELECT COUNT(*) FROM posts").await;
    let mira_replies_before =
        count(server.db(), "SELECT COALESCE(SUM(reply_count), 0) FROM posts WHERE author_id = (SELECT id FROM users WHERE username = 'mira')").await;
    // Some 50 acts: replies and posts are most of them.
    tokio::time::sleep(std::time::Duration::from_millis(2_500)).await;
    let posts_after = count(server.db(), "SELECT COUNT(*) FROM posts").await;
    assert!(posts_after > posts_before + 5, "{posts_before} -> {posts_after} posts");
    let mira_replies =
        count(server.db(), "SELECT COALESCE(SUM(reply_count), 0) FROM posts WHERE author_id = (SELECT id FROM users WHERE username = 'mira')").await;
    assert!(mira_replies > mira_replies_before, "mira got replies");
    // The counts follow the rows, as after any write through the interface.
    let wrong = count(
        server.db(),
        "SELECT COUNT(*) FROM posts WHERE reply_count != (SELECT COUNT(*) FROM posts r WHERE r.parent_uuid = posts.uuid) \
         OR like_count != (SELECT COUNT(*) FROM likes l WHERE l.post_id = posts.id)",
    )
    .await;
    assert_eq!(wrong, 0);
    let config: serde_json::Value =
        reqwest::get(format!("{}/config.json", server.base)).await.unwrap().json().await.unwrap();
    assert_eq!(config["activity_check_seconds"], 30);
    server.stop().await;
}

#[tokio::test]
async fn without_live_the_demo_stays_still_and_config_json_leaves_the_pace_to_the_app() {
    let server = Server::start_with(|o| o.demo = true).await;
    let before = count(server.db(), "SELECT COUNT(*) FROM posts").await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(count(server.db(), "SELECT COUNT(*) FROM posts").await, before);
    let config: serde_json::Value =
        reqwest::get(format!("{}/config.json", server.base)).await.unwrap().json().await.unwrap();
    assert!(config.get("activity_check_seconds").is_none(), "{config}");
    server.stop().await;
}

async fn count(db: &perch_server::db::Db, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(sql).fetch_one(db).await.unwrap()
}
