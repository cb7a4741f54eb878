//! Users: operations 7 to 11. A user is named in a path by uuid or by
//! `@username` (case-insensitive); `/user` alone is the token's owner.

use super::rows::{
    embed_parents, post_page, user_from_row, PostPage, FOLLOWERS, FOLLOWING, OWNER, USER_BY_NAME, USER_BY_UUID,
};
use crate::db::now_ms;
use crate::error::{Error, Malformed, NotFound, Refused, Result};
use crate::extractor::{page, Caller};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::{routing, Json, Router};
use perch_model::{
    FollowAction, FollowResult, FollowersList, FollowingList, Operation, Scope, Subject, User, UserPostsPage, UserRef,
};
use sqlx::Row;

/// Operations 7 to 11, under `/user`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/user", routing::get(owner))
        .route("/user/", routing::get(owner))
        .route("/user/{id}", routing::get(get))
        .route("/user/{id}/posts/{page}", routing::get(posts))
        .route("/user/{id}/follow", routing::post(follow))
        .route("/user/{id}/following", routing::get(following))
        .route("/user/{id}/followers", routing::get(followers))
}

/// A user by `@name` or uuid, with its row id.
async fn find_user(state: &AppState, caller: &Caller, id: &str) -> Result<(i64, User)> {
    let (sql, key) = match id.strip_prefix('@') {
        Some(name) => (USER_BY_NAME, name),
        None => (USER_BY_UUID, id),
    };
    let row = sqlx::query(sql)
        .bind(caller.user_id)
        .bind(key)
        .fetch_optional(&state.db)
        .await?
        .ok_or_else(|| Error::NotFound("There is no such user.".into()))?;
    Ok((row.get("id"), user_from_row(&row, "")))
}

/// 7. GET /user/{uuid} or /user/@{username}: never with email fields.
#[utoipa::path(
    get,
    path = "/api/v1/user/{id}",
    tag = "users",
    summary = "7. Get User",
    params(("id" = String, Path, description = "The user's uuid, or @username")),
    responses((status = 200, description = "The user, without email fields", body = User), Refused, NotFound),
    security(("bearer" = ["user.get"]))
)]
pub async fn get(State(state): State<AppState>, caller: Caller, Path(id): Path<String>) -> Result<Json<User>> {
    caller.require(Operation::GetUser, Subject::Post)?;
    Ok(Json(find_user(&state, &caller, &id).await?.1))
}

/// 7. GET /user: the token's owner, with email fields filled only for `user.email`.
#[utoipa::path(
    get,
    path = "/api/v1/user",
    tag = "users",
    summary = "7. Get User (the token's owner)",
    responses((status = 200, description = "The token's owner; email fields null without user.email", body = User), Refused),
    security(("bearer" = ["user.get"]))
)]
pub async fn owner(State(state): State<AppState>, caller: Caller) -> Result<Json<User>> {
    caller.require(Operation::GetUser, Subject::Post)?;
    let row = sqlx::query(OWNER).bind(caller.user_id).fetch_one(&state.db).await?;
    let mut user = user_from_row(&row, "");
    user.followed = None;
    if caller.has(Scope::UserEmail) {
        user.email = Some(row.get("email"));
        user.email_verified = Some(Some(row.get("email_verified")));
    } else {
        user.email = Some(None);
        user.email_verified = Some(None);
    }
    Ok(Json(user))
}

/// 8. GET /user/{uuid}/posts/{page}: newest first, posts and (for a token
/// with `reply.get`) replies alike.
#[utoipa::path(
    get,
    path = "/api/v1/user/{id}/posts/{page}",
    tag = "users",
    summary = "8. Get User Posts",
    params(("id" = String, Path, description = "The user's uuid, or @username"), ("page" = u32, Path, minimum = 1, maximum = 1000000, description = "1-based page of 15; past the end is an empty list")),
    responses((status = 200, description = "A page of the user's posts and replies, newest first", body = UserPostsPage), Malformed, Refused, NotFound),
    security(("bearer" = ["user.get", "post.get"]))
)]
pub async fn posts(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, page_text)): Path<(String, String)>,
) -> Result<Json<UserPostsPage>> {
    caller.require(Operation::GetUserPosts, Subject::Post)?;
    let page = page(&page_text)?;
    let (user_id, user) = find_user(&state, &caller, &id).await?;
    // Replies only for a token that may read replies (least privilege,
    // docs/api.md); the page is cut in SQL, so pages stay 15 long.
    let which = if caller.has(Scope::ReplyGet) { PostPage::ByAuthor } else { PostPage::TopLevelByAuthor };
    let mut posts = post_page(&state.db, caller.user_id, which, user_id, page).await?;
    embed_parents(&state.db, &caller, &mut posts).await?;
    Ok(Json(UserPostsPage { user: UserRef::Uuid(user.uuid), posts }))
}

