//! Secrets handed to clients (access and refresh tokens, authorization codes):
//! made from the OS's randomness, stored only as SHA-256 hashes. Tokens come
//! in families (one sign-in and its refreshes), which are revoked whole.

use crate::db::{now_ms, Db};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use perch_model::{Scope, Timestamp, TokenSet};
use rand_core::{OsRng, RngCore};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const ACCESS_TTL_MS: i64 = 7 * 24 * 3600 * 1000;
pub const REFRESH_TTL_MS: i64 = 30 * 24 * 3600 * 1000;

/// A new random secret, URL-safe.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// How a secret is stored.
pub fn hash(secret: &str) -> String {
    let digest = Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// PKCE S256: BASE64URL(SHA256(verifier)) without padding.
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Stores one token of `kind` in `family` and returns its secret.
pub async fn store(
    db: &Db,
    kind: &str,
    family: &str,
    user_id: i64,
    application_id: i64,
    scopes: &[Scope],
    expires_ms: i64,
) -> sqlx::Result<String> {
    let secret = new_secret();
    sqlx::query(
        "INSERT INTO tokens (hash, kind, family, user_id, application_id, scopes, expires_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(hash(&secret))
    .bind(kind)
    .bind(family)
    .bind(user_id)
    .bind(application_id)
    .bind(Scope::join(scopes))
    .bind(expires_ms)
    .execute(db)
    .await?;
    Ok(secret)
}

/// A name for a new family of tokens.
pub fn new_family() -> String {
    new_secret()
}

/// Issues an access and a refresh token in `family`.
pub async fn issue_pair(
    db: &Db,
    family: &str,
    user_id: i64,
    application_id: i64,
    scopes: &[Scope],
) -> sqlx::Result<TokenSet> {
    let now = now_ms();
    let token = store(db, "access", family, user_id, application_id, scopes, now + ACCESS_TTL_MS).await?;
    let refresh_token = store(db, "refresh", family, user_id, application_id, scopes, now + REFRESH_TTL_MS).await?;
    Ok(TokenSet {
        token,
        token_expires_at: Timestamp(now + ACCESS_TTL_MS),
        refresh_token,
        refresh_token_expires_at: Timestamp(now + REFRESH_TTL_MS),
        scopes: scopes.to_vec(),
    })
}

/// Retires every token of `family`; returns the hashes of its access
/// tokens, for the caller cache to forget.
pub async fn revoke_family(db: &Db, family: &str) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar("UPDATE tokens SET retired = 1 WHERE family = ? RETURNING hash").bind(family).fetch_all(db).await
}

/// The family of a token given by its hash, of either kind, retired or not.
pub async fn family_of(db: &Db, token_hash: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT family FROM tokens WHERE hash = ?").bind(token_hash).fetch_optional(db).await
}

/// How long a retired refresh token, presented again, answers the pair its
/// first use issued instead of counting as reuse: two tabs refreshing at
/// once both end with working tokens (the contract's "Decided later").
pub const REFRESH_GRACE: Duration = Duration::from_secs(30);

/// The pairs refreshes issued in the last grace window, by the hash of the
/// refresh token they retired. Secrets are stored only as hashes, so the
/// pair to answer again is kept here, in memory, for the window only; a
/// restart forgets it (a second refresh then counts as reuse, as before).
/// Entries need a live refresh token each and leave after the window, so
/// the map is bounded by the refreshes of 30 s.
pub struct RecentRefreshes {
    grace: Duration,
    issued: Mutex<HashMap<String, (Instant, TokenSet)>>,
}

impl RecentRefreshes {
    pub fn new(grace: Duration) -> Self {
        RecentRefreshes { grace, issued: Mutex::default() }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Instant, TokenSet)>> {
        let mut issued = self.issued.lock().unwrap_or_else(|e| e.into_inner());
        issued.retain(|_, (at, _)| at.elapsed() < self.grace);
        issued
    }

    /// The refresh that retired `retired_hash` issued `pair`.
    pub fn remember(&self, retired_hash: String, pair: &TokenSet) {
        if !self.grace.is_zero() {
            self.lock().insert(retired_hash, (Instant::now(), pair.clone()));
        }
    }

    /// The pair issued for `retired_hash`, if that was within the window.
    pub fn recent(&self, retired_hash: &str) -> Option<TokenSet> {
        self.lock().get(retired_hash).map(|(_, pair)| pair.clone())
    }
}

/// Whether the refresh token with this secret is live: known, not retired,
/// not expired.
pub async fn refresh_is_live(db: &Db, secret: &str) -> sqlx::Result<bool> {
    let live: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM tokens WHERE hash = ? AND kind = 'refresh' AND retired = 0 AND expires_ms > ?",
    )
    .bind(hash(secret))
    .bind(now_ms())
    .fetch_optional(db)
    .await?;
    Ok(live.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_matches_rfc_7636_appendix_b() {
        assert_eq!(
            pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn secrets_are_distinct_and_hashes_hex() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(hash(&a).len(), 64);
        assert_ne!(hash(&a), a);
    }
}
