//! The OAuth 2 authorization-code flow with `state` and PKCE (S256), the
//! protocol half: checking a request at `/oauth/authorise`, the password and
//! the consent, the code, and the token calls `POST /api/oauth/code` and
//! `POST /api/oauth/refreshtoken`, and `POST /api/oauth/revoke`. What the person sees (HTML, CSS, the
//! page's own headers) is `page.rs`.

mod page;
pub mod words;

use crate::db::now_ms;
use crate::error::{Error, Result};
use crate::extractor::JsonBody;
use crate::sign_in::{client_address, Wait};
use crate::state::AppState;
use crate::tokens::{
    family_of, hash, issue_pair, new_family, new_secret, pkce_challenge, refresh_is_live, revoke_family,
};
use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use perch_model::{CodeExchange, RefreshRequest, RevokeRequest, Scope, TokenSet};
use sqlx::Row;
use std::net::SocketAddr;
use words::{Lang, Say};

/// How long an authorization code may wait to be exchanged.
const CODE_TTL_MS: i64 = 10 * 60 * 1000;

/// The largest body sign-in and the token calls take: a consent form or a
/// token request is well under 1 KB. Larger is 413, read no further.
pub const BODY_LIMIT: usize = 16 * 1024;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/oauth/authorise", get(show).post(submit))
        .route("/api/oauth/code", post(exchange_code))
        .route("/api/oauth/refreshtoken", post(refresh))
        .route("/api/oauth/revoke", post(revoke))
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
}

/// The query of `/oauth/authorise`, also carried through the form.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct Request {
    application_id: Option<String>,
    redirect_uri: Option<String>,
    scopes: Option<String>,
    state: Option<String>,
    code_challenge: Option<String>,
    code_challenge_method: Option<String>,
}

/// A request whose application and redirect URI check out.
struct Checked {
    app_id: i64,
    app_name: String,
    redirect_uri: String,
    scopes: Vec<Scope>,
    state: String,
    code_challenge: String,
}

/// Checks what must hold before anything is shown: a known application, a
/// redirect URI registered for it, PKCE with S256, known scopes.
async fn check(state: &AppState, req: &Request) -> std::result::Result<Checked, Say> {
    let app_uuid = req.application_id.as_deref().filter(|s| !s.is_empty()).ok_or(Say::NoApplication)?;
    let row = sqlx::query("SELECT id, name FROM applications WHERE uuid = ?")
        .bind(app_uuid)
        .fetch_optional(&state.db)
        .await
        .map_err(|_| Say::LookupFailed)?
        .ok_or(Say::AppNotRegistered)?;
    let app_id: i64 = row.get("id");
    let redirect_uri = req.redirect_uri.clone().unwrap_or_default();
    let registered: Option<i64> =
        sqlx::query_scalar("SELECT 1 FROM redirect_uris WHERE application_id = ? AND uri = ?")
            .bind(app_id)
            .bind(&redirect_uri)
            .fetch_optional(&state.db)
            .await
            .map_err(|_| Say::LookupFailed)?;
    if registered.is_none() {
        return Err(Say::RedirectNotRegistered);
    }
    if req.code_challenge_method.as_deref() != Some("S256") || req.code_challenge.as_deref().unwrap_or("").len() < 43 {
        return Err(Say::NeedsPkce);
    }
    let scopes = Scope::parse_list(req.scopes.as_deref().unwrap_or("")).map_err(|e| Say::UnknownScope(e.0))?;
    if scopes.is_empty() {
        return Err(Say::NoScopes);
    }
    Ok(Checked {
        app_id,
        app_name: row.get("name"),
        redirect_uri,
        scopes,
        state: req.state.clone().unwrap_or_default(),
        code_challenge: req.code_challenge.clone().unwrap_or_default(),
    })
}

/// GET /oauth/authorise: the sign-in and consent page.
#[utoipa::path(get, path = "/oauth/authorise", tag = "oauth", summary = "The sign-in and consent page (HTML); redirects to redirect_uri with code and state",
    params(("application_id" = String, Query, min_length = 1), ("redirect_uri" = String, Query, min_length = 1), ("scopes" = String, Query, min_length = 1, description = "a,b,c"),
           ("state" = String, Query), ("code_challenge" = String, Query, min_length = 43, max_length = 128), ("code_challenge_method" = String, Query, pattern = "^S256$", description = "S256")),
    responses((status = 200, description = "The page", content_type = "text/html"), (status = 400, description = "Unknown application or redirect URI, no PKCE", content_type = "text/html")))]
