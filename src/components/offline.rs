//! Working without the network, as shown: a notice while the browser is
//! offline or the server does not answer (saying when the local copy shown
//! was saved), and the offer to reload once a new version is ready. What
//! Perch already has stays on screen; what the person writes stays in its
//! draft until they are back. The service worker itself is registered by
//! `browser/service_worker.rs`.

use crate::api::use_api;
use crate::browser::clock;
use crate::i18n::t;
use crate::store::use_store;
use leptos::prelude::*;

/// "You are offline" while the browser says so, or "The server cannot be
/// reached" while its last request got no answer; until the server has
/// answered once, what shows is the local copy, and the notice says when
/// it was saved.
#[component]
pub fn OfflineNotice() -> impl IntoView {
    notice(use_store().copy_saved())
}

/// The offline notice of the signed-out start (and of the sign-in page
/// rendered at build time), which shows no local copy.
#[component]
pub fn OfflinePlace() -> impl IntoView {
    notice(None)
}

/// The notice, `saved` being when the local copy shown was saved.
fn notice(saved: Option<f64>) -> impl IntoView {
    let online = browser_online();
    let api = use_api();
    let notice = move || {
        let reach = api.reach();
        let offline = !online.get();
        if !offline && !reach.unreachable {
            return None;
        }
        let copy_shown = saved.filter(|_| !reach.answered);
        Some(match copy_shown {
            Some(at) => {
                let at = perch_model::Timestamp(at as i64);
                let when = clock::spoken(at, clock::now());
                match offline {
                    true => t::offline_copy(when).get(),
                    false => t::unreachable_copy(when).get(),
                }
            }
            None if offline => t::offline_notice().get(),
            None => t::unreachable().get(),
        })
    };
    view! { <p class="offline-notice" role="status">{notice}</p> }
}

/// Whether the browser says it is online, followed.
#[cfg(target_arch = "wasm32")]
fn browser_online() -> RwSignal<bool> {
    let online = RwSignal::new(window().navigator().on_line());
    let on = window_event_listener_untyped("online", move |_| online.set(true));
    let off = window_event_listener_untyped("offline", move |_| online.set(false));
    on_cleanup(move || {
        on.remove();
        off.remove();
    });
    online
}

/// Rendered at build time (`routes::prerender`): online, nothing to say.
#[cfg(not(target_arch = "wasm32"))]
fn browser_online() -> RwSignal<bool> {
    RwSignal::new(true)
}

/// "A new version of Perch is ready", with Reload: shown once the service
/// worker has kept a new release whole (it says "perch-update-ready"), so
/// the reload starts it at once, its wasm already here. Drafts are kept
/// across the reload, as always.
#[component]
pub fn UpdateNotice() -> impl IntoView {
    use wasm_bindgen::{closure::Closure, JsCast};
    // Told before the app started: index.html kept it.
    let told_before = js_sys::Reflect::get(&window(), &"perchUpdateReady".into()).is_ok_and(|v| v.is_truthy());
    let ready = RwSignal::new(told_before);
    let navigator = window().navigator();
    if js_sys::Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false) {
        let container = navigator.service_worker();
        // A message is another context's word: only this exact one counts.
        let told = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let kind = js_sys::Reflect::get(&ev.data(), &"type".into()).ok().and_then(|t| t.as_string());
            if kind.as_deref() == Some("perch-update-ready") {
                let _ = ready.try_set(true);
            }
        });
        let _ = container.add_event_listener_with_callback("message", told.as_ref().unchecked_ref());
        let (container, told) = (send_wrapper::SendWrapper::new(container), send_wrapper::SendWrapper::new(told));
        on_cleanup(move || {
            let _ = container.remove_event_listener_with_callback("message", told.as_ref().unchecked_ref());
        });
    }
    move || {
        ready.get().then(|| {
            view! {
                <div class="update-notice" role="status">
                    <span>{t::update_ready()}</span>
                    " "
                    <button type="button" on:click=|_| { let _ = window().location().reload(); }>{t::reload()}</button>
                </div>
            }
        })
    }
}
