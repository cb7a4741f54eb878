//! How a page says it is loading, empty, or failed.

use crate::account::session::Refusal;
use crate::api::ApiError;
use crate::i18n::{t, Text};
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
    let here = crate::nav::here(&location.pathname.get_untracked(), &location.search.get_untracked());
    let href = crate::account::oauth::signin_href(&here);
    let (text, link) = if signed_out {
        (t::sign_in_to_read().into(), Some(t::sign_in()))
    } else {
        (error.explain(), (unauthorized || !missing.is_empty()).then(t::sign_in_again))
    };
    view! {
        <div class="error-box" role="alert">
            <p>{text}</p>
            <div class="actions">
                {(!signed_out).then(|| view! { <button type="button" on:click=move |_| retry.run(())>{t::retry()}</button> })}
                {(!missing.is_empty() && !signed_out).then(|| view! { <AskToAllow missing=missing.clone()/> })}
                {link.filter(|_| missing.is_empty()).map(|label| view! { <A href=href>{label}</A> })}
            </div>
        </div>
    }
}

/// Says that a list has nothing in it.
/// What a form said last: an error as an alert, else a status; nothing
/// before the first. `said` is `(is_error, text)`.
#[component]
pub fn Said(said: RwSignal<Option<(bool, String)>>) -> impl IntoView {
    move || {
        said.get().map(|(error, text)| {
            if error {
                view! { <p class="error" role="alert">{text}</p> }.into_any()
            } else {
                view! { <p role="status">{text}</p> }.into_any()
            }
        })
    }
}

#[component]
pub fn Empty(#[prop(into)] text: Text) -> impl IntoView {
    view! { <p class="empty">{text}</p> }
}

/// Why an action the sign-in does not allow was refused, in words next to
/// its button once the person tries it. The button stays focusable
/// (`aria-disabled`, not `disabled`), so keyboard and screen-reader users
/// reach it and hear why.
#[component]
pub fn RefusalNote(shown: RwSignal<Option<Refusal>>) -> impl IntoView {
    move || {
        shown.get().map(|refusal| {
            view! { <span class="refusal" role="status">{refusal.text()} " " <AskToAllow missing=refusal.missing/></span> }
        })
    }
}

/// "Sign in again to allow …": the server's sign-in page for this account,
/// asking for the scopes it holds and the `missing` ones, coming back to
/// this page (where drafts wait, kept per account).
#[component]
pub fn AskToAllow(missing: Vec<Scope>) -> impl IntoView {
    let (api, session, config) =
        (crate::api::use_api(), crate::account::session::use_session(), crate::api::config::use_config());
    let problem = RwSignal::new(None::<Text>);
    let label = t::sign_in_again_to_allow(Scope::join(&missing));
    let ask = move |_| {
        let mut scopes = session.scopes();
        for scope in &missing {
            if !scopes.contains(scope) {
                scopes.push(*scope);
            }
        }
        let location = window().location();
        let here = crate::nav::here(&location.pathname().unwrap_or_default(), &location.search().unwrap_or_default());
        let (api, config) = (api.clone(), config.clone());
        crate::nav::while_shown(async move {
            if let Err(e) = crate::account::oauth::start(&api, &config, here, &scopes).await {
                problem.set(Some(e));
            }
        });
    };
    view! {
        <button type="button" class="link-button ask-to-allow" on:click=ask>{label}</button>
        {move || problem.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
    }
}

/// A click handler that, while the sign-in does not allow the action, says
/// why (the returned note, shown by [`RefusalNote`]) instead of acting.
pub fn refusable<E>(
    refused: impl Fn() -> Option<Refusal> + Clone + 'static,
    act: impl Fn(E) + Clone + 'static,
) -> (impl Fn(E) + Clone + 'static, RwSignal<Option<Refusal>>) {
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
