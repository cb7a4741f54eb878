//! The eleven operations against the real server: what a client relies on,
//! success and every error the contract lists.

mod common;

use common::{all_but, assert_error, Api, Server};
use perch_model::{FollowersList, Operation, Post, RepliesPage, Scope, Subject, User, UserPostsPage};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

const POST_KEYS: [&str; 10] =
    ["uuid", "parent", "author", "content", "from", "locked", "reply_count", "like_count", "created_at", "liked"];
const USER_KEYS: [&str; 10] = [
    "uuid",
    "username",
    "display_name",
    "avatar",
    "badge",
    "bio",
    "follow_count",
    "following_count",
    "joined",
    "followed",
];

fn assert_post_shape(post: &Value) {
    assert_eq!(keys(post), POST_KEYS.iter().map(|s| s.to_string()).collect(), "{post}");
    assert_eq!(keys(&post["author"]), USER_KEYS.iter().map(|s| s.to_string()).collect());
    assert_eq!(keys(&post["from"]), ["name", "uuid", "website"].iter().map(|s| s.to_string()).collect());
    let created = post["created_at"].as_str().unwrap();
    assert!(created.ends_with('Z') && created.len() == 24, "RFC 3339 UTC with millis: {created}");
    serde_json::from_value::<Post>(post.clone()).unwrap();
}

#[tokio::test]
async fn every_operation_answers_with_the_contract_shape() {
    let server = Server::start().await;
    let ada_uuid = server.user("ada").await;
    let bob_uuid = server.user("bob").await;
    let ada = server.client("ada").await;
    let bob = server.client("bob").await;

    // 3. Send Post, then a reply.
    let (status, post) = ada.post("/post", json!({"content": "hello", "locked": false})).await;
    assert_eq!(status, 200);
    assert_post_shape(&post);
    assert_eq!(post["parent"], Value::Null);
    assert_eq!(post["author"]["uuid"], ada_uuid.as_str());
    let p = post["uuid"].as_str().unwrap().to_owned();
    let (status, reply) = bob.post("/post", json!({"content": "hi back", "parent": p})).await;
    assert_eq!(status, 200);
    assert_post_shape(&reply);
    // The parent is embedded one level deep; its own parent is a uuid or null.
    assert_eq!(reply["parent"]["uuid"], p.as_str());
    assert_eq!(reply["parent"]["parent"], Value::Null);
    let r = reply["uuid"].as_str().unwrap().to_owned();
    let (_, nested) = ada.post("/post", json!({"content": "deeper", "parent": r})).await;
    assert_eq!(nested["parent"]["uuid"], r.as_str());
    assert_eq!(nested["parent"]["parent"], p.as_str(), "a parent's parent is a uuid string");

    // 1. Get Post.
    let (status, got) = bob.get(&format!("/post/{p}")).await;
    assert_eq!(status, 200);
    assert_post_shape(&got);
    assert_eq!(got["reply_count"], 1);

    // 2. Get Post Replies.
    let (status, page) = ada.get(&format!("/post/{p}/replies/1")).await;
    assert_eq!(status, 200);
    let page: RepliesPage = serde_json::from_value(page).unwrap();
    assert_eq!(page.post.uuid, p);
    assert_eq!(page.replies.len(), 1);
    assert_eq!(page.replies[0].uuid, r);

    // 4. Update Post.
    let (status, edited) = ada.patch(&format!("/post/{p}"), json!({"content": "hello, edited"})).await;
    assert_eq!(status, 200);
    assert_eq!(edited["content"], "hello, edited");
    assert_eq!(edited["locked"], false);
    let (_, locked) = ada.patch(&format!("/post/{p}"), json!({"locked": true})).await;
    assert_eq!((locked["content"].as_str(), locked["locked"].as_bool()), (Some("hello, edited"), Some(true)));

    // 6. Like, twice: a toggle, with liked as the optional extension.
    let (status, liked) = bob.post_empty(&format!("/post/{p}/like")).await;
    assert_eq!((status, liked), (200, json!({"action": "liked", "uuid": p})));
    let (_, seen) = bob.get(&format!("/post/{p}")).await;
    assert_eq!((seen["like_count"].as_u64(), seen["liked"].as_bool()), (Some(1), Some(true)));
    let (_, unliked) = bob.post_empty(&format!("/post/{p}/like")).await;
    assert_eq!(unliked, json!({"action": "unliked", "uuid": p}));
    assert_eq!(bob.get(&format!("/post/{p}")).await.1["like_count"], 0);

    // 7. Get User, by uuid and by @username in any case.
    let (status, user) = bob.get(&format!("/user/{ada_uuid}")).await;
    assert_eq!(status, 200);
    assert_eq!(keys(&user), USER_KEYS.iter().map(|s| s.to_string()).collect(), "no email fields for a specific user");
    assert_eq!(bob.get("/user/@ADA").await.1["uuid"], ada_uuid.as_str());

    // 8. Get User Posts: `user` is the uuid; posts and replies alike.
    let (status, posts) = bob.get(&format!("/user/{ada_uuid}/posts/1")).await;
    assert_eq!(status, 200);
    let posts: UserPostsPage = serde_json::from_value(posts).unwrap();
    assert_eq!(posts.user.uuid(), ada_uuid);
    assert_eq!(posts.posts.len(), 2);

    // 9. Follow toggles; 10 and 11 list user objects; counts follow.
    let (status, followed) = bob.post_empty(&format!("/user/{ada_uuid}/follow")).await;
    assert_eq!((status, followed), (200, json!({"action": "followed", "uuid": ada_uuid})));
    let (status, following) = bob.get(&format!("/user/{bob_uuid}/following")).await;
    assert_eq!(status, 200);
    assert_eq!(following["following"][0]["uuid"], ada_uuid.as_str());
    assert_eq!(keys(&following["following"][0]), USER_KEYS.iter().map(|s| s.to_string()).collect());
    let (status, followers) = ada.get(&format!("/user/{ada_uuid}/followers")).await;
    assert_eq!(status, 200);
    let followers: FollowersList = serde_json::from_value(followers).unwrap();
    assert_eq!(followers.followers.iter().map(|u| u.uuid()).collect::<Vec<_>>(), [bob_uuid.as_str()]);
    let ada_seen: User = serde_json::from_value(bob.get("/user/@ada").await.1).unwrap();
    assert_eq!((ada_seen.follow_count, ada_seen.following_count, ada_seen.followed), (1, 0, Some(true)));
    let (_, unfollowed) = bob.post_empty(&format!("/user/{ada_uuid}/follow")).await;
    assert_eq!(unfollowed["action"], "unfollowed");
    assert_eq!(bob.get("/user/@ada").await.1["follow_count"], 0);

    // 5. Delete Post answers the post; afterwards 404.
    let (status, deleted) = bob.delete(&format!("/post/{r}")).await;
    assert_eq!(status, 200);
    assert_eq!(deleted["uuid"], r.as_str());
    assert_error(&bob.get(&format!("/post/{r}")).await, 404);
    server.stop().await;
}

