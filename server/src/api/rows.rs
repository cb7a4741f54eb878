//! Reading posts and users out of SQLite into the wire model, as the caller
//! sees them (with the `liked` and `followed` extensions). Every query here
//! binds the caller's user id as `?1`.

use crate::db::Db;
use crate::error::Result;
use crate::extractor::Caller;
use perch_model::{Application, Badge, Operation, Parent, Post, Subject, Timestamp, User};
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqliteExecutor};

// Every query is a static string, put together at compile time from the
// pieces below (`concat!`), never from text a caller passes at run time.

/// The columns of a user aliased `u` (the literal `$alias`), each named
/// `$prefix` + column; `followed` is whether the caller (`?1`) follows them.
macro_rules! user_columns {
    ($alias:literal, $prefix:literal) => {
        concat!(
            $alias,
            ".id AS ",
            $prefix,
            "id, ",
            $alias,
            ".uuid AS ",
            $prefix,
            "uuid, ",
            $alias,
            ".username AS ",
            $prefix,
            "username, ",
            $alias,
            ".display_name AS ",
            $prefix,
            "display_name, ",
            $alias,
            ".avatar AS ",
            $prefix,
            "avatar, ",
            $alias,
            ".bio AS ",
            $prefix,
            "bio, ",
            $alias,
            ".badges AS ",
            $prefix,
            "badges, ",
            $alias,
            ".follower_count AS ",
            $prefix,
            "follower_count, ",
            $alias,
            ".following_count AS ",
            $prefix,
            "following_count, ",
            $alias,
            ".joined_ms AS ",
            $prefix,
            "joined_ms, ",
            "EXISTS(SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.followee_id = ",
            $alias,
            ".id) AS ",
            $prefix,
            "followed"
        )
    };
}

/// `SELECT … FROM posts p …` with the author and application joined.
macro_rules! post_select {
    () => {
        concat!(
            "SELECT p.id, p.uuid, p.parent_uuid, p.content, p.locked, p.reply_count, p.like_count, p.created_ms, ",
            "EXISTS(SELECT 1 FROM likes l WHERE l.post_id = p.id AND l.user_id = ?1) AS liked, ",
            "app.uuid AS app_uuid, app.name AS app_name, app.website AS app_website, ",
            user_columns!("a", "a_"),
            " FROM posts p JOIN users a ON a.id = p.author_id LEFT JOIN applications app ON app.id = p.application_id"
        )
    };
}

/// A user by username (`?2`, any case as the column's collation says).
pub const USER_BY_NAME: &str = concat!("SELECT ", user_columns!("u", ""), " FROM users u WHERE u.username = ?2");
/// A user by uuid (`?2`).
pub const USER_BY_UUID: &str = concat!("SELECT ", user_columns!("u", ""), " FROM users u WHERE u.uuid = ?2");
/// The caller (`?1`) with their email fields.
pub const OWNER: &str =
    concat!("SELECT ", user_columns!("u", ""), ", u.email, u.email_verified FROM users u WHERE u.id = ?1");
/// Who follows user `?2`, latest follow first.
pub const FOLLOWERS: &str = concat!(
    "SELECT ",
    user_columns!("u", ""),
    " FROM follows fl JOIN users u ON u.id = fl.follower_id WHERE fl.followee_id = ?2",
    " ORDER BY fl.created_ms DESC, fl.seq DESC"
);
/// Whom user `?2` follows, latest follow first.
pub const FOLLOWING: &str = concat!(
    "SELECT ",
    user_columns!("u", ""),
    " FROM follows fl JOIN users u ON u.id = fl.followee_id WHERE fl.follower_id = ?2",
    " ORDER BY fl.created_ms DESC, fl.seq DESC"
);
const POST_BY_UUID: &str = concat!(post_select!(), " WHERE p.uuid = ?2");
/// The posts whose uuids are in the JSON array `?2`.
const POSTS_IN: &str = concat!(post_select!(), " WHERE p.uuid IN (SELECT value FROM json_each(?2))");

/// Which paged list of posts.
#[derive(Clone, Copy, Debug)]
pub enum PostPage {
    /// The replies to the post whose uuid is the key, oldest first.
    Replies,
    /// The posts and replies of the user whose row id is the key, newest first.
    ByAuthor,
    /// The same without replies: for a token without `reply.get`.
    TopLevelByAuthor,
}

impl PostPage {
    fn sql(self) -> &'static str {
        match self {
            PostPage::Replies => {
                concat!(post_select!(), " WHERE p.parent_uuid = ?2 ORDER BY p.created_ms, p.id LIMIT ?3 OFFSET ?4")
            }
            PostPage::ByAuthor => concat!(
                post_select!(),
                " WHERE p.author_id = ?2 ORDER BY p.created_ms DESC, p.id DESC LIMIT ?3 OFFSET ?4"
            ),
            PostPage::TopLevelByAuthor => concat!(
                post_select!(),
                " WHERE p.author_id = ?2 AND p.parent_uuid IS NULL ORDER BY p.created_ms DESC, p.id DESC LIMIT ?3 OFFSET ?4"
            ),
        }
    }
}

/// A user from columns made by `user_columns!`; the email fields are left absent.
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

/// A post from a row of `post_select!`; a reply's parent is its uuid.
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
pub async fn find_post<'e>(db: impl SqliteExecutor<'e>, caller: i64, uuid: &str) -> Result<Option<(i64, Post)>> {
    let row = sqlx::query(POST_BY_UUID).bind(caller).bind(uuid).fetch_optional(db).await?;
    Ok(row.map(|r| (r.get("id"), post_from_row(&r))))
}

/// One page (15, 1-based) of the list `which` of `key`; parents left as uuids.
pub async fn post_page<K>(db: &Db, caller: i64, which: PostPage, key: K, page: i64) -> Result<Vec<Post>>
where
    K: for<'q> sqlx::Encode<'q, sqlx::Sqlite> + sqlx::Type<sqlx::Sqlite> + Send,
{
    let rows = sqlx::query(which.sql())
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
pub async fn embed_parents<'e>(db: impl SqliteExecutor<'e>, caller: &Caller, posts: &mut [Post]) -> Result<()> {
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
    let wanted = serde_json::to_string(&wanted).map_err(|e| crate::error::Error::Internal(e.into()))?;
    let parents: Vec<Post> = sqlx::query(POSTS_IN)
        .bind(caller.user_id)
        .bind(wanted)
        .fetch_all(db)
        .await?
        .iter()
        .map(post_from_row)
        .collect();
    // Least privilege: a parent the token may not read (a post without
    // `post.get`, a reply without `reply.get`) stays its uuid string.
    let readable = |p: &&Post| caller.require(Operation::GetPost, Subject::of(p.parent.is_reply())).is_ok();
    for post in posts.iter_mut() {
        if let Some(parent) = parents.iter().filter(readable).find(|p| Some(p.uuid.as_str()) == post.parent.uuid()) {
            post.parent = Parent::Post(Box::new(parent.clone()));
        }
    }
    Ok(())
}
