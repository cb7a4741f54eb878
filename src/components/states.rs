//! How a page says it is loading, empty, or failed.

use crate::api::ApiError;
use leptos::prelude::*;
use leptos_router::components::A;
use perch_model::Scope;

/// An error in words a person understands, with Retry, and a way to sign in
/// again when a scope is missing.
#[component]
pub fn ErrorBox(error: ApiError, retry: Callback<()>) -> impl IntoView {
    let missing: Vec<Scope> = match &error {
        ApiError::Forbidden { missing, .. } => missing.clone(),
        _ => Vec::new(),
    };
    let signin_again = !missing.is_empty() || matches!(error, ApiError::Unauthorized(_));
    view! {
        <div class="error-box" role="alert">
            <p>{error.explain()}</p>
            <div class="actions">
                <button type="button" on:click=move |_| retry.run(())>"Retry"</button>
                {signin_again.then(|| view! { <A href="/signin">"Sign in again"</A> })}
            </div>
        </div>
    }
}

/// Says that a list has nothing in it.
#[component]
pub fn Empty(text: &'static str) -> impl IntoView {
    view! { <p class="empty">{text}</p> }
}