#[tokio::test]
async fn no_token_or_a_bad_one_is_401_everywhere() {
    let server = Server::start().await;
    let uuid = server.user("ada").await;
    let post = server.client("ada").await.send("x", None).await;
    let expired = Api::new(&server.base, Some(server.expired_token("ada").await));
    let forged = Api::new(&server.base, Some("not-a-token".into()));
    let calls = [
        ("GET", format!("/post/{post}")),
        ("GET", format!("/post/{post}/replies/1")),
        ("POST", "/post".to_owned()),
        ("PATCH", format!("/post/{post}")),
        ("DELETE", format!("/post/{post}")),
        ("POST", format!("/post/{post}/like")),
        ("GET", "/user".to_owned()),
        ("GET", format!("/user/{uuid}")),
        ("GET", format!("/user/{uuid}/posts/1")),
        ("POST", format!("/user/{uuid}/follow")),
        ("GET", format!("/user/{uuid}/following")),
        ("GET", format!("/user/{uuid}/followers")),
    ];
    for api in [server.anonymous(), forged, expired] {
        for (method, path) in &calls {
            let body = (method != &"GET" && method != &"DELETE").then(|| json!({"content": "x"}));
            let answer = api.call(method, path, body).await;
            assert_error(&answer, 401);
        }
    }
    // The post is still there: nothing was done without a token.
    assert_eq!(server.client("ada").await.get(&format!("/post/{post}")).await.0, 200);
    // Ping needs no token.
    assert_eq!(server.anonymous().get("/ping").await, (200, json!({"ping": "pong"})));
}

