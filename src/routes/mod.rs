//! The pages, one file each, and the router that picks between them.
//!
//! `/user/:id` takes both `@username` and a uuid: the router matches whole
//! segments, so the `@` is read by the profile pages themselves.

mod home;
mod not_found;
mod oauth_callback;
mod profile;
mod signin;
mod thread;
mod user_list;

use crate::components::header::SiteHeader;
use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;
use perch_model::ClientConfig;

pub use not_found::NotFound;

/// The header and the routed pages, with `config` in context.
#[component]
pub fn Shell(config: ClientConfig) -> impl IntoView {
    crate::storage::forget_unowned_drafts();
    let session = crate::session::Session::restore();
    session.follow_other_tabs();
    let api = crate::api::Api::new(&config, session);
    provide_context(api.clone());
    provide_context(session);
    let store = crate::store::Store::new(session);
    crate::navigation::install(store.clone());
    provide_context(crate::timeline::HomeTimeline::new(api, store.clone(), session));
    provide_context(store);
    provide_context(config);
    crate::clock::provide();
    crate::offline::register_service_worker();
    let help = crate::shortcuts::Help(RwSignal::new(false));
    crate::shortcuts::install(help);
    provide_context(help);
    view! {
        <Router>
            <SiteHeader/>
            <crate::offline::OfflineNotice/>
            <crate::shortcuts::ShortcutsHelp/>
            <Routes fallback=NotFound>
                <Route path=path!("/") view=home::HomePage/>
                <Route path=path!("/post/:uuid") view=thread::Thread/>
                <Route path=path!("/user/:id") view=profile::Profile/>
                <Route path=path!("/user/:id/followers") view=user_list::Followers/>
                <Route path=path!("/user/:id/following") view=user_list::Following/>
                <Route path=path!("/signin") view=signin::SignIn/>
                <Route path=path!("/oauth/callback") view=oauth_callback::OAuthCallback/>
            </Routes>
        </Router>
    }
}

/// The user a `/user/:id` address names, from the store or the server:
/// the user once known, the error if loading failed, and a retry.
pub(crate) fn use_user(
    id: Memo<String>,
) -> (Signal<Option<perch_model::User>>, RwSignal<Option<crate::api::ApiError>>, Callback<()>) {
    let (api, store) = (crate::use_api(), crate::store::use_store());
    let error = RwSignal::new(None);
    let attempt = RwSignal::new(0u32);
    Effect::new({
        let store = store.clone();
        move |_| {
            let key = id.get();
            attempt.track();
            error.set(None);
            if key.is_empty() || store.user_by_key(&key).is_some() {
                return;
            }
            let (api, store) = (api.clone(), store.clone());
            leptos::task::spawn_local_scoped_with_cancellation(async move {
                match api.user(&key).await {
                    Ok(user) => {
                        store.put_user(user);
                    }
                    Err(e) => error.set(Some(e)),
                }
            });
        }
    });
    let user = Signal::derive(move || store.user_by_key(&id.get()).map(|u| u.get()));
    (user, error, Callback::new(move |_| attempt.update(|n| *n += 1)))
}

/// A route parameter, or "" when absent.
pub(crate) fn param(name: &'static str) -> Memo<String> {
    let params = leptos_router::hooks::use_params_map();
    Memo::new(move |_| params.read().get(name).unwrap_or_default())
}
