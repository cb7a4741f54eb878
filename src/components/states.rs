//! How a page says it is loading, empty, or failed.

use crate::api::ApiError;
use leptos::prelude::*;
use leptos_router::components::A;
use perch_model::Scope;

/// An error in words a person understands, with Retry, and a way to sign in
/// (again, when a scope is missing or the sign-in ended) that comes back here.
#[component]
pub fn ErrorBox(error: ApiError, retry: Callback<()>) -> impl IntoView {
    let missing: Vec<Scope> = match &error {
        ApiError::Forbidden { missing, .. } => missing.clone(),
        _ => Vec::new(),
    };
    let unauthorized = matches!(error, ApiError::Unauthorized(_));
    let signed_out = unauthorized && !crate::account::session::use_session().is_signed_in();
    let location = leptos_router::hooks::use_location();
    let here = crate::routes::here(&location.pathname.get_untracked(), &location.search.get_untracked());
    let href = crate::account::oauth::signin_href(&here);
    let (text, link) = if signed_out {
        ("Sign in to read this.".to_owned(), Some("Sign in"))
    } else {
        (error.explain(), (unauthorized || !missing.is_empty()).then_some("Sign in again"))
    };
    view! {
        <div class="error-box" role="alert">
            <p>{text}</p>
            <div class="actions">
                {(!signed_out).then(|| view! { <button type="button" on:click=move |_| retry.run(())>"Retry"</button> })}
                {link.map(|label| view! { <A href=href>{label}</A> })}
            </div>
        </div>
    }
}

/// Says that a list has nothing in it.
#[component]
pub fn Empty(text: &'static str) -> impl IntoView {
    view! { <p class="empty">{text}</p> }
}

/// Why an action the sign-in does not allow was refused, in words next to
/// its button once the person tries it. The button stays focusable
/// (`aria-disabled`, not `disabled`), so keyboard and screen-reader users
/// reach it and hear why.
#[component]
pub fn RefusalNote(shown: RwSignal<Option<String>>) -> impl IntoView {
    move || shown.get().map(|reason| view! { <span class="refusal" role="status">{reason}</span> })
}

/// A click handler that, while the sign-in does not allow the action, says
/// why (the returned note, shown by [`RefusalNote`]) instead of acting.
pub fn refusable<E>(
    refused: impl Fn() -> Option<String> + Clone + 'static,
    act: impl Fn(E) + Clone + 'static,
) -> (impl Fn(E) + Clone + 'static, RwSignal<Option<String>>) {
    let note = RwSignal::new(None);
    let click = move |ev: E| match refused() {
        Some(reason) => note.set(Some(reason)),
        None => {
            note.set(None);
            act(ev)
        }
    };
    (click, note)
}