/// For every operation and subject of the seed's table, a token lacking any
/// one required scope gets 403 naming that scope.
#[tokio::test]
async fn each_missing_scope_is_403_naming_it_for_posts_and_replies() {
    let server = Server::start().await;
    server.user("ada").await;
    let bob = server.user("bob").await;
    let ada = server.client("ada").await;
    let post = ada.send("a post", None).await;
    let reply = ada.send("a reply", Some(&post)).await;

    for op in Operation::ALL {
        for subject in [Subject::Post, Subject::Reply] {
            let target = if subject == Subject::Post { &post } else { &reply };
            for &scope in op.required(subject) {
                let api = server.client_with("ada", &all_but(scope)).await;
                let answer = match op {
                    Operation::GetPost => api.get(&format!("/post/{target}")).await,
                    Operation::GetPostReplies => api.get(&format!("/post/{target}/replies/1")).await,
                    Operation::SendPost => {
                        let parent = (subject == Subject::Reply).then(|| post.clone());
                        api.post("/post", json!({"content": "x", "parent": parent})).await
                    }
                    Operation::UpdatePost => api.patch(&format!("/post/{target}"), json!({"content": "y"})).await,
                    Operation::DeletePost => api.delete(&format!("/post/{target}")).await,
                    Operation::LikePost => api.post_empty(&format!("/post/{target}/like")).await,
                    Operation::GetUser => api.get(&format!("/user/{bob}")).await,
                    Operation::GetUserPosts => api.get(&format!("/user/{bob}/posts/1")).await,
                    Operation::FollowUser => api.post_empty(&format!("/user/{bob}/follow")).await,
                    Operation::GetFollowing => api.get(&format!("/user/{bob}/following")).await,
                    Operation::GetFollowers => api.get(&format!("/user/{bob}/followers")).await,
                };
                assert_error(&answer, 403);
                let message = answer.1["_message"].as_str().unwrap();
                assert!(message.contains(scope.as_str()), "{} on a {subject:?} without {scope}: {message}", op.name());
            }
        }
    }
    // Nothing was changed by the refused calls.
    let (_, p) = ada.get(&format!("/post/{post}")).await;
    assert_eq!(
        (p["content"].as_str(), p["like_count"].as_u64(), p["reply_count"].as_u64()),
        (Some("a post"), Some(0), Some(1))
    );
    assert_eq!(ada.get(&format!("/user/{bob}")).await.1["follow_count"], 0);
}

#[tokio::test]
async fn the_right_set_of_scopes_is_enough() {
    let server = Server::start().await;
    server.user("ada").await;
    let post = server.client("ada").await.send("p", None).await;
    let poster = server.client_with("ada", &[Scope::PostGet, Scope::PostSend]).await;
    assert_eq!(poster.post("/post", json!({"content": "top"})).await.0, 200);
    assert_error(&poster.post("/post", json!({"content": "r", "parent": post})).await, 403);
    let replier = server.client_with("ada", &[Scope::ReplyGet, Scope::ReplyPost]).await;
    assert_eq!(replier.post("/post", json!({"content": "r", "parent": post})).await.0, 200);
    assert_error(&replier.post("/post", json!({"content": "top"})).await, 403);
}

#[tokio::test]
async fn only_the_author_edits_or_deletes() {
    let server = Server::start().await;
    server.user("ada").await;
    server.user("bob").await;
    let ada = server.client("ada").await;
    let bob = server.client("bob").await;
    let post = ada.send("mine", None).await;
    assert_error(&bob.patch(&format!("/post/{post}"), json!({"content": "yours now"})).await, 403);
    assert_error(&bob.patch(&format!("/post/{post}"), json!({"locked": true})).await, 403);
    assert_error(&bob.delete(&format!("/post/{post}")).await, 403);
    let (_, p) = ada.get(&format!("/post/{post}")).await;
    assert_eq!((p["content"].as_str(), p["locked"].as_bool()), (Some("mine"), Some(false)));
}