/// 9. POST /user/{uuid}/follow: a toggle, atomic per caller.
#[utoipa::path(
    post,
    path = "/api/v1/user/{id}/follow",
    tag = "users",
    summary = "9. Follow/Unfollow (a toggle)",
    params(("id" = String, Path, description = "The user's uuid, or @username")),
    responses((status = 200, description = "What this call did", body = FollowResult), Malformed, Refused, NotFound),
    security(("bearer" = ["user.get", "user.follow"]))
)]
pub async fn follow(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<FollowResult>> {
    caller.require(Operation::FollowUser, Subject::Post)?;
    let (target, user) = find_user(&state, &caller, &id).await?;
    if target == caller.user_id {
        return Err(Error::BadRequest("You cannot follow yourself.".into()));
    }
    let _write = state.write_lock.lock().await;
    let mut tx = crate::db::write(&state.db).await?;
    let removed = sqlx::query("DELETE FROM follows WHERE follower_id = ? AND followee_id = ?")
        .bind(caller.user_id)
        .bind(target)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    let (action, delta) = if removed == 1 {
        (FollowAction::Unfollowed, -1)
    } else {
        sqlx::query(
            "INSERT INTO follows (follower_id, followee_id, created_ms, seq) \
             VALUES (?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM follows))",
        )
        .bind(caller.user_id)
        .bind(target)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        (FollowAction::Followed, 1)
    };
    sqlx::query("UPDATE users SET following_count = MAX(following_count + ?, 0) WHERE id = ?")
        .bind(delta)
        .bind(caller.user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE users SET follower_count = MAX(follower_count + ?, 0) WHERE id = ?")
        .bind(delta)
        .bind(target)
        .execute(&mut *tx)
        .await?;
    let answer = FollowResult { action, uuid: user.uuid };
    crate::idempotency::commit(tx, &answer).await?;
    Ok(Json(answer))
}

/// The users on one side of `follows`, most recent follow first.
async fn follow_list(state: &AppState, caller: &Caller, user_id: i64, followers: bool) -> Result<Vec<UserRef>> {
    let rows = sqlx::query(if followers { FOLLOWERS } else { FOLLOWING })
        .bind(caller.user_id)
        .bind(user_id)
        .fetch_all(&state.db)
        .await?;
    Ok(rows.iter().map(|r| UserRef::User(Box::new(user_from_row(r, "")))).collect())
}

/// 10. GET /user/{uuid}/following
#[utoipa::path(
    get,
    path = "/api/v1/user/{id}/following",
    tag = "users",
    summary = "10. Get Following",
    params(("id" = String, Path, description = "The user's uuid, or @username")),
    responses((status = 200, description = "Whom the user follows, latest first", body = FollowingList), Refused, NotFound),
    security(("bearer" = ["user.get", "user.following.get"]))
)]
pub async fn following(state: State<AppState>, caller: Caller, id: Path<String>) -> Result<Json<FollowingList>> {
    let following = listed(state, caller, id, Operation::GetFollowing).await?;
    Ok(Json(FollowingList { following }))
}

/// 11. GET /user/{uuid}/followers
#[utoipa::path(
    get,
    path = "/api/v1/user/{id}/followers",
    tag = "users",
    summary = "11. Get Followers",
    params(("id" = String, Path, description = "The user's uuid, or @username")),
    responses((status = 200, description = "Who follows the user, latest first", body = FollowersList), Refused, NotFound),
    security(("bearer" = ["user.get", "user.followers.get"]))
)]
pub async fn followers(state: State<AppState>, caller: Caller, id: Path<String>) -> Result<Json<FollowersList>> {
    let followers = listed(state, caller, id, Operation::GetFollowers).await?;
    Ok(Json(FollowersList { followers }))
}

/// 10 and 11, one shape: the scope check of `operation`, the user, and the
/// list it names (whom they follow, or who follows them).
async fn listed(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    operation: Operation,
) -> Result<Vec<UserRef>> {
    caller.require(operation, Subject::Post)?;
    let (user_id, _) = find_user(&state, &caller, &id).await?;
    follow_list(&state, &caller, user_id, operation == Operation::GetFollowers).await
}
