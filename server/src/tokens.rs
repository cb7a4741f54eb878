//! Secrets handed to clients (access and refresh tokens, authorization codes):
//! made from the OS's randomness, stored only as SHA-256 hashes. Tokens come
//! in families (one sign-in and its refreshes), which are revoked whole.

use crate::db::{now_ms, Db};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use perch_model::{Scope, Timestamp, TokenSet};
use rand_core::{OsRng, RngCore};
use sha2::{Digest, Sha256};

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
