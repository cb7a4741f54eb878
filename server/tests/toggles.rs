//! Toggles under concurrency: any number of simultaneous calls by one caller
//! leave the state equal to their parity, counts never go negative, and each
//! answer says what that call did.

mod common;

use common::Server;
use futures::future::join_all;

async fn fire(api: &common::Api, path: &str, n: usize) -> Vec<String> {
    let calls = (0..n).map(|_| api.post_empty(path));
    join_all(calls)
        .await
        .into_iter()
        .map(|(status, body)| {
            assert_eq!(status, 200, "{body}");
            body["action"].as_str().unwrap().to_owned()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_one_concurrent_likes_end_liked_once() {
    let server = Server::start().await;
    server.user("ada").await;
    let ada = server.client("ada").await;
    let post = ada.send("like me", None).await;
    let actions = fire(&ada, &format!("/post/{post}/like"), 51).await;
    let liked = actions.iter().filter(|a| *a == "liked").count();
    assert_eq!(liked, 26, "answers alternate: 26 liked, 25 unliked");
    let (_, p) = ada.get(&format!("/post/{post}")).await;
    assert_eq!((p["like_count"].as_u64(), p["liked"].as_bool()), (Some(1), Some(true)));

    // An even number more leaves it as it was.
    fire(&ada, &format!("/post/{post}/like"), 50).await;
    let (_, p) = ada.get(&format!("/post/{post}")).await;
    assert_eq!((p["like_count"].as_u64(), p["liked"].as_bool()), (Some(1), Some(true)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_likes_by_many_people_all_count() {
    let server = Server::start().await;
    server.user("ada").await;
    let post = server.client("ada").await.send("popular", None).await;
    let mut apis = Vec::new();
    for i in 0..12 {
        let name = format!("fan{i}");
        server.user(&name).await;
        apis.push(server.client(&name).await);
    }
    let path = format!("/post/{post}/like");
    join_all(apis.iter().map(|a| a.post_empty(&path))).await;
    assert_eq!(apis[0].get(&format!("/post/{post}")).await.1["like_count"], 12);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_one_concurrent_follows_end_followed_once() {
    let server = Server::start().await;
    server.user("ada").await;
    let bob = server.user("bob").await;
    let ada = server.client("ada").await;
    let actions = fire(&ada, &format!("/user/{bob}/follow"), 51).await;
    assert_eq!(actions.iter().filter(|a| *a == "followed").count(), 26);
    let (_, b) = ada.get(&format!("/user/{bob}")).await;
    assert_eq!((b["follow_count"].as_u64(), b["followed"].as_bool()), (Some(1), Some(true)));
    let (_, me) = ada.get("/user").await;
    assert_eq!(me["following_count"], 1);
    fire(&ada, &format!("/user/{bob}/follow"), 51).await;
    let (_, b) = ada.get(&format!("/user/{bob}")).await;
    assert_eq!(
        (b["follow_count"].as_u64(), b["followed"].as_bool()),
        (Some(0), Some(false)),
        "never negative, back to none"
    );
    assert_eq!(ada.get("/user").await.1["following_count"], 0);
}
