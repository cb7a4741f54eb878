//! Posts and replies: operations 1 to 6. A post's subject (post or reply)
//! picks the scope set; edits and deletes are the author's alone.

use super::rows::{embed_parents, find_post, post_page, PostPage};
use crate::db::now_ms;
use crate::error::{ContentRefused, Error, Malformed, NotFound, Refused, Result};
use crate::extractor::{page, Caller, JsonBody};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::{routing, Json, Router};
use perch_model::{
    validate_content, LikeAction, LikeResult, NewPost, Operation, Post, PostUpdate, RepliesPage, Subject,
};
use sqlx::SqliteConnection;

/// Operations 1 to 6, under `/post`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/post", routing::post(send))
        .route("/post/{uuid}", routing::get(get).patch(update).delete(delete))
        .route("/post/{uuid}/replies/{page}", routing::get(replies))
        .route("/post/{uuid}/like", routing::post(like))
}

fn not_found() -> Error {
    Error::NotFound("There is no such post.".into())
}

fn subject(post: &Post) -> Subject {
    Subject::of(post.parent.is_reply())
}

fn check_content(text: &str) -> Result<()> {
    validate_content(text).map_err(|e| Error::Unprocessable(e.to_string()))
}

/// The post as operation 1 answers it: found, scope-checked, parent embedded.
async fn visible_post(state: &AppState, caller: &Caller, uuid: &str, op: Operation) -> Result<(i64, Post)> {
    let mut conn = state.db.acquire().await?;
    visible_post_in(&mut conn, caller, uuid, op).await
}

/// [`visible_post`] as a transaction sees it: a write's answer is read
/// inside its transaction, so it is kept with it (`idempotency::commit`).
async fn visible_post_in(
    conn: &mut SqliteConnection,
    caller: &Caller,
    uuid: &str,
    op: Operation,
) -> Result<(i64, Post)> {
    let (id, mut post) = find_post(&mut *conn, caller.user_id, uuid).await?.ok_or_else(not_found)?;
    caller.require(op, subject(&post))?;
    embed_parents(&mut *conn, caller, std::slice::from_mut(&mut post)).await?;
    Ok((id, post))
}

/// Fails unless the caller wrote the post.
async fn check_author(state: &AppState, caller: &Caller, post_id: i64) -> Result<()> {
    // Gone since it was found (a delete won the race): 404, as for any
    // post that does not exist.
    let author: i64 = sqlx::query_scalar("SELECT author_id FROM posts WHERE id = ?")
        .bind(post_id)
        .fetch_optional(&state.db)
        .await?
        .ok_or_else(not_found)?;
    if author != caller.user_id {
        return Err(Error::Forbidden("Only the author of a post may change or delete it.".into()));
    }
    Ok(())
}

/// 1. GET /post/{uuid}
#[utoipa::path(
    get,
    path = "/api/v1/post/{uuid}",
    tag = "posts",
    summary = "1. Get Post",
    params(("uuid" = String, Path, description = "The post's uuid")),
    responses((status = 200, description = "The post", body = Post), Refused, NotFound),
    security(("bearer" = ["post.get"]), ("bearer" = ["reply.get"]))
)]
pub async fn get(State(state): State<AppState>, caller: Caller, Path(uuid): Path<String>) -> Result<Json<Post>> {
    Ok(Json(visible_post(&state, &caller, &uuid, Operation::GetPost).await?.1))
}