pub async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: std::result::Result<Query<Request>, QueryRejection>,
) -> Response {
    let lang = language_of(&headers);
    let Ok(Query(req)) = query else {
        return page::invalid_link(lang, &Say::Malformed);
    };
    match check(&state, &req).await {
        Ok(checked) => page::consent(lang, StatusCode::OK, &req, &checked, "", &checked.scopes, None),
        Err(problem) => page::invalid_link(lang, &problem),
    }
}

/// The page's language, from the request's `Accept-Language`.
fn language_of(headers: &HeaderMap) -> Lang {
    Lang::from_accept_language(headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()))
}

/// `redirect_uri` with these query parameters added.
fn back_to(redirect_uri: &str, params: &[(&str, &str)]) -> String {
    let query = serde_urlencoded::to_string(params).unwrap_or_default();
    let join = if redirect_uri.contains('?') { '&' } else { '?' };
    format!("{redirect_uri}{join}{query}")
}

/// The fields of the consent form, as the page sends them.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
struct ConsentForm {
    #[schema(min_length = 1)]
    application_id: String,
    #[schema(min_length = 1)]
    redirect_uri: String,
    /// The scopes asked for, a,b,c.
    #[schema(min_length = 1)]
    scopes: String,
    state: Option<String>,
    #[schema(min_length = 43, max_length = 128)]
    code_challenge: String,
    #[schema(pattern = "^S256$")]
    code_challenge_method: String,
    username: Option<String>,
    password: Option<String>,
    /// A ticked scope; the field repeats, once per scope.
    scope: Option<Vec<String>>,
    /// `allow` or `deny`.
    #[schema(pattern = "^(allow|deny)$")]
    action: String,
}

/// POST /oauth/authorise: the form's answer.
#[utoipa::path(post, path = "/oauth/authorise", tag = "oauth", summary = "The consent form's answer (HTML); redirects to redirect_uri with code and state, or error=access_denied",
    request_body(content = ConsentForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 303, description = "Back to redirect_uri"), (status = 400, description = "Unknown application or redirect URI, no PKCE, nothing allowed", content_type = "text/html"),
              (status = 401, description = "Wrong username or password", content_type = "text/html"), (status = 415, description = "Not a form"),
              (status = 429, description = "Too many failed sign-ins, or too many at once", content_type = "text/html")))]
