//! The one error type of the interface: each variant maps to the contract's
//! status and the `{"code", "_message"}` body.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use perch_model::{ErrorBody, Scope};

#[derive(Debug)]
pub enum Error {
    /// 400: malformed input.
    BadRequest(String),
    /// 401: no token, or one that is unknown or expired.
    Unauthorized(String),
    /// 403: the token lacks these scopes.
    MissingScopes(Vec<Scope>),
    /// 403: allowed in general, not on this thing (someone else's post, a locked post).
    Forbidden(String),
    /// 404: no such post, user or endpoint.
    NotFound(String),
    /// 409: a request with the same Idempotency-Key is still being answered.
    Conflict(String),
    /// 413: the body is over the limit.
    PayloadTooLarge,
    /// 422: the content breaks the 500-character rule.
    Unprocessable(String),
    /// 429: slow down; try again after this many seconds.
    TooManyRequests { retry_after_secs: u64 },
    /// 500: something broke on our side; the details go to the log only.
    Internal(anyhow::Error),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn status(&self) -> StatusCode {
        match self {
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Error::MissingScopes(_) | Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::Conflict(_) => StatusCode::CONFLICT,
            Error::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Error::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Error::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn message(&self) -> String {
        match self {
            Error::BadRequest(m)
            | Error::Unauthorized(m)
            | Error::Forbidden(m)
            | Error::NotFound(m)
            | Error::Conflict(m)
            | Error::Unprocessable(m) => m.clone(),
            Error::MissingScopes(scopes) => format!(
                "The token lacks the scope{} {}.",
                if scopes.len() == 1 { "" } else { "s" },
                Scope::join(scopes)
            ),
            Error::PayloadTooLarge => "The request body is larger than 16 KiB.".into(),
            Error::TooManyRequests { retry_after_secs } => {
                format!("Too many requests: try again in {retry_after_secs} seconds.")
            }
            Error::Internal(_) => "Something went wrong on the server.".into(),
        }
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if let Error::Internal(e) = &self {
            tracing::error!("internal error: {e:#}");
        }
        let status = self.status();
        let mut res = (status, Json(ErrorBody { code: status.as_u16(), message: self.message() })).into_response();
        if let Error::TooManyRequests { retry_after_secs } = self {
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
        }
        res
    }
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Self {
        Error::Internal(e.into())
    }
}

impl From<anyhow::Error> for Error {
    fn from(e: anyhow::Error) -> Self {
        Error::Internal(e)
    }
}

/// The answers every operation with a token may get instead of its result,
/// for the OpenAPI document (`responses(...)` of each handler). Never built:
/// the handlers answer with [`Error`], whose statuses these describe.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum Refused {
    #[response(status = 401, description = "No token, or an unknown or expired one")]
    Unauthorized(ErrorBody),
    #[response(status = 403, description = "A missing scope (named in the message)")]
    Forbidden(ErrorBody),
    #[response(status = 429, description = "Rate limited; see Retry-After")]
    TooManyRequests(ErrorBody),
}

/// 404, for operations on a post or user named in the path.
#[derive(utoipa::IntoResponses)]
#[response(status = 404, description = "No such post or user")]
#[allow(dead_code)]
pub struct NotFound(ErrorBody);

/// 400, for operations that read a page number or a body.
#[derive(utoipa::IntoResponses)]
#[response(status = 400, description = "Malformed input")]
#[allow(dead_code)]
pub struct Malformed(ErrorBody);

/// 413 and 422, for operations that take post content.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum ContentRefused {
    #[response(status = 413, description = "Body over 16 KiB")]
    TooLarge(ErrorBody),
    #[response(status = 422, description = "Content empty or over 500 characters")]
    Unprocessable(ErrorBody),
}