/// 2. GET /post/{uuid}/replies/{page}: oldest first, 15 a page.
#[utoipa::path(
    get,
    path = "/api/v1/post/{uuid}/replies/{page}",
    tag = "posts",
    summary = "2. Get Post Replies",
    params(("uuid" = String, Path, description = "The post's uuid"), ("page" = u32, Path, minimum = 1, maximum = 1000000, description = "1-based page of 15; past the end is an empty list")),
    responses((status = 200, description = "The post and a page of its replies, oldest first", body = RepliesPage), Malformed, Refused, NotFound),
    security(("bearer" = ["post.get", "reply.get"]))
)]
pub async fn replies(
    State(state): State<AppState>,
    caller: Caller,
    Path((uuid, page_text)): Path<(String, String)>,
) -> Result<Json<RepliesPage>> {
    caller.require(Operation::GetPostReplies, Subject::Post)?;
    let page = page(&page_text)?;
    let (_, post) = visible_post(&state, &caller, &uuid, Operation::GetPostReplies).await?;
    let mut flat_parent = post.clone();
    if let Some(grandparent) = post.parent.uuid() {
        flat_parent.parent = perch_model::Parent::Uuid(grandparent.to_owned());
    }
    let replies = post_page(&state.db, caller.user_id, PostPage::Replies, uuid.clone(), page)
        .await?
        .into_iter()
        .map(|mut reply| {
            reply.parent = perch_model::Parent::Post(Box::new(flat_parent.clone()));
            reply
        })
        .collect();
    Ok(Json(RepliesPage { post, replies }))
}

/// 3. POST /post: a post, or a reply when `parent` is given.
#[utoipa::path(
    post,
    path = "/api/v1/post",
    tag = "posts",
    summary = "3. Send Post (a reply when parent is given)",
    request_body = NewPost,
    responses((status = 200, description = "The new post", body = Post), Malformed, Refused, NotFound, ContentRefused),
    security(("bearer" = ["post.get", "post.send"]), ("bearer" = ["reply.get", "reply.post"]))
)]
pub async fn send(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody<NewPost>,
) -> Result<Json<Post>> {
    caller.require(Operation::SendPost, Subject::of(body.parent.is_some()))?;
    check_content(&body.content)?;
    let _write = state.write_lock.lock().await;
    let mut tx = crate::db::write(&state.db).await?;
    if let Some(parent) = &body.parent {
        let locked: bool = sqlx::query_scalar("SELECT locked FROM posts WHERE uuid = ?")
            .bind(parent)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| Error::NotFound("The post replied to does not exist.".into()))?;
        if locked {
            return Err(Error::Forbidden("This post is locked: nobody may reply to it.".into()));
        }
        sqlx::query("UPDATE posts SET reply_count = reply_count + 1 WHERE uuid = ?")
            .bind(parent)
            .execute(&mut *tx)
            .await?;
    }
    let uuid = uuid::Uuid::new_v4().to_string();
    sqlx::query(
        "INSERT INTO posts (uuid, author_id, parent_uuid, application_id, content, locked, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&uuid)
    .bind(caller.user_id)
    .bind(&body.parent)
    .bind(caller.application_id)
    .bind(&body.content)
    .bind(body.locked)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    // Sending needs the matching `get` scope, so the caller may read what it wrote.
    let (_, post) = visible_post_in(&mut tx, &caller, &uuid, Operation::GetPost).await?;
    crate::idempotency::commit(tx, &post).await?;
    Ok(Json(post))
}

/// 4. PATCH /post/{uuid}: content and/or locked, by the author.
#[utoipa::path(
    patch,
    path = "/api/v1/post/{uuid}",
    tag = "posts",
    summary = "4. Update Post",
    request_body = PostUpdate,
    params(("uuid" = String, Path, description = "The post's uuid")),
    responses((status = 200, description = "The changed post", body = Post), Malformed, Refused, NotFound, ContentRefused),
    security(("bearer" = ["post.get", "post.edit"]), ("bearer" = ["reply.get", "reply.edit"]))
)]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(uuid): Path<String>,
    JsonBody(body): JsonBody<PostUpdate>,
) -> Result<Json<Post>> {
    if body.is_empty() {
        return Err(Error::BadRequest("Nothing to change: send content, locked, or both.".into()));
    }
    let (id, post) = find_post(&state.db, caller.user_id, &uuid).await?.ok_or_else(not_found)?;
    caller.require(Operation::UpdatePost, subject(&post))?;
    check_author(&state, &caller, id).await?;
    if let Some(content) = &body.content {
        check_content(content)?;
    }
    let _write = state.write_lock.lock().await;
    let mut tx = crate::db::write(&state.db).await?;
    let changed =
        sqlx::query("UPDATE posts SET content = COALESCE(?, content), locked = COALESCE(?, locked) WHERE id = ?")
            .bind(&body.content)
            .bind(body.locked)
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    if changed == 0 {
        return Err(not_found());
    }
    let (_, post) = visible_post_in(&mut tx, &caller, &uuid, Operation::UpdatePost).await?;
    crate::idempotency::commit(tx, &post).await?;
    Ok(Json(post))
}