#[tokio::test]
async fn unknown_posts_and_users_are_404() {
    let server = Server::start().await;
    server.user("ada").await;
    let ada = server.client("ada").await;
    let ghost = "00000000-0000-4000-8000-000000000000";
    for answer in [
        ada.get(&format!("/post/{ghost}")).await,
        ada.get(&format!("/post/{ghost}/replies/1")).await,
        ada.patch(&format!("/post/{ghost}"), json!({"content": "x"})).await,
        ada.delete(&format!("/post/{ghost}")).await,
        ada.post_empty(&format!("/post/{ghost}/like")).await,
        ada.post("/post", json!({"content": "x", "parent": ghost})).await,
        ada.get(&format!("/user/{ghost}")).await,
        ada.get("/user/@nobody").await,
        ada.get(&format!("/user/{ghost}/posts/1")).await,
        ada.post_empty(&format!("/user/{ghost}/follow")).await,
        ada.get(&format!("/user/{ghost}/following")).await,
        ada.get(&format!("/user/{ghost}/followers")).await,
    ] {
        assert_error(&answer, 404);
    }
}

#[tokio::test]
async fn bad_input_is_400_413_or_422_and_changes_nothing() {
    let server = Server::start().await;
    let ada_uuid = server.user("ada").await;
    let ada = server.client("ada").await;
    let post = ada.send("original", None).await;

    assert_error(&ada.raw("POST", "/post", b"{not json").await, 400);
    assert_error(&ada.post("/post", json!({"content": 42})).await, 400);
    assert_error(&ada.post("/post", json!({"content": "x", "locked": "yes"})).await, 400);
    assert_error(&ada.post("/post", json!({"content": "x", "colour": "red"})).await, 400);
    assert_error(&ada.post("/post", json!({"locked": true})).await, 400);
    assert_error(&ada.patch(&format!("/post/{post}"), json!({})).await, 400);
    // A field present must hold a value, as the OpenAPI document says.
    assert_error(&ada.patch(&format!("/post/{post}"), json!({"locked": null})).await, 400);
    assert_error(&ada.patch(&format!("/post/{post}"), json!({"content": null, "locked": true})).await, 400);
    assert_error(&ada.post_empty(&format!("/user/{ada_uuid}/follow")).await, 400);

    assert_error(&ada.post("/post", json!({"content": ""})).await, 422);
    assert_error(&ada.post("/post", json!({"content": " \n\t "})).await, 422);
    assert_error(&ada.patch(&format!("/post/{post}"), json!({"content": "  "})).await, 422);
    // Invisible characters alone look empty (the contract's "Decided later").
    assert_error(&ada.post("/post", json!({"content": "\u{200B}\u{FEFF} \u{2060}"})).await, 422);
    assert_error(&ada.patch(&format!("/post/{post}"), json!({"content": "\u{200C}\u{200D}"})).await, 422);
    // A NUL anywhere is refused, and says so.
    let nul = ada.post("/post", json!({"content": "before\u{0}after"})).await;
    assert_error(&nul, 422);
    assert!(nul.1["_message"].as_str().unwrap().contains("NUL"), "{}", nul.1);
    assert_error(&ada.patch(&format!("/post/{post}"), json!({"content": "\u{0}"})).await, 422);
    // A page is plain digits: a sign, a space or a leading "+" is 400.
    for page in ["+1", "-1", "%201", "1%20", "0", "1e1", "0x1"] {
        assert_error(&ada.get(&format!("/post/{post}/replies/{page}")).await, 400);
        assert_error(&ada.get(&format!("/user/{ada_uuid}/posts/{page}")).await, 400);
    }
    assert_eq!(ada.get(&format!("/user/{ada_uuid}/posts/01")).await.0, 200, "leading zeros are still digits");

    // 500 characters of multi-byte text pass; 501 fail and say by how much.
    let text: String = "漢🙂é".chars().cycle().take(500).collect();
    let (status, ok) = ada.post("/post", json!({"content": text})).await;
    assert_eq!(status, 200);
    assert_eq!(ok["content"].as_str().unwrap().chars().count(), 500);
    let too_long = format!("{text}x");
    let answer = ada.post("/post", json!({"content": too_long})).await;
    assert_error(&answer, 422);
    assert!(answer.1["_message"].as_str().unwrap().contains("1 character over"), "{}", answer.1);
    assert_error(&ada.patch(&format!("/post/{post}"), json!({"content": too_long})).await, 422);

    // Over 16 KiB: 413.
    let huge = "a".repeat(17 * 1024);
    assert_error(&ada.post("/post", json!({"content": huge})).await, 413);

    let (_, p) = ada.get(&format!("/post/{post}")).await;
    assert_eq!(p["content"], "original");
    let (_, mine) = ada.get(&format!("/user/{ada_uuid}/posts/1")).await;
    assert_eq!(mine["posts"].as_array().unwrap().len(), 2, "only the two good posts exist");
}

