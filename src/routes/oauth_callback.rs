//! `/oauth/callback`: where the server's sign-in page sends the browser back.
//! Finishes the sign-in, then leaves this address (and its code) behind.

use crate::account::oauth::Finished;
use crate::account::session::use_session;
use crate::api::use_api;
use crate::browser::navigation::PageHeading;
use crate::browser::navigation::Title;
use crate::i18n::{t, Text};
use leptos::prelude::*;
use leptos::task::spawn_local_scoped;
use leptos_router::components::A;

#[component]
pub fn OAuthCallback() -> impl IntoView {
    let (api, session) = (use_api(), use_session());
    let error = RwSignal::new(None::<Text>);
    let hand_over = use_context::<super::HandOver>();
    let search = window().location().search().unwrap_or_default();
    spawn_local_scoped(async move {
        match crate::account::oauth::finish(&api, session, &search).await {
            // Loaded afresh (from the cache) when the account was added
            // beside another (nothing the app held for that one may stay)
            // or when the whole app runs here (its outbox waits for the
            // page after this one). A first account from the signed-out
            // start goes on in this page instead (issue 68: a newcomer's
            // Home in a second). Either way the code leaves the history.
            Ok(Finished { return_to, added }) => match hand_over.filter(|_| !added) {
                Some(hand_over) => hand_over.go_on(&return_to),
                None => drop(window().location().replace(&return_to)),
            },
            Err(e) => {
                // Take the code out of the address bar even when it failed.
                let _ = window()
                    .history()
                    .map(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/oauth/callback")));
                error.set(Some(e));
            }
        }
    });
    view! {
        <Title text=t::title_signing_in()/>
        <main id="main" class="page callback">
            <PageHeading text=t::signing_in()/>
            {move || match error.get() {
                None => view! { <p role="status">{t::finishing_sign_in()}</p> }.into_any(),
                Some(e) => view! {
                    <p class="error" role="alert">{e}</p>
                    <p><A href=crate::nav::AppPath::SignIn.href()>{t::try_signing_in_again()}</A></p>
                }.into_any(),
            }}
        </main>
    }
}