pub async fn submit(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let req = Request {
        application_id: field("application_id"),
        redirect_uri: field("redirect_uri"),
        scopes: field("scopes"),
        state: field("state"),
        code_challenge: field("code_challenge"),
        code_challenge_method: field("code_challenge_method"),
    };
    let lang = language_of(&headers);
    let checked = match check(&state, &req).await {
        Ok(c) => c,
        Err(problem) => return page::invalid_link(lang, &problem),
    };
    if field("action").as_deref() == Some("deny") {
        return Redirect::to(&back_to(&checked.redirect_uri, &[("error", "access_denied"), ("state", &checked.state)]))
            .into_response();
    }
    let username = field("username").unwrap_or_default();
    let granted: Vec<Scope> = fields
        .iter()
        .filter(|(k, _)| k == "scope")
        .filter_map(|(_, v)| v.parse().ok())
        .filter(|s| checked.scopes.contains(s))
        .collect();
    let again = |status: StatusCode, error: Say| {
        page::consent(lang, status, &req, &checked, &username, &granted, Some(&error.words(lang)))
    };

    // A name no account can have is refused before it is counted or
    // shown again: it costs no memory, however long it is.
    if crate::accounts::check_username(&username).is_err() {
        let error = Say::WrongPassword.words(lang);
        return page::consent(lang, StatusCode::UNAUTHORIZED, &req, &checked, "", &granted, Some(&error));
    }
    let client = client_address(peer.ip(), &headers, &state.limits.trusted_proxies);
    let attempt = match state.limits.sign_in.begin(client, &username).await {
        Ok(attempt) => attempt,
        Err(wait) => {
            let (retry_after, message) = match wait {
                Wait::TooManyFailures(s) => (s, Say::TooManyFailures(s)),
                Wait::Busy(s) => (s, Say::Busy),
            };
            let mut res = again(StatusCode::TOO_MANY_REQUESTS, message);
            res.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from(retry_after));
            return res;
        }
    };
    let account = sqlx::query("SELECT id, password_hash FROM users WHERE username = ?")
        .bind(&username)
        .fetch_optional(&state.db)
        .await;
    let user_id = match account {
        Ok(Some(row)) => {
            let hash: Option<String> = row.get("password_hash");
            let password = field("password").unwrap_or_default();
            let ok = match hash {
                Some(h) => attempt.verify(h, password).await,
                None => attempt.verify_nobody(password).await,
            };
            ok.then(|| row.get::<i64, _>("id"))
        }
        // As long as a wrong password: the answer's time must not say
        // whether the username exists.
        Ok(None) => {
            attempt.verify_nobody(field("password").unwrap_or_default()).await;
            None
        }
        Err(e) => {
            tracing::error!("sign-in lookup failed: {e}");
            attempt.succeeded();
            return again(StatusCode::INTERNAL_SERVER_ERROR, Say::CannotCheck);
        }
    };
    let Some(user_id) = user_id else {
        return again(StatusCode::UNAUTHORIZED, Say::WrongPassword);
    };
    attempt.succeeded();
    if granted.is_empty() {
        return again(StatusCode::BAD_REQUEST, Say::AllowOne);
    }
    let code = new_secret();
    let stored = sqlx::query(
        "INSERT INTO auth_codes (hash, user_id, application_id, redirect_uri, scopes, code_challenge, expires_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(hash(&code))
    .bind(user_id)
    .bind(checked.app_id)
    .bind(&checked.redirect_uri)
    .bind(Scope::join(&granted))
    .bind(&checked.code_challenge)
    .bind(now_ms() + CODE_TTL_MS)
    .execute(&state.db)
    .await;
    if let Err(e) = stored {
        tracing::error!("storing a code failed: {e}");
        return again(StatusCode::INTERNAL_SERVER_ERROR, Say::CannotFinish);
    }
    Redirect::to(&back_to(&checked.redirect_uri, &[("code", &code), ("state", &checked.state)])).into_response()
}

/// POST /api/oauth/code: a code and its PKCE verifier for a token pair.
#[utoipa::path(post, path = "/api/oauth/code", tag = "oauth", summary = "Exchange an authorization code and its PKCE verifier for tokens",
    request_body = CodeExchange,
    responses((status = 200, body = TokenSet), (status = 400, description = "Unknown, used or expired code, or a verifier that does not match", body = perch_model::ErrorBody)))]
pub async fn exchange_code(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<CodeExchange>,
) -> Result<Json<TokenSet>> {
    let code_hash = hash(&body.code);
    // One exchange at a time: a code's claim and the tokens issued from it
    // are one step, so a reuse that follows finds them to revoke.
    let _write = state.write_lock.lock().await;
    let row = sqlx::query(
        "SELECT user_id, application_id, scopes, code_challenge, expires_ms, used, family FROM auth_codes WHERE hash = ?",
    )
    .bind(&code_hash)
    .fetch_optional(&state.db)
    .await?
    .ok_or_else(|| Error::BadRequest("The code is not known.".into()))?;
    if row.get::<bool, _>("used") {
        // Used twice: whoever used it first may not be who should have, so
        // the tokens its first use issued stop working (RFC 6749 §4.1.2).
        if let Some(family) = row.get::<Option<String>, _>("family") {
            tracing::warn!("an authorization code was used again: the tokens it issued are revoked");
            state.callers.forget(&revoke_family(&state.db, &family).await?);
        }
        return Err(Error::BadRequest("The code has already been used.".into()));
    }
    if row.get::<i64, _>("expires_ms") <= now_ms() {
        return Err(Error::BadRequest("The code has expired: sign in again.".into()));
    }
    if pkce_challenge(&body.code_verifier) != row.get::<String, _>("code_challenge") {
        return Err(Error::BadRequest("The code verifier does not match the code challenge.".into()));
    }
    let family = new_family();
    let claimed = sqlx::query("UPDATE auth_codes SET used = 1, family = ? WHERE hash = ? AND used = 0")
        .bind(&family)
        .bind(&code_hash)
        .execute(&state.db)
        .await?;
    if claimed.rows_affected() != 1 {
        return Err(Error::BadRequest("The code has already been used.".into()));
    }
    let scopes = Scope::parse_list(row.get::<&str, _>("scopes")).unwrap_or_default();
    Ok(Json(issue_pair(&state.db, &family, row.get("user_id"), row.get("application_id"), &scopes).await?))
}

