//! The interface under `/api/v1`.

use crate::error::Error;
use axum::routing::get;
use axum::{Json, Router};
use perch_model::Ping;

pub fn router() -> Router {
    Router::new().route("/ping", get(ping)).fallback(unknown_endpoint)
}

async fn ping() -> Json<Ping> {
    Json(Ping { ping: "pong".into() })
}

async fn unknown_endpoint() -> Error {
    Error::NotFound("There is no such endpoint.".into())
}
