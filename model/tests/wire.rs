//! The wire types against the seed's shapes (every field of its tables) and
//! against each tolerant-reading case of the contract.

use perch_model::*;
use serde_json::{json, Value};

fn seed_user() -> Value {
    json!({
        "uuid": "u-1", "username": "ada", "display_name": "Ada Lovelace",
        "avatar": "https://avatars.example/ada.png",
        "badge": ["staff", "verified"], "bio": "Analyst.",
        "follow_count": 12, "following_count": 3,
        "joined": "2026-01-02T03:04:05.006Z"
    })
}

fn seed_post() -> Value {
    json!({
        "uuid": "p-2",
        "parent": {
            "uuid": "p-1", "parent": null, "author": seed_user(), "content": "root",
            "from": {"uuid": "a-1", "name": "Perch", "website": null},
            "locked": false, "reply_count": 1, "like_count": 0,
            "created_at": "2026-11-22T11:00:00.000Z"
        },
        "author": seed_user(),
        "content": "a reply",
        "from": {"uuid": "a-1", "name": "Perch", "website": "https://perch.example"},
        "locked": true, "reply_count": 0, "like_count": 5,
        "created_at": "2026-11-22T12:00:00.123Z"
    })
}

/// Reading the canonical form and writing it again gives the same JSON.
fn round_trips<T: serde::de::DeserializeOwned + serde::Serialize>(v: Value) -> T {
    let parsed: T = serde_json::from_value(v.clone()).expect("parses");
    assert_eq!(serde_json::to_value(&parsed).unwrap(), v);
    parsed
}

#[test]
fn post_object_has_every_seed_field() {
    let post: Post = round_trips(seed_post());
    assert_eq!(post.uuid, "p-2");
    assert_eq!(post.parent.uuid(), Some("p-1"));
    let parent = post.parent.post().unwrap();
    assert_eq!(parent.parent, Parent::None);
    assert_eq!(post.author.username, "ada");
    assert_eq!(post.from.as_ref().unwrap().website.as_deref(), Some("https://perch.example"));
    assert!(post.locked);
    assert_eq!((post.reply_count, post.like_count), (0, 5));
    assert_eq!(post.created_at.unwrap().to_rfc3339(), "2026-11-22T12:00:00.123Z");
    assert_eq!(post.liked, None);
}

#[test]
fn user_object_has_every_seed_field_and_email_visibility() {
    let user: User = round_trips(seed_user());
    assert_eq!(user.badge, vec![Badge("staff".into()), Badge("verified".into())]);
    assert_eq!((user.follow_count, user.following_count), (12, 3));
    assert_eq!(user.email, None, "other users: the email fields are absent");

    // The owner without user.email: both fields present and null.
    let mut owner = seed_user();
    owner["email"] = Value::Null;
    owner["email_verified"] = Value::Null;
    let parsed: User = round_trips(owner);
    assert_eq!(parsed.email, Some(None));
    assert_eq!(parsed.email_verified, Some(None));

    // The owner with user.email.
    let mut owner = seed_user();
    owner["email"] = json!("ada@example.org");
    owner["email_verified"] = json!(true);
    let parsed: User = round_trips(owner);
    assert_eq!(parsed.email, Some(Some("ada@example.org".into())));
    assert_eq!(parsed.email_verified, Some(Some(true)));
}

#[test]
fn every_operation_body_round_trips() {
    let _: RepliesPage = round_trips(json!({"post": seed_post(), "replies": [seed_post(), seed_post()]}));
    let _: UserPostsPage = round_trips(json!({"user": "u-1", "posts": [seed_post()]}));
    let like: LikeResult = round_trips(json!({"action": "liked", "uuid": "p-2"}));
    assert_eq!(like.action, LikeAction::Liked);
    let unlike: LikeResult = round_trips(json!({"action": "unliked", "uuid": "p-2"}));
    assert_eq!(unlike.action, LikeAction::Unliked);
    let follow: FollowResult = round_trips(json!({"action": "followed", "uuid": "u-1"}));
    assert_eq!(follow.action, FollowAction::Followed);
    let _: FollowResult = round_trips(json!({"action": "unfollowed", "uuid": "u-1"}));
    let _: FollowingList = round_trips(json!({"following": [seed_user()]}));
    let _: FollowersList = round_trips(json!({"followers": [seed_user()]}));
    let _: Ping = round_trips(json!({"ping": "pong"}));
    let err: ErrorBody = round_trips(json!({"code": 422, "_message": "too long"}));
    assert_eq!(err.message, "too long");
    let tokens: TokenSet = round_trips(json!({
        "token": "t", "token_expires_at": "2026-11-29T12:00:00.000Z",
        "refresh_token": "r", "refresh_token_expires_at": "2026-12-22T12:00:00.000Z",
        "scopes": ["post.get", "user.get"]
    }));
    assert_eq!(tokens.scopes, vec![Scope::PostGet, Scope::UserGet]);
    let _: CodeExchange = round_trips(json!({"code": "c", "code_verifier": "v"}));
    let _: RefreshRequest = round_trips(json!({"refreshToken": "r"}));
}