/// POST /api/oauth/refreshtoken: a refresh token for a new pair; the old one is retired.
#[utoipa::path(post, path = "/api/oauth/refreshtoken", tag = "oauth", summary = "A new token pair for a refresh token, which is retired",
    request_body = RefreshRequest,
    responses((status = 200, body = TokenSet), (status = 400, description = "No refresh token in the body", body = perch_model::ErrorBody), (status = 401, description = "Unknown, used or expired refresh token", body = perch_model::ErrorBody)))]
pub async fn refresh(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<RefreshRequest>,
) -> Result<Json<TokenSet>> {
    let token_hash = hash(&body.refresh_token);
    let _write = state.write_lock.lock().await;
    let row = sqlx::query(
        "UPDATE tokens SET retired = 1 WHERE hash = ? AND kind = 'refresh' AND retired = 0 AND expires_ms > ? \
         RETURNING user_id, application_id, scopes, family",
    )
    .bind(&token_hash)
    .bind(now_ms())
    .fetch_optional(&state.db)
    .await?;
    let Some(row) = row else {
        // Retired moments ago by another tab of the same person: the pair
        // that refresh issued, while it still works.
        if let Some(pair) = state.refreshes.recent(&token_hash) {
            if refresh_is_live(&state.db, &pair.refresh_token).await? {
                return Ok(Json(pair));
            }
        }
        // A retired refresh token used again after the grace window:
        // whoever holds the family now may be a thief, so the whole family
        // stops working.
        let reused: Option<String> =
            sqlx::query_scalar("SELECT family FROM tokens WHERE hash = ? AND kind = 'refresh' AND retired = 1")
                .bind(&token_hash)
                .fetch_optional(&state.db)
                .await?;
        if let Some(family) = reused {
            tracing::warn!("a retired refresh token was reused: its family is revoked");
            state.callers.forget(&revoke_family(&state.db, &family).await?);
        }
        return Err(Error::Unauthorized("The refresh token is not known, was already used, or has expired.".into()));
    };
    let scopes = Scope::parse_list(row.get::<&str, _>("scopes")).unwrap_or_default();
    let family: String = row.get("family");
    let pair = issue_pair(&state.db, &family, row.get("user_id"), row.get("application_id"), &scopes).await?;
    state.refreshes.remember(token_hash, &pair);
    Ok(Json(pair))
}

/// POST /api/oauth/revoke: beyond the seed, in the spirit of RFC 7009. The
/// token (access or refresh) and every token of its family stop working. An
/// unknown or already revoked token is answered the same way, so the answer
/// tells nothing about which tokens exist.
#[utoipa::path(post, path = "/api/oauth/revoke", tag = "oauth", summary = "Revoke a token (access or refresh) and its whole family; the same answer for unknown tokens",
    request_body = RevokeRequest,
    responses((status = 200, description = "Revoked, or was not a live token", body = Object), (status = 400, description = "No token in the body", body = perch_model::ErrorBody)))]
pub async fn revoke(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<RevokeRequest>,
) -> Result<Json<serde_json::Value>> {
    if body.token.is_empty() {
        return Err(Error::BadRequest("Name the token to revoke.".into()));
    }
    let _write = state.write_lock.lock().await;
    if let Some(family) = family_of(&state.db, &hash(&body.token)).await? {
        state.callers.forget(&revoke_family(&state.db, &family).await?);
    }
    Ok(Json(serde_json::json!({})))
}
