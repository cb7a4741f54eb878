//! Accounts and applications: creating users (passwords hashed with argon2),
//! registering applications with their redirect URIs, and tokens for the
//! command line.

use crate::db::{now_ms, Db};
use anyhow::{anyhow, bail, Context};
use argon2::password_hash::{Output, PasswordHash, PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use perch_model::Scope;
use rand_core::OsRng;
use sqlx::Row;

/// The name of the application that command-line tokens are issued to.
pub const CLI_APP_NAME: &str = "perch-server token";

#[derive(Clone, Debug, Default)]
pub struct NewUser {
    pub username: String,
    pub display_name: Option<String>,
    pub email: Option<String>,
    pub password: Option<String>,
    pub bio: String,
    pub badges: Vec<String>,
    pub avatar: Option<String>,
    /// When they joined; now when `None`.
    pub joined_ms: Option<i64>,
}

/// A username: 1 to 30 ASCII letters, digits or underscores.
pub fn check_username(name: &str) -> anyhow::Result<()> {
    if name.is_empty() || name.len() > 30 || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        bail!("a username is 1 to 30 letters, digits or underscores, not {name:?}");
    }
    Ok(())
}

pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow!("hashing failed: {e}"))
}

/// Checks passwords against stored Argon2 hashes in memory of its own,
/// reused from one check to the next. Argon2's own `verify_password`
/// allocates about 19 MiB a call, and glibc kept each of those in the heap:
/// ten checks on one thread grew the process by 150 MB.
#[derive(Default)]
pub struct PasswordChecker {
    memory: Vec<Block>,
}

impl PasswordChecker {
    pub fn verify(&mut self, hash: &str, password: &str) -> bool {
        let Ok(parsed) = PasswordHash::new(hash) else { return false };
        let (Some(expected), Some(salt)) = (parsed.hash, parsed.salt) else { return false };
        let Ok(algorithm) = Algorithm::try_from(parsed.algorithm) else { return false };
        let Ok(version) = parsed.version.map_or(Ok(Version::default()), Version::try_from) else { return false };
        let Ok(params) = Params::try_from(&parsed) else { return false };
        let mut salt_bytes = [0u8; 64];
        let Ok(salt) = salt.decode_b64(&mut salt_bytes) else { return false };
        let blocks = params.block_count();
        if self.memory.len() < blocks {
            self.memory.resize(blocks, Block::default());
        }
        let mut out = vec![0u8; expected.len()];
        Argon2::new(algorithm, version, params)
            .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, &mut self.memory[..blocks])
            .is_ok()
            // Output compares in constant time.
            && Output::new(&out).is_ok_and(|computed| computed == expected)
    }
}

/// An avatar on a third-party avatar host, derived from the email or name.
pub fn default_avatar(seed: &str) -> String {
    format!("https://www.gravatar.com/avatar/{}?d=identicon&s=96", crate::tokens::hash(&seed.trim().to_lowercase()))
}

/// Creates a user and returns its row id and uuid.
pub async fn add_user(db: &Db, new: NewUser) -> anyhow::Result<(i64, String)> {
    check_username(&new.username)?;
    let taken: Option<i64> =
        sqlx::query_scalar("SELECT id FROM users WHERE username = ?").bind(&new.username).fetch_optional(db).await?;
    if taken.is_some() {
        bail!("the username {:?} is taken", new.username);
    }
    let password_hash = match new.password {
        Some(pw) => Some(tokio::task::spawn_blocking(move || hash_password(&pw)).await??),
        None => None,
    };
    let uuid = uuid::Uuid::new_v4().to_string();
    let avatar = new.avatar.unwrap_or_else(|| default_avatar(new.email.as_deref().unwrap_or(&new.username)));
    let id = sqlx::query(
        "INSERT INTO users (uuid, username, display_name, email, password_hash, avatar, bio, badges, joined_ms) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&uuid)
    .bind(&new.username)
    .bind(new.display_name.unwrap_or_else(|| new.username.clone()))
    .bind(&new.email)
    .bind(password_hash)
    .bind(avatar)
    .bind(&new.bio)
    .bind(serde_json::to_string(&new.badges)?)
    .bind(new.joined_ms.unwrap_or_else(now_ms))
    .execute(db)
    .await?
    .last_insert_rowid();
    Ok((id, uuid))
}

/// Registers (or finds) an application by name. Returns its row id and uuid.
pub async fn ensure_application(db: &Db, name: &str, website: Option<&str>) -> anyhow::Result<(i64, String)> {
    let existing =
        sqlx::query("SELECT id, uuid FROM applications WHERE name = ?").bind(name).fetch_optional(db).await?;
    Ok(match existing {
        Some(row) => (row.get("id"), row.get("uuid")),
        None => {
            let uuid = uuid::Uuid::new_v4().to_string();
            let id = sqlx::query("INSERT INTO applications (uuid, name, website) VALUES (?, ?, ?)")
                .bind(&uuid)
                .bind(name)
                .bind(website)
                .execute(db)
                .await?
                .last_insert_rowid();
            (id, uuid)
        }
    })
}

/// Makes `uris` exactly the application's redirect URIs: ones registered
/// before and not named now stop working.
pub async fn set_redirect_uris(db: &Db, application_id: i64, uris: &[String]) -> anyhow::Result<()> {
    let mut tx = crate::db::write(db).await?;
    sqlx::query("DELETE FROM redirect_uris WHERE application_id = ?").bind(application_id).execute(&mut *tx).await?;
    for uri in uris {
        sqlx::query("INSERT OR IGNORE INTO redirect_uris (application_id, uri) VALUES (?, ?)")
            .bind(application_id)
            .bind(uri)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A user's row id by username (case-insensitive).
pub async fn user_id(db: &Db, username: &str) -> anyhow::Result<i64> {
    sqlx::query_scalar("SELECT id FROM users WHERE username = ?")
        .bind(username.trim_start_matches('@'))
        .fetch_optional(db)
        .await?
        .with_context(|| format!("there is no user {username:?}"))
}

/// A new access token for `username`, as `perch-server token` prints it.
pub async fn cli_token(db: &Db, username: &str, scopes: &[Scope], ttl_ms: i64) -> anyhow::Result<String> {
    let user = user_id(db, username).await?;
    let (app, _) = ensure_application(db, CLI_APP_NAME, None).await?;
    let family = crate::tokens::new_family();
    Ok(crate::tokens::store(db, "access", &family, user, app, scopes, now_ms() + ttl_ms).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_accepts_only_the_right_password_with_its_memory_reused() {
        let hash = hash_password("correct horse").unwrap();
        let mut checker = PasswordChecker::default();
        assert!(checker.verify(&hash, "correct horse"));
        assert!(!checker.verify(&hash, "correct horsf"));
        assert!(!checker.verify(&hash, ""));
        assert!(checker.verify(&hash, "correct horse"), "again, in the same memory");
        assert!(!checker.verify("not a hash", "correct horse"));
        let other = hash_password("correct horse").unwrap();
        assert_ne!(other, hash, "salted");
        assert!(checker.verify(&other, "correct horse"));
    }
}
