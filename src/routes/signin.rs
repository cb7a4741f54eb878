//! `/signin`: with the server's own sign-in page (OAuth), or by pasting an
//! access token for servers without OAuth. Signed in, it says who and what
//! the token allows. `?next=` says where to return afterwards (checked by
//! `oauth::return_path`: a path of this app, or home).

use crate::account::session::{use_session, Entering};
use crate::api::use_api;
use crate::browser::navigation::PageHeading;
use crate::browser::navigation::Title;
use crate::components::later::{later, lazy, Meanwhile};
use crate::i18n::t;
use leptos::prelude::*;
use leptos::task::spawn_local_scoped;
use leptos_router::hooks::{use_navigate, use_query_map};

/// Where to go once signed in.
fn next_path() -> String {
    let query = use_query_map();
    crate::account::oauth::return_path(query.with_untracked(|q| q.get("next")).as_deref())
}

#[component]
pub fn SignIn() -> impl IntoView {
    later(signin_page::GROUP, signin_page::load, signin_page::draw, Meanwhile::Page)
}

lazy! { page_signin, fn signin_page() {
    let session = use_session();
    // `?add`: one more account, with the one signed in kept.
    let adding = use_query_map().with_untracked(|q| q.get("add").is_some()) && session.is_signed_in();
    let text = if adding { t::add_an_account() } else { t::sign_in() };
    view! {
        <Title text=move || t::title_page(text.get()).get()/>
        <main id="main" class="page signin">
            <PageHeading text=text/>
            {move || if session.is_signed_in() && !adding && !session.ended() {
                view! { <SignedIn/> }.into_any()
            } else if adding && !session.can_add() {
                view! { <p>{t::accounts_full(crate::account::session::MAX_ACCOUNTS as u64)}</p> }.into_any()
            } else {
                view! { <WithServer/> <WithToken/> }.into_any()
            }}
            {move || (!session.is_signed_in()).then(|| view! { <crate::components::language_menu::LanguageMenu/> })}
        </main>
    }
}}

#[component]
fn SignedIn() -> impl IntoView {
    let session = use_session();
    let user = session.user().unwrap_or_default();
    view! {
        <p>{t::signed_in_as()} " " <strong>{format!("@{}", user.username)}</strong></p>
        <crate::components::sign_out::SignOutButton label=t::sign_out()/>
        {session.can_add().then(|| view! { <p><a href=crate::account::oauth::add_account_href()>{t::add_an_account()}</a></p> })}
    }
}

#[component]
fn WithServer() -> impl IntoView {
    let config = crate::api::config::use_config();
    let api = use_api();
    let error = RwSignal::new(None::<crate::i18n::Text>);
    let busy = RwSignal::new(false);
    let server = api.root().trim_start_matches("https://").trim_start_matches("http://").to_owned();
    let start = move |_| {
        let (api, config, next) = (api.clone(), config.clone(), next_path());
        busy.set(true);
        spawn_local_scoped(async move {
            if let Err(e) = crate::account::oauth::start(&api, &config, next, &perch_model::Scope::ALL).await {
                error.set(Some(e));
                busy.set(false);
            }
        });
    };
    view! {
        <section class="signin-option" aria-labelledby="with-server">
            <h2 id="with-server">{t::with_your_server()}</h2>
            <p>{t::sign_in_on_server(server)}</p>
            <button type="button" on:click=start disabled=move || busy.get()>{t::sign_in()}</button>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </section>
    }
}

#[component]
fn WithToken() -> impl IntoView {
    let api = use_api();
    let session = use_session();
    let navigate = use_navigate();
    let token = RwSignal::new(String::new());
    let error = RwSignal::new(None::<crate::i18n::Text>);
    let busy = RwSignal::new(false);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let value = token.get_untracked().trim().to_owned();
        if value.is_empty() {
            error.set(Some(t::paste_token_first().into()));
            return;
        }
        busy.set(true);
        error.set(None);
        let (api, navigate, next) = (api.clone(), navigate.clone(), next_path());
        spawn_local_scoped(async move {
            match api.user_of_token(&value).await {
                Ok(user) => {
                    if session.enter(Entering::Pasted(value), user) {
                        // Added: nothing of the account before may stay in memory.
                        let _ = window().location().assign(&next);
                    } else {
                        navigate(&next, Default::default());
                    }
                }
                Err(e) => {
                    error.set(Some(e.explain()));
                    busy.set(false);
                }
            }
        });
    };
    view! {
        <section class="signin-option" aria-labelledby="with-token">
            <h2 id="with-token">{t::with_an_access_token()}</h2>
            <p>{t::token_help()} " " <code>"perch-server token"</code></p>
            <form on:submit=submit>
                <label for="access-token">{t::access_token()}</label>
                <input id="access-token" type="password" autocomplete="off" spellcheck="false"
                    prop:value=move || token.get() on:input=move |ev| token.set(event_target_value(&ev))/>
                <button type="submit" disabled=move || busy.get()>{t::sign_in_with_token()}</button>
            </form>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </section>
    }
}
