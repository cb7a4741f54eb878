//! Reading posts and users out of SQLite into the wire model, as the caller
//! sees them (with the `liked` and `followed` extensions). Every query here
//! binds the caller's user id as `?1`.

use crate::db::Db;
use crate::error::Result;
use perch_model::{Application, Badge, Parent, Post, Timestamp, User};
use sqlx::sqlite::SqliteRow;
use sqlx::Row;

/// The columns of a user aliased `alias`, each named `{prefix}{column}`.
pub fn user_columns(alias: &str, prefix: &str) -> String {
    format!(
        "{alias}.id AS {prefix}id, {alias}.uuid AS {prefix}uuid, {alias}.username AS {prefix}username, \
         {alias}.display_name AS {prefix}display_name, {alias}.avatar AS {prefix}avatar, {alias}.bio AS {prefix}bio, \
         {alias}.badges AS {prefix}badges, {alias}.follower_count AS {prefix}follower_count, \
         {alias}.following_count AS {prefix}following_count, {alias}.joined_ms AS {prefix}joined_ms, \
         EXISTS(SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.followee_id = {alias}.id) AS {prefix}followed"
    )
}

/// A user from columns made by [`user_columns`]; the email fields are left absent.
pub fn user_from_row(row: &SqliteRow, prefix: &str) -> User {
    let col = |name: &str| format!("{prefix}{name}");
    let badges: Vec<String> = serde_json::from_str(row.get::<&str, _>(col("badges").as_str())).unwrap_or_default();
    let avatar: String = row.get(col("avatar").as_str());
    User {
        uuid: row.get(col("uuid").as_str()),
        username: row.get(col("username").as_str()),
        display_name: row.get(col("display_name").as_str()),
        avatar: (!avatar.is_empty()).then_some(avatar),
        email: None,
        email_verified: None,
        badge: badges.into_iter().map(Badge).collect(),
        bio: row.get(col("bio").as_str()),
        follow_count: row.get::<i64, _>(col("follower_count").as_str()).max(0) as u64,
        following_count: row.get::<i64, _>(col("following_count").as_str()).max(0) as u64,
        joined: Some(Timestamp(row.get(col("joined_ms").as_str()))),
        followed: Some(row.get(col("followed").as_str())),
    }
}

/// `SELECT … FROM posts p …` with the author and application joined.
pub fn post_select() -> String {
    format!(
        "SELECT p.id, p.uuid, p.parent_uuid, p.content, p.locked, p.reply_count, p.like_count, p.created_ms, \
         EXISTS(SELECT 1 FROM likes l WHERE l.post_id = p.id AND l.user_id = ?1) AS liked, \
         app.uuid AS app_uuid, app.name AS app_name, app.website AS app_website, {} \
         FROM posts p JOIN users a ON a.id = p.author_id LEFT JOIN applications app ON app.id = p.application_id",
        user_columns("a", "a_")
    )
}

/// A post from a row of [`post_select`]; a reply's parent is its uuid.
pub fn post_from_row(row: &SqliteRow) -> Post {
    let app_uuid: Option<String> = row.get("app_uuid");
    Post {
        uuid: row.get("uuid"),
        parent: row.get::<Option<String>, _>("parent_uuid").map_or(Parent::None, Parent::Uuid),
        author: user_from_row(row, "a_"),
        content: row.get("content"),
        from: app_uuid.map(|uuid| Application { uuid, name: row.get("app_name"), website: row.get("app_website") }),
        locked: row.get("locked"),
        reply_count: row.get::<i64, _>("reply_count").max(0) as u64,
        like_count: row.get::<i64, _>("like_count").max(0) as u64,
        created_at: Some(Timestamp(row.get("created_ms"))),
        liked: Some(row.get("liked")),
    }
}

/// A post with its row id, its parent left as a uuid; `None` if there is none.
pub async fn find_post(db: &Db, caller: i64, uuid: &str) -> Result<Option<(i64, Post)>> {
    let row =
        sqlx::query(&format!("{} WHERE p.uuid = ?2", post_select())).bind(caller).bind(uuid).fetch_optional(db).await?;
    Ok(row.map(|r| (r.get("id"), post_from_row(&r))))
}

/// One page (15, 1-based) of the posts matching `filter`, a condition on `p`
/// that uses `?2` for `key`, in `order`; parents left as uuids.
pub async fn post_page<K>(db: &Db, caller: i64, filter: &str, order: &str, key: K, page: i64) -> Result<Vec<Post>>
where
    K: for<'q> sqlx::Encode<'q, sqlx::Sqlite> + sqlx::Type<sqlx::Sqlite> + Send,
{
    let sql = format!("{} WHERE {filter} ORDER BY {order} LIMIT ?3 OFFSET ?4", post_select());
    let rows = sqlx::query(&sql)
        .bind(caller)
        .bind(key)
        .bind(perch_model::PAGE_SIZE as i64)
        .bind((page - 1) * perch_model::PAGE_SIZE as i64)
        .fetch_all(db)
        .await?;
    Ok(rows.iter().map(post_from_row).collect())
}

/// Replaces each reply's parent uuid by the parent post, one level deep
/// (the parent's own parent stays a uuid), in one query for the whole list.
/// A deleted parent stays a uuid.
pub async fn embed_parents(db: &Db, caller: i64, posts: &mut [Post]) -> Result<()> {
    let mut wanted: Vec<String> = posts
        .iter()
        .filter_map(|p| match &p.parent {
            Parent::Uuid(u) => Some(u.clone()),
            _ => None,
        })
        .collect();
    wanted.sort();
    wanted.dedup();
    if wanted.is_empty() {
        return Ok(());
    }
    let placeholders = (0..wanted.len()).map(|i| format!("?{}", i + 2)).collect::<Vec<_>>().join(", ");
    let sql = format!("{} WHERE p.uuid IN ({placeholders})", post_select());
    let mut query = sqlx::query(&sql).bind(caller);
    for uuid in &wanted {
        query = query.bind(uuid);
    }
    let parents: Vec<Post> = query.fetch_all(db).await?.iter().map(post_from_row).collect();
    for post in posts.iter_mut() {
        if let Some(parent) = parents.iter().find(|p| Some(p.uuid.as_str()) == post.parent.uuid()) {
            post.parent = Parent::Post(Box::new(parent.clone()));
        }
    }
    Ok(())
}
