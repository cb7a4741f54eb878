//! The interface under `/api/v1`: one module per resource. Every route but
//! `ping` takes a [`crate::extractor::Caller`], so every call is checked
//! against the token's scopes.

pub mod posts;
mod rows;
pub mod users;

use crate::error::Error;
use crate::AppState;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::{Json, Router};
use perch_model::Ping;

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 16 * 1024;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/ping", get(ping))
        .route("/openapi.json", get(crate::openapi::document))
        .route("/post", post(posts::send))
        .route("/post/{uuid}", get(posts::get).patch(posts::update).delete(posts::delete))
        .route("/post/{uuid}/replies/{page}", get(posts::replies))
        .route("/post/{uuid}/like", post(posts::like))
        .route("/user", get(users::owner))
        .route("/user/", get(users::owner))
        .route("/user/{id}", get(users::get))
        .route("/user/{id}/posts/{page}", get(users::posts))
        .route("/user/{id}/follow", post(users::follow))
        .route("/user/{id}/following", get(users::following))
        .route("/user/{id}/followers", get(users::followers))
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
