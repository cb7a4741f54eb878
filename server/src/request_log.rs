//! `serve --request-log FILE`: one line per API call whose token was
//! accepted, `<caller's uuid> <method> <path>`, appended as calls are
//! answered. For tests and for a person checking what a client asks as
//! whom (the web app's browser tests read it to show that a check of one
//! account's activity never goes with another account's token). Off unless
//! asked for; it names who called what, so it is the operator's to keep.

use crate::db::Db;
use sqlx::Row;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

pub struct RequestLog {
    file: Mutex<std::fs::File>,
    /// Uuids by user id, once read.
    uuids: Mutex<std::collections::HashMap<i64, String>>,
}

impl RequestLog {
    /// Appends to `path`, made if missing.
    pub fn open(path: &Path) -> std::io::Result<Self> {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
        Ok(RequestLog { file: Mutex::new(file), uuids: Mutex::default() })
    }

    /// Writes that `user_id` called `method` on `path`.
    pub async fn write(&self, db: &Db, user_id: i64, method: &str, path: &str) {
        let known = self.uuids.lock().unwrap_or_else(|e| e.into_inner()).get(&user_id).cloned();
        let uuid = match known {
            Some(uuid) => uuid,
            None => {
                let row = sqlx::query("SELECT uuid FROM users WHERE id = ?").bind(user_id).fetch_optional(db).await;
                let uuid = row.ok().flatten().map_or_else(|| format!("user#{user_id}"), |r| r.get::<String, _>("uuid"));
                self.uuids.lock().unwrap_or_else(|e| e.into_inner()).insert(user_id, uuid.clone());
                uuid
            }
        };
        let line = format!("{uuid} {method} {path}\n");
        let _ = self.file.lock().unwrap_or_else(|e| e.into_inner()).write_all(line.as_bytes());
    }
}