#[tokio::test]
async fn pages_are_1_based_15_long_and_ordered() {
    let server = Server::start().await;
    let ada_uuid = server.user("ada").await;
    server.user("bob").await;
    let ada = server.client("ada").await;
    let bob = server.client("bob").await;
    let root = ada.send("root", None).await;
    let mut replies = Vec::new();
    for i in 0..17 {
        replies.push(bob.send(&format!("reply {i}"), Some(&root)).await);
    }
    let mut own = vec![root.clone()];
    for i in 0..16 {
        own.push(ada.send(&format!("post {i}"), None).await);
    }

    let uuids = |v: &Value, key: &str| {
        v[key].as_array().unwrap().iter().map(|p| p["uuid"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    // Replies: oldest first.
    let (_, p1) = ada.get(&format!("/post/{root}/replies/1")).await;
    let (_, p2) = ada.get(&format!("/post/{root}/replies/2")).await;
    let (_, p3) = ada.get(&format!("/post/{root}/replies/3")).await;
    assert_eq!(uuids(&p1, "replies"), replies[..15]);
    assert_eq!(uuids(&p2, "replies"), replies[15..]);
    assert_eq!(uuids(&p3, "replies"), Vec::<String>::new(), "past the end is empty");
    // User posts: newest first.
    let (_, u1) = ada.get(&format!("/user/{ada_uuid}/posts/1")).await;
    let (_, u2) = ada.get(&format!("/user/{ada_uuid}/posts/2")).await;
    let newest_first: Vec<String> = own.iter().rev().cloned().collect();
    assert_eq!(uuids(&u1, "posts"), newest_first[..15]);
    assert_eq!(uuids(&u2, "posts"), newest_first[15..]);

    // The last page served is empty, not page 1 again and not a panic.
    for deep in ["1000000"] {
        assert_eq!(uuids(&ada.get(&format!("/user/{ada_uuid}/posts/{deep}")).await.1, "posts"), Vec::<String>::new());
        assert_eq!(uuids(&ada.get(&format!("/post/{root}/replies/{deep}")).await.1, "replies"), Vec::<String>::new());
    }
    for bad in ["0", "-1", "abc", "1.5", "1000001", "614891469123651722", "99999999999999999999"] {
        assert_error(&ada.get(&format!("/post/{root}/replies/{bad}")).await, 400);
        assert_error(&ada.get(&format!("/user/{ada_uuid}/posts/{bad}")).await, 400);
    }
}

#[tokio::test]
async fn followers_and_following_list_the_latest_follow_first() {
    let server = Server::start().await;
    let ada = server.user("ada").await;
    let names = ["b1", "b2", "b3"];
    let mut uuids = Vec::new();
    for n in names {
        uuids.push(server.user(n).await);
        server.client(n).await.post_empty(&format!("/user/{ada}/follow")).await;
    }
    let (_, list) = server.client("ada").await.get(&format!("/user/{ada}/followers")).await;
    let got: Vec<&str> = list["followers"].as_array().unwrap().iter().map(|u| u["uuid"].as_str().unwrap()).collect();
    assert_eq!(got, [uuids[2].as_str(), uuids[1].as_str(), uuids[0].as_str()]);
    let ada_api = server.client("ada").await;
    for u in &uuids {
        ada_api.post_empty(&format!("/user/{u}/follow")).await;
    }
    let (_, list) = ada_api.get(&format!("/user/{ada}/following")).await;
    let got: Vec<&str> = list["following"].as_array().unwrap().iter().map(|u| u["uuid"].as_str().unwrap()).collect();
    assert_eq!(got, [uuids[2].as_str(), uuids[1].as_str(), uuids[0].as_str()]);
}

#[tokio::test]
async fn a_locked_post_takes_no_replies_but_its_author_may_still_change_it() {
    let server = Server::start().await;
    server.user("ada").await;
    server.user("bob").await;
    let ada = server.client("ada").await;
    let bob = server.client("bob").await;
    let (_, post) = ada.post("/post", json!({"content": "closed", "locked": true})).await;
    let p = post["uuid"].as_str().unwrap();
    assert_eq!(post["locked"], true);
    assert_error(&bob.post("/post", json!({"content": "let me in", "parent": p})).await, 403);
    assert_error(&ada.post("/post", json!({"content": "not even me", "parent": p})).await, 403);
    assert_eq!(ada.get(&format!("/post/{p}")).await.1["reply_count"], 0);
    assert_eq!(ada.patch(&format!("/post/{p}"), json!({"content": "closed, edited"})).await.0, 200);
    assert_eq!(ada.patch(&format!("/post/{p}"), json!({"locked": false})).await.0, 200);
    assert_eq!(bob.post("/post", json!({"content": "now I can", "parent": p})).await.0, 200);
    assert_eq!(ada.delete(&format!("/post/{p}")).await.0, 200);
}

#[tokio::test]
async fn deleting_keeps_the_replies_and_fixes_the_counts() {
    let server = Server::start().await;
    server.user("ada").await;
    server.user("bob").await;
    let ada = server.client("ada").await;
    let bob = server.client("bob").await;
    let root = ada.send("root", None).await;
    let middle = bob.send("middle", Some(&root)).await;
    let leaf = ada.send("leaf", Some(&middle)).await;
    let extra = bob.send("extra", Some(&root)).await;
    assert_eq!(ada.get(&format!("/post/{root}")).await.1["reply_count"], 2);
    assert_eq!(bob.delete(&format!("/post/{extra}")).await.0, 200);
    assert_eq!(ada.get(&format!("/post/{root}")).await.1["reply_count"], 1, "a deleted reply is no longer counted");

    assert_eq!(bob.delete(&format!("/post/{middle}")).await.0, 200);
    assert_error(&ada.get(&format!("/post/{middle}")).await, 404);
    let (status, orphan) = ada.get(&format!("/post/{leaf}")).await;
    assert_eq!(status, 200, "replies stay");
    assert_eq!(orphan["parent"], middle.as_str(), "the parent stays as the deleted post's uuid");
    assert_error(&ada.delete(&format!("/post/{middle}")).await, 404);
}

#[tokio::test]
async fn the_owner_sees_email_fields_only_with_user_email() {
    let server = Server::start().await;
    let uuid = server.user("ada").await;
    let (_, with) = server.client("ada").await.get("/user").await;
    assert_eq!((with["email"].as_str(), with["email_verified"].as_bool()), (Some("ada@example.org"), Some(false)));
    let (_, slash) = server.client("ada").await.get("/user/").await;
    assert_eq!(slash["uuid"], uuid.as_str());
    let (_, without) = server.client_with("ada", &all_but(Scope::UserEmail)).await.get("/user").await;
    assert!(without.as_object().unwrap().contains_key("email") && without["email"].is_null(), "{without}");
    assert!(without["email_verified"].is_null());
    let (_, by_uuid) = server.client("ada").await.get(&format!("/user/{uuid}")).await;
    assert!(!by_uuid.as_object().unwrap().contains_key("email"), "never by identifier: {by_uuid}");
}

#[tokio::test]
async fn a_token_over_its_rate_gets_429_with_retry_after() {
    let server = Server::start_with(|o| o.token_requests_per_minute = 5).await;
    server.user("ada").await;
    let token = server.token("ada", &Scope::ALL).await;
    let http = reqwest::Client::new();
    let mut last = None;
    for _ in 0..6 {
        last = Some(http.get(format!("{}/api/v1/user", server.base)).bearer_auth(&token).send().await.unwrap());
    }
    let res = last.unwrap();
    assert_eq!(res.status(), 429);
    let retry: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry));
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], 429);
    // Another token is not affected.
    assert_eq!(server.client("ada").await.get("/user").await.0, 200);
}

