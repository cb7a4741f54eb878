//! The SQLite database: opening it (WAL, foreign keys, a busy timeout so
//! writers queue instead of failing) and applying `migrations/`, and the one
//! way a transaction that writes begins ([`write`]).

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
use std::time::Duration;

pub type Db = SqlitePool;

/// Opens (creating the file and its folder when missing) and migrates.
pub async fn open(path: &Path) -> anyhow::Result<Db> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let options = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(10));
    let pool = SqlitePoolOptions::new().max_connections(8).connect_with(options).await?;
    sqlx::migrate!("./migrations").run(&pool).await?;
    Ok(pool)
}

/// A transaction that will write, begun as a write (`BEGIN IMMEDIATE`): it
/// takes SQLite's write lock at once, waiting up to the busy timeout for
/// another writer. A deferred transaction that reads first would instead
/// hold a snapshot that another commit makes stale, and its first write
/// would fail at once ("database is locked", SQLITE_BUSY_SNAPSHOT) with no
/// wait, answering 500.
pub async fn write(db: &Db) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, sqlx::Error> {
    db.begin_with("BEGIN IMMEDIATE").await
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}
