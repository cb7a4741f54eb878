//! The service worker's registration (`sw.js`, which keeps the app shell so
//! a repeat visit starts offline, and a new release in the background).
//! What is shown offline, and the offer of a new version, are
//! `components/offline.rs`.

use leptos::prelude::*;

/// How long after the page has loaded `sw.js` is registered. Its install
/// reads `index.html` and every file it names again; on a first visit that
/// queued in front of the page's own API requests (up to 0.5 s of a cold
/// LCP, docs/performance.md).
const REGISTER_AFTER: std::time::Duration = std::time::Duration::from_secs(5);

/// Asks the browser to install `sw.js` (beside `index.html`), once the
/// page has loaded and then `REGISTER_AFTER`. Browsers without service
/// workers, or pages that are not a secure context, simply go without.
pub fn register_service_worker() {
    let navigator = window().navigator();
    if !js_sys::Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false) {
        return;
    }
    let register = || {
        set_timeout(
            || {
                // Offline, registering fails: handled here (else an uncaught
                // rejection), and tried again on the next load.
                let registering = window().navigator().service_worker().register("sw.js");
                wasm_bindgen_futures::spawn_local(async move {
                    let _ = wasm_bindgen_futures::JsFuture::from(registering).await;
                });
            },
            REGISTER_AFTER,
        )
    };
    if document().ready_state() == "complete" {
        register();
    } else {
        // `load` fires once; the listener stays, harmless, with the page.
        let _ = window_event_listener_untyped("load", move |_| register());
    }
}