#[tokio::test]
async fn a_restart_keeps_everything_written() {
    let mut server = Server::start().await;
    let bob = server.user("bob").await;
    server.user("ada").await;
    let token = server.token("ada", &Scope::ALL).await;
    let ada = Api::new(&server.base, Some(token.clone()));
    let post = ada.send("survives", None).await;
    ada.post_empty(&format!("/post/{post}/like")).await;
    ada.post_empty(&format!("/user/{bob}/follow")).await;
    server.restart().await;
    let ada = Api::new(&server.base, Some(token));
    let (status, p) = ada.get(&format!("/post/{post}")).await;
    assert_eq!(status, 200, "the token survives too");
    assert_eq!(
        (p["content"].as_str(), p["like_count"].as_u64(), p["liked"].as_bool()),
        (Some("survives"), Some(1), Some(true))
    );
    assert_eq!(ada.get(&format!("/user/{bob}")).await.1["follow_count"], 1);
    server.stop().await;
}

#[tokio::test]
async fn a_read_after_anyone_s_write_sees_it_and_answers_are_kept_per_caller_and_scopes() {
    let server = Server::start().await;
    server.user("ada").await;
    server.user("bob").await;
    let (ada, bob) = (server.client("ada").await, server.client("bob").await);
    let post = ada.send("kept answers", None).await;
    // Read twice (the second from memory), then another caller writes.
    for _ in 0..2 {
        assert_eq!(ada.get(&format!("/post/{post}")).await.1["like_count"], 0);
    }
    assert_eq!(bob.post_empty(&format!("/post/{post}/like")).await.0, 200);
    let (_, seen) = ada.get(&format!("/post/{post}")).await;
    assert_eq!(seen["like_count"], 1, "the like is seen at once");
    assert_eq!(seen["liked"], false, "ada's own view, not bob's");
    assert_eq!(bob.get(&format!("/post/{post}")).await.1["liked"], true);
    let (_, edited) = ada.patch(&format!("/post/{post}"), json!({"content": "changed"})).await;
    assert_eq!(edited["content"], "changed");
    assert_eq!(bob.get(&format!("/post/{post}")).await.1["content"], "changed");
    // The same account through tokens with other scopes gets its own answers.
    let with_email = server.client("ada").await;
    let without_email = server.client_with("ada", &common::all_but(Scope::UserEmail)).await;
    for _ in 0..2 {
        assert_eq!(with_email.get("/user").await.1["email"], "ada@example.org");
        assert_eq!(without_email.get("/user").await.1["email"], Value::Null);
    }
    // A deleted post is gone for everyone who read it before.
    assert_eq!(ada.delete(&format!("/post/{post}")).await.0, 200);
    assert_error(&bob.get(&format!("/post/{post}")).await, 404);
}

