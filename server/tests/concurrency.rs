//! Writes at the same time: SQLite takes one writer at a time, and every
//! transaction that writes begins as a write (`db::write`), so concurrent
//! writes wait their turn instead of answering 500. A race between an edit
//! and a delete of one post ends in 404 for the loser, never 500.

mod common;

use common::Server;
use futures::stream::{self, StreamExt};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn edits_and_replies_at_once_all_succeed() {
    let server = Server::start().await;
    server.user("ada").await;
    server.user("bob").await;
    let (ada, bob) = (server.client("ada").await, server.client("bob").await);
    let post = ada.send("a post everyone answers while it is edited", None).await;

    let statuses: Vec<(bool, u16, serde_json::Value)> = stream::iter(0..200)
        .map(|i| {
            let (ada, bob, post) = (&ada, &bob, &post);
            async move {
                if i % 2 == 0 {
                    let (status, body) =
                        ada.patch(&format!("/post/{post}"), json!({ "content": format!("edit {i}") })).await;
                    (false, status, body)
                } else {
                    let (status, body) =
                        bob.post("/post", json!({ "content": format!("reply {i}"), "parent": post })).await;
                    (true, status, body)
                }
            }
        })
        .buffer_unordered(32)
        .collect()
        .await;

    let failed: Vec<_> = statuses.iter().filter(|(_, status, _)| *status != 200).collect();
    assert!(failed.is_empty(), "{} of 200 writes failed, for example {:?}", failed.len(), failed.first());
    let (_, p) = ada.get(&format!("/post/{post}")).await;
    assert_eq!(p["reply_count"], 100, "every reply counted once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_edit_racing_a_delete_is_200_or_404_never_500() {
    let server = Server::start().await;
    server.user("ada").await;
    let ada = server.client("ada").await;
    for round in 0..30 {
        let post = ada.send(&format!("post {round}, edited and deleted at once"), None).await;
        let path = format!("/post/{post}");
        let (edit, delete) = tokio::join!(ada.patch(&path, json!({ "content": "too late?" })), ada.delete(&path));
        assert_eq!(delete.0, 200, "round {round}: the delete {}", delete.1);
        assert!(matches!(edit.0, 200 | 404), "round {round}: the edit answered {} {}", edit.0, edit.1);
        if edit.0 == 404 {
            common::assert_error(&edit, 404);
        }
        assert_eq!(ada.get(&path).await.0, 404, "round {round}: the post is gone");
    }
}