/// 5. DELETE /post/{uuid}: by the author; answers the post as it was.
/// Its replies stay, keeping its uuid as their parent.
#[utoipa::path(
    delete,
    path = "/api/v1/post/{uuid}",
    tag = "posts",
    summary = "5. Delete Post",
    params(("uuid" = String, Path, description = "The post's uuid")),
    responses((status = 200, description = "The deleted post", body = Post), Refused, NotFound),
    security(("bearer" = ["post.get", "post.delete"]), ("bearer" = ["reply.get", "reply.delete"]))
)]
pub async fn delete(State(state): State<AppState>, caller: Caller, Path(uuid): Path<String>) -> Result<Json<Post>> {
    let (id, post) = visible_post(&state, &caller, &uuid, Operation::DeletePost).await?;
    check_author(&state, &caller, id).await?;
    let _write = state.write_lock.lock().await;
    let mut tx = crate::db::write(&state.db).await?;
    let deleted = sqlx::query("DELETE FROM posts WHERE id = ?").bind(id).execute(&mut *tx).await?.rows_affected();
    if deleted == 0 {
        return Err(not_found());
    }
    if let Some(parent) = post.parent.uuid() {
        sqlx::query("UPDATE posts SET reply_count = reply_count - 1 WHERE uuid = ? AND reply_count > 0")
            .bind(parent)
            .execute(&mut *tx)
            .await?;
    }
    crate::idempotency::commit(tx, &post).await?;
    Ok(Json(post))
}

/// 6. POST /post/{uuid}/like: a toggle, atomic per caller.
#[utoipa::path(
    post,
    path = "/api/v1/post/{uuid}/like",
    tag = "posts",
    summary = "6. Like/Unlike (a toggle)",
    params(("uuid" = String, Path, description = "The post's uuid")),
    responses((status = 200, description = "What this call did", body = LikeResult), Refused, NotFound),
    security(("bearer" = ["post.get", "post.like"]), ("bearer" = ["reply.get", "reply.like"]))
)]
pub async fn like(State(state): State<AppState>, caller: Caller, Path(uuid): Path<String>) -> Result<Json<LikeResult>> {
    let (id, post) = find_post(&state.db, caller.user_id, &uuid).await?.ok_or_else(not_found)?;
    caller.require(Operation::LikePost, subject(&post))?;
    let _write = state.write_lock.lock().await;
    let mut tx = crate::db::write(&state.db).await?;
    let removed = sqlx::query("DELETE FROM likes WHERE user_id = ? AND post_id = ?")
        .bind(caller.user_id)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    let action = if removed == 1 {
        sqlx::query("UPDATE posts SET like_count = like_count - 1 WHERE id = ? AND like_count > 0")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        LikeAction::Unliked
    } else {
        let inserted =
            sqlx::query("INSERT INTO likes (user_id, post_id, created_ms) SELECT ?, id, ? FROM posts WHERE id = ?")
                .bind(caller.user_id)
                .bind(now_ms())
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        if inserted == 0 {
            return Err(not_found());
        }
        sqlx::query("UPDATE posts SET like_count = like_count + 1 WHERE id = ?").bind(id).execute(&mut *tx).await?;
        LikeAction::Liked
    };
    let answer = LikeResult { action, uuid: post.uuid };
    crate::idempotency::commit(tx, &answer).await?;
    Ok(Json(answer))
}