#[test]
fn send_and_update_bodies_follow_the_contract() {
    // content required; locked defaults to false; parent optional.
    let post: NewPost = serde_json::from_value(json!({"content": "hi"})).unwrap();
    assert_eq!(post, NewPost { content: "hi".into(), locked: false, parent: None });
    assert_eq!(serde_json::to_value(&post).unwrap(), json!({"content": "hi", "locked": false}));
    let reply: NewPost = round_trips(json!({"content": "hi", "locked": true, "parent": "p-1"}));
    assert_eq!(reply.parent.as_deref(), Some("p-1"));
    assert!(serde_json::from_value::<NewPost>(json!({"locked": true})).is_err(), "content is required");
    assert!(
        serde_json::from_value::<NewPost>(json!({"content": "x", "extra": 1})).is_err(),
        "unknown fields are refused"
    );
    assert!(serde_json::from_value::<NewPost>(json!({"content": 5})).is_err(), "wrong type");

    let update: PostUpdate = round_trips(json!({"locked": true}));
    assert!(!update.is_empty());
    let empty: PostUpdate = serde_json::from_value(json!({})).unwrap();
    assert!(empty.is_empty());
    assert!(serde_json::from_value::<PostUpdate>(json!({"parent": "p"})).is_err());
}

#[test]
fn tolerant_parent_null_string_or_object() {
    let mut p = seed_post();
    p["parent"] = Value::Null;
    assert_eq!(serde_json::from_value::<Post>(p.clone()).unwrap().parent, Parent::None);
    p["parent"] = json!("p-deleted");
    let post: Post = serde_json::from_value(p.clone()).unwrap();
    assert_eq!(post.parent, Parent::Uuid("p-deleted".into()));
    assert!(post.parent.is_reply());
    p.as_object_mut().unwrap().remove("parent");
    assert_eq!(serde_json::from_value::<Post>(p).unwrap().parent, Parent::None, "a missing parent is a top-level post");
}

#[test]
fn tolerant_timestamps_reach_the_post() {
    for (wire, want) in [
        (json!("2026-11-22T12:00:00Z"), "2026-11-22T12:00:00.000Z"),
        (json!("2026-11-22 12:00:00"), "2026-11-22T12:00:00.000Z"),
        (json!(1795348800), "2026-11-22T12:00:00.000Z"),
        (json!(1795348800123i64), "2026-11-22T12:00:00.123Z"),
    ] {
        let mut p = seed_post();
        p["created_at"] = wire.clone();
        let post: Post = serde_json::from_value(p).unwrap();
        assert_eq!(post.created_at.unwrap().to_rfc3339(), want, "{wire}");
        // Written back in the canonical form.
        assert_eq!(serde_json::to_value(&post).unwrap()["created_at"], json!(want));
    }
}

#[test]
fn tolerant_badges_strings_or_objects() {
    let mut u = seed_user();
    u["badge"] = json!(["staff", {"name": "verified", "color": "blue"}]);
    let user: User = serde_json::from_value(u).unwrap();
    assert_eq!(user.badge, vec![Badge("staff".into()), Badge("verified".into())]);
    assert_eq!(serde_json::to_value(&user).unwrap()["badge"], json!(["staff", "verified"]));
}

#[test]
fn tolerant_follow_lists_users_or_uuids() {
    let list: FollowersList = serde_json::from_value(json!({"followers": [seed_user(), "u-9"]})).unwrap();
    assert_eq!(list.followers[0].uuid(), "u-1");
    assert_eq!(list.followers[0].user().unwrap().display_name, "Ada Lovelace");
    assert_eq!(list.followers[0].user().unwrap().shown_name(), "Ada Lovelace");
    assert_eq!(list.followers[1], UserRef::Uuid("u-9".into()));
    let list: FollowingList = serde_json::from_value(json!({"following": ["u-2", "u-3"]})).unwrap();
    assert_eq!(list.following.iter().map(UserRef::uuid).collect::<Vec<_>>(), ["u-2", "u-3"]);
}