#[tokio::test]
async fn api_answers_are_compressed_for_clients_that_accept_it_but_oauth_answers_never() {
    let server = Server::start().await;
    server.user("ada").await;
    let ada = server.client("ada").await;
    for n in 0..20 {
        ada.call(
            "POST",
            "/post",
            Some(json!({ "content": format!("Post {n}: words that repeat, words that repeat.") })),
        )
        .await;
    }
    let me = ada.get("/user").await.1;
    let token = server.token("ada", &[Scope::UserGet, Scope::PostGet]).await;
    let http = reqwest::Client::new();
    let page = http
        .get(format!("{}/api/v1/user/{}/posts/1", server.base, me["uuid"].as_str().unwrap()))
        .bearer_auth(&token)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers().get("content-encoding").map(|v| v.to_str().unwrap()), Some("gzip"));
    assert_eq!(page.headers()["cache-control"], "no-store", "still personal");
    // Without Accept-Encoding, plain JSON as before.
    let plain = http
        .get(format!("{}/api/v1/user/{}/posts/1", server.base, me["uuid"].as_str().unwrap()))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    assert!(plain.json::<Value>().await.unwrap()["posts"].as_array().unwrap().len() >= 15);
    // The token endpoint's answers hold secrets next to what a client sent: never compressed.
    let token_answer = http
        .post(format!("{}/api/oauth/refreshtoken", server.base))
        .header("accept-encoding", "gzip, br")
        .json(&json!({ "refreshToken": "made-up-but-long-enough-to-be-worth-compressing" }))
        .send()
        .await
        .unwrap();
    assert_eq!(token_answer.status(), 401);
    assert!(token_answer.headers().get("content-encoding").is_none());
}

