//! The OpenAPI document at `/api/v1/openapi.json`, generated from the
//! handlers' annotations and perch-model's types, for third-party client
//! authors and fuzzers.

use axum::Json;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Perch reference server",
        description = "The social posting interface: posts and replies, users, likes, follows, with a scope check on every call. Every error is {\"code\", \"_message\"}. Pages are 1-based, 15 items each."
    ),
    paths(
        crate::api::ping,
        crate::api::posts::get,
        crate::api::posts::replies,
        crate::api::posts::send,
        crate::api::posts::update,
        crate::api::posts::delete,
        crate::api::posts::like,
        crate::api::users::owner,
        crate::api::users::get,
        crate::api::users::posts,
        crate::api::users::follow,
        crate::api::users::following,
        crate::api::users::followers,
        crate::oauth::show,
        crate::oauth::submit,
        crate::oauth::exchange_code,
        crate::oauth::refresh,
        crate::oauth::revoke,
    ),
    modifiers(&BearerToken, &AtLeastOneField)
)]
pub struct ApiDoc;

/// Declares the `bearer` scheme the operations' `security` refers to.
struct BearerToken;

impl Modify for BearerToken {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("An access token from the OAuth flow or `perch-server token`. The scopes listed per operation are the post set and, as the alternative, the reply set."))
                    .build(),
            ),
        );
    }
}

/// `PostUpdate` needs at least one field (an empty PATCH is 400). Written
/// here because utoipa 5.5's `min_properties` attribute emits
/// `maxProperties` instead.
struct AtLeastOneField;

impl Modify for AtLeastOneField {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{schema::Schema, RefOr};
        let schemas = doc.components.as_mut().map(|c| &mut c.schemas);
        if let Some(RefOr::T(Schema::Object(update))) = schemas.and_then(|s| s.get_mut("PostUpdate")) {
            update.min_properties = Some(1);
        }
    }
}

pub async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
