//! The interface under `/api/v1`: one module per resource. Every route but
//! `ping` takes a [`crate::extractor::Caller`], so every call is checked
//! against the token's scopes.

pub mod posts;
mod rows;
pub mod users;

use crate::error::Error;
use crate::extractor::BODY_LIMIT;
use crate::state::AppState;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::{Json, Router};
use perch_model::Ping;

/// The interface: each resource's routes (`posts::router`,
/// `users::router`), `ping`, and a JSON 404 for anything else. The
/// OpenAPI document beside it is mounted by `lib.rs`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/ping", get(ping))
        .merge(posts::router())
        .merge(users::router())
        .fallback(unknown_endpoint)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

#[utoipa::path(get, path = "/api/v1/ping", tag = "service", summary = "Liveness, without a token", responses((status = 200, body = Ping)))]
pub async fn ping() -> Json<Ping> {
    Json(Ping { ping: "pong".into() })
}

async fn unknown_endpoint() -> Error {
    Error::NotFound("There is no such endpoint.".into())
}
