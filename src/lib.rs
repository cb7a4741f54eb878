//! Perch, the web app. The root: `App` loads `config.json`, then renders
//! the shell and its pages. The rooms, each a folder, from the top floor
//! down; a room imports only the rooms below it (`docs/app.md`, checked by
//! `scripts/import-direction.sh`):
//! - `routes/`: the pages, one file each, and the router;
//! - `components/`: pieces several pages show;
//! - `timeline/`: the home timeline's merge of sources;
//! - `store/`: the one store of posts, users and lists; the one home of
//!   loading from the server and of the account's writes; the local copy
//!   and the outbox;
//! - `account/`: the signed-in person (session, OAuth, drafts);
//! - `api/`: the server's client (`Api`), its HTTP layer and `config.json`;
//! - `nav/`: every address of the app and the page's lifetime;
//! - `browser/`: the browser's services (Web Storage, IndexedDB, DOM,
//!   navigation, shortcuts, clock, boot frame, service worker);
//! - `i18n/`: every word shown, in the reader's language (catalogs in
//!   `locales/`, typed by `build.rs`); `text.rs`: post text; `order.rs`:
//!   the one stable sort every room uses.

// Native builds render views to HTML (`routes::prerender`) with their full
// types (the wasm erases them): deeper than the default limit.
#![recursion_limit = "256"]

pub mod account;
pub mod api;
pub mod browser;
pub mod components;
pub mod i18n;
pub mod nav;
pub mod order;
pub mod reactive;
pub mod routes;
pub mod store;
#[cfg(test)]
mod test_rng;
pub mod text;
pub mod timeline;

use leptos::prelude::*;

/// The whole app: the configuration, the interface's words, the local
/// copy and the outbox first (all already asked for by `index.html`), then the
/// pages. Until they are there, `index.html`'s own frame stays on screen.
///
/// Each piece is read, and the copy parsed, in a task of its own, and the
/// first page is drawn in another: on a reopen all four are there at once,
/// and one task for all of it was long on a slow phone (issue 37).
#[component]
pub fn App() -> impl IntoView {
    browser::marks::mark("perch:app");
    let start = LocalResource::new(|| async {
        use browser::pace::yield_now;
        /// `work` from the next task on.
        async fn own_task<T>(work: impl std::future::Future<Output = T>) -> T {
            yield_now().await;
            work.await
        }
        let (words, config, kept, waiting) = futures::future::join4(
            own_task(i18n::language::start(browser::kept_language::kept())),
            own_task(api::config::load()),
            own_task(store::copy::read()),
            own_task(store::outbox::read()),
        )
        .await;
        yield_now().await;
        (words, config, kept, waiting)
    });
    browser::kept_language::follow_other_tabs();
    move || match start.get() {
        None => ().into_any(),
        Some((Ok(()), Ok(config), kept, waiting)) => {
            browser::marks::mark("perch:started");
            // The shell takes the frame away when it draws its header.
            view! { <routes::Shell config kept waiting/> }.into_any()
        }
        Some((Ok(()), Err(problem), _, _)) => {
            browser::boot::remove_frame();
            view! { <api::config::ConfigProblem problem/> }.into_any()
        }
        Some((Err(problem), _, _, _)) => {
            browser::boot::remove_frame();
            view! { <i18n::language::NoWords problem/> }.into_any()
        }
    }
}