#[test]
fn tolerant_missing_and_null_fields_and_unknown_extras() {
    let user: User = serde_json::from_value(json!({
        "uuid": "u-1", "username": "ada", "bio": null, "badge": null, "avatar": null,
        "something_new": {"nested": true}
    }))
    .unwrap();
    assert_eq!(user.bio, "");
    assert!(user.badge.is_empty());
    assert_eq!(user.display_name, "");
    assert_eq!(user.shown_name(), "ada", "a user without a display name is shown by username");
    assert_eq!(user.joined, None);

    let post: Post = serde_json::from_value(json!({"uuid": "p", "content": "only this"})).unwrap();
    assert_eq!(post.content, "only this");
    assert_eq!(post.from, None);
    assert_eq!(post.created_at, None);
    assert_eq!((post.like_count, post.reply_count, post.locked), (0, 0, false));

    let page: RepliesPage = serde_json::from_value(json!({"post": {"uuid": "p"}})).unwrap();
    assert!(page.replies.is_empty());
    let page: UserPostsPage = serde_json::from_value(json!({"user": seed_user(), "posts": null})).unwrap();
    assert_eq!(page.user.uuid(), "u-1");
}

#[test]
fn optional_extensions_are_read_when_present() {
    let mut p = seed_post();
    p["liked"] = json!(true);
    assert_eq!(round_trips::<Post>(p).liked, Some(true));
    let mut u = seed_user();
    u["followed"] = json!(false);
    assert_eq!(round_trips::<User>(u).followed, Some(false));
}

#[test]
fn token_scopes_read_from_a_joined_string_and_skip_unknown_names() {
    let tokens: TokenSet = serde_json::from_value(json!({
        "token": "t", "token_expires_at": 1795348800, "refresh_token": "r",
        "refresh_token_expires_at": 1795348800, "scopes": "post.get, user.get,admin.everything"
    }))
    .unwrap();
    assert_eq!(tokens.scopes, vec![Scope::PostGet, Scope::UserGet]);
}

#[test]
fn token_scopes_read_null_as_none() {
    let tokens: TokenSet = serde_json::from_str(
        r#"{"token": "t", "token_expires_at": 1795348800, "refresh_token": "r",
            "refresh_token_expires_at": 1795348800, "scopes": null}"#,
    )
    .unwrap();
    assert_eq!(tokens.scopes, vec![]);
}

#[test]
fn a_body_of_the_wrong_shape_is_refused_saying_what_was_expected() {
    // These words reach a client in a 422 or an error log: they must say
    // what the field may be.
    let cases = [
        (
            r#"{"token": "t", "token_expires_at": 1, "refresh_token": "r", "refresh_token_expires_at": 1, "scopes": 7}"#,
            "a list of names, a comma-separated string or null",
        ),
        (
            r#"{"token": "t", "token_expires_at": true, "refresh_token": "r", "refresh_token_expires_at": 1}"#,
            "an RFC 3339 time",
        ),
    ];
    for (body, expected) in cases {
        let error = serde_json::from_str::<TokenSet>(body).unwrap_err().to_string();
        assert!(error.contains(expected), "{error}");
    }
    let mut post = seed_post();
    post["parent"] = json!(7);
    let error = serde_json::from_str::<Post>(&post.to_string()).unwrap_err().to_string();
    assert!(error.contains("null, a post's uuid or a post"), "{error}");
}

#[test]
fn parents_and_user_refs_read_from_text_as_the_app_reads_them() {
    // The app reads bodies with `serde_json::from_str`: the same shapes as
    // above, through that reader.
    let mut post = seed_post();
    let text = serde_json::to_string(&post).unwrap();
    let read: Post = serde_json::from_str(&text).unwrap();
    assert_eq!(read.parent.post().map(|p| p.content.as_str()), Some("root"));
    assert_eq!(read.parent.post().unwrap().author.username, seed_user()["username"]);
    post["parent"] = json!("p-gone");
    assert_eq!(serde_json::from_str::<Post>(&post.to_string()).unwrap().parent, Parent::Uuid("p-gone".into()));
    post["parent"] = Value::Null;
    assert_eq!(serde_json::from_str::<Post>(&post.to_string()).unwrap().parent, Parent::None);
    for wrong in [json!(7), json!([1]), json!(true)] {
        post["parent"] = wrong.clone();
        assert!(serde_json::from_str::<Post>(&post.to_string()).is_err(), "parent {wrong} is refused");
    }

    let list = r#"{"followers": [{"uuid": "u-1", "username": "ada"}, "u-9"]}"#;
    let list: FollowersList = serde_json::from_str(list).unwrap();
    assert_eq!(list.followers[0].user().map(|u| u.username.as_str()), Some("ada"));
    assert_eq!(list.followers[1], UserRef::Uuid("u-9".into()));
    let page: UserPostsPage = serde_json::from_str(r#"{"user": null, "posts": []}"#).unwrap();
    assert_eq!(page.user.uuid(), "", "a null user reads as none, as other nulls do");
    assert!(serde_json::from_str::<UserPostsPage>(r#"{"user": 5, "posts": []}"#).is_err());
}
