//! Perch, the web app. `App` loads `config.json`, then hands the routes
//! (`routes/`, one file a page) the configuration through context; shared
//! pieces of the page live in `components/`.

pub mod api;
pub mod boot;
pub mod clock;
pub mod components;
pub mod config;
pub mod drafts;
pub mod navigation;
pub mod oauth;
pub mod offline;
pub mod routes;
pub mod session;
pub mod shortcuts;
pub mod storage;
pub mod store;
#[cfg(test)]
mod test_rng;
pub mod text;
pub mod timeline;

use leptos::prelude::*;
use perch_model::ClientConfig;

/// The whole app: the configuration first, then the pages. Until the
/// configuration is known, `index.html`'s own frame stays on screen.
#[component]
pub fn App() -> impl IntoView {
    let config = LocalResource::new(config::load);
    move || match config.get() {
        None => ().into_any(),
        Some(Ok(config)) => {
            boot::remove_frame();
            view! { <routes::Shell config/> }.into_any()
        }
        Some(Err(problem)) => {
            boot::remove_frame();
            view! { <config::ConfigProblem problem/> }.into_any()
        }
    }
}

/// The configuration the pages read through `use_context`.
pub fn use_config() -> ClientConfig {
    expect_context::<ClientConfig>()
}

/// The API client every page uses.
pub fn use_api() -> api::Api {
    expect_context::<api::Api>()
}

/// A mutex's data, even after a panic elsewhere poisoned it: the app's
/// shared state (store, timeline queue) stays readable.
pub(crate) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
