//! The one error type of the interface: each variant maps to the contract's
//! status and the `{"code", "_message"}` body.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use perch_model::ApiError;

#[derive(Debug)]
pub enum Error {
    /// 400: malformed input.
    BadRequest(String),
    /// 404: no such thing.
    NotFound(String),
    /// 500: something broke on our side; the details go to the log only.
    Internal(anyhow::Error),
}

impl Error {
    pub fn status(&self) -> StatusCode {
        match self {
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match self {
            Error::BadRequest(m) | Error::NotFound(m) => m,
            Error::Internal(e) => {
                tracing::error!("internal error: {e:#}");
                "Something went wrong on the server.".to_owned()
            }
        };
        (status, Json(ApiError { code: status.as_u16(), message })).into_response()
    }
}
