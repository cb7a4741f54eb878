//! Working without the network: registers the service worker (`sw.js`,
//! which keeps the app shell so a repeat visit starts offline), and shows
//! a notice while the browser is offline. What Perch already has stays on
//! screen; what the person writes stays in its draft until they are back.

use crate::i18n::t;
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
                let _ = window().navigator().service_worker().register("sw.js");
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

/// "You are offline", while the browser says so.
#[component]
pub fn OfflineNotice() -> impl IntoView {
    let online = RwSignal::new(window().navigator().on_line());
    let on = window_event_listener_untyped("online", move |_| online.set(true));
    let off = window_event_listener_untyped("offline", move |_| online.set(false));
    on_cleanup(move || {
        on.remove();
        off.remove();
    });
    view! {
        <p class="offline-notice" role="status">
            {move || (!online.get()).then(|| t::offline_notice().get())}
        </p>
    }
}