#[tokio::test]
async fn replies_and_embedded_parents_only_for_a_token_that_may_read_them() {
    let server = Server::start().await;
    let ada_uuid = server.user("ada").await;
    server.user("bob").await;
    let (ada, bob) = (server.client("ada").await, server.client("bob").await);
    let root = bob.send("bob's post", None).await;
    let first = ada.send("ada's post", None).await;
    let reply = ada.send("ada's reply", Some(&root)).await;
    let deeper = ada.send("ada's reply to her reply", Some(&reply)).await;

    // Without reply.get, a user's posts are their posts alone.
    let no_replies = server.client_with("bob", &[Scope::UserGet, Scope::PostGet]).await;
    let (status, page) = no_replies.get(&format!("/user/{ada_uuid}/posts/1")).await;
    assert_eq!(status, 200, "{page}");
    let listed: Vec<&str> = page["posts"].as_array().unwrap().iter().map(|p| p["uuid"].as_str().unwrap()).collect();
    assert_eq!(listed, [first.as_str()], "no reply reaches a token without reply.get");
    // With it, replies are there, newest first.
    let (_, page) = bob.get(&format!("/user/{ada_uuid}/posts/1")).await;
    let listed: Vec<&str> = page["posts"].as_array().unwrap().iter().map(|p| p["uuid"].as_str().unwrap()).collect();
    assert_eq!(listed, [deeper.as_str(), reply.as_str(), first.as_str()]);

    // Only reply.get: a reply's top-level parent is its uuid, not its content.
    let replies_only = server.client_with("bob", &[Scope::ReplyGet]).await;
    let (status, got) = replies_only.get(&format!("/post/{reply}")).await;
    assert_eq!(status, 200, "{got}");
    assert_eq!(got["parent"], root.as_str(), "the parent post is given as its uuid");
    // A reply's parent that is a reply is readable with reply.get.
    let (_, got) = replies_only.get(&format!("/post/{deeper}")).await;
    assert_eq!(got["parent"]["uuid"], reply.as_str());
    assert_eq!(got["parent"]["content"], "ada's reply");
    // With post.get too, the parent post is embedded as before.
    let (_, got) = bob.get(&format!("/post/{reply}")).await;
    assert_eq!(got["parent"]["content"], "bob's post");
}

#[tokio::test]
async fn reads_carry_an_etag_per_caller_and_a_repeat_of_it_answers_304_without_a_body() {
    let server = Server::start().await;
    let ada_id = server.user("ada").await;
    server.user("bob").await;
    let (ada, bob) = (server.client("ada").await, server.client("bob").await);
    let post = ada.send("watched for replies", None).await;
    let posts = format!("/user/{ada_id}/posts/1");
    let (status, tag, body) = ada.get_if(&posts, None).await;
    assert_eq!(status, 200, "{body}");
    let tag = tag.expect("a 200 carries an ETag");
    assert!(tag.starts_with("W/\""), "weak: {tag}");
    // Nothing changed: 304 and no body, from memory and after it expired.
    for _ in 0..2 {
        let (status, again, body) = ada.get_if(&posts, Some(&tag)).await;
        assert_eq!((status, body.as_str()), (304, ""));
        assert_eq!(again.as_deref(), Some(tag.as_str()));
    }
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    assert_eq!(ada.get_if(&posts, Some(&tag)).await.0, 304);
    // A reply by someone else changes the reply count: a new tag, and a 200.
    bob.send("an answer", Some(&post)).await;
    let (status, changed, body) = ada.get_if(&posts, Some(&tag)).await;
    assert_eq!(status, 200);
    assert_ne!(changed.as_deref(), Some(tag.as_str()));
    assert!(body.contains("\"reply_count\":1"), "{body}");
    // Per caller: the owner's email is never given to another caller by a
    // 304 (the same address, `/user`, is each caller's own).
    let (_, own_tag, own) = ada.get_if("/user", None).await;
    assert!(own.contains("ada@example.org"), "{own}");
    let (status, _, other) = bob.get_if("/user", own_tag.as_deref()).await;
    assert_eq!(status, 200, "bob is not told he holds ada's own view");
    assert!(!other.contains("ada@example.org"), "{other}");
    // Nor by the same account through a token with fewer scopes.
    let no_email = server.client_with("ada", &common::all_but(Scope::UserEmail)).await;
    assert_eq!(no_email.get_if("/user", own_tag.as_deref()).await.0, 200);
    // Followers: a new follower changes the tag.
    let followers = format!("/user/{ada_id}/followers");
    let (_, before, _) = ada.get_if(&followers, None).await;
    assert_eq!(ada.get_if(&followers, before.as_deref()).await.0, 304);
    assert_eq!(bob.post_empty(&format!("/user/{ada_id}/follow")).await.0, 200);
    assert_eq!(ada.get_if(&followers, before.as_deref()).await.0, 200);
    server.stop().await;
}
