//! Writing the copy while the app runs: when something changed, once
//! changes pause, at the latest every [`SAVE_AT_MOST`], and when the tab is
//! hidden or left (`visibilitychange`, `pagehide`); never for an account no
//! longer current in this browser. `index.html` commits each write as soon
//! as it is asked, so one begun as the page is left (a reload, the tab
//! closed) is not aborted with the page.

use super::Home;
use crate::browser::indexed_db::{call, idb, Db};
use crate::store::Store;
use leptos::prelude::*;
use std::sync::atomic::Ordering;
use wasm_bindgen::JsValue;

/// How often the copy is looked at while the app runs: it is written once
/// nothing changed for this long (a burst of pages is written once, after
/// it), or at the latest every [`SAVE_AT_MOST`] while changes go on, and
/// whenever the tab is hidden.
const SAVE_TICK: std::time::Duration = std::time::Duration::from_secs(3);
const SAVE_AT_MOST: f64 = 30_000.0;

impl Store {
    /// Something the copy holds may have changed since it was written.
    pub(super) fn changed_since_saved(&self) -> bool {
        self.inner.edits.load(Ordering::Relaxed) != self.inner.saved_edits.load(Ordering::Relaxed)
    }
}

/// Writes the signed-in account's copy for the visit, when something
/// changed: once changes have paused for a [`SAVE_TICK`], at least every
/// [`SAVE_AT_MOST`] while they go on, and when the tab is hidden (it may
/// not come back). `home` gives the home timeline's merge of an account,
/// if it has one. Nothing is written for an account no longer current in
/// this browser (signed out or switched in another tab, this one about to
/// reload).
pub fn keep_saving<H: Home>(store: Store, max: usize, home: impl Fn(&str) -> Option<H> + 'static) {
    if idb(Db::Copies).is_none() {
        return;
    }
    let last_saved = std::rc::Rc::new(std::cell::Cell::new(js_sys::Date::now()));
    let save = std::rc::Rc::new({
        let (store, last_saved) = (store.clone(), last_saved.clone());
        move || {
            let Some(me) = store.me() else { return };
            if !store.changed_since_saved() || crate::account::session::current_in_storage() != Some(me.clone()) {
                return;
            }
            last_saved.set(js_sys::Date::now());
            store.inner.saved_edits.store(store.inner.edits.load(Ordering::Relaxed), Ordering::Relaxed);
            let copy = store.copy_of(&me, home(&me).as_ref(), max);
            let Ok(text) = serde_json::to_string(&copy) else { return };
            let account = JsValue::from_str(&me);
            wasm_bindgen_futures::spawn_local(async move {
                let _ = call(Db::Copies, "put", &[account, text.into()]).await;
            });
        }
    });
    let seen = std::cell::Cell::new(store.inner.edits.load(Ordering::Relaxed));
    let tick = send_wrapper::SendWrapper::new({
        let save = save.clone();
        move || {
            let now = store.inner.edits.load(Ordering::Relaxed);
            let paused = seen.replace(now) == now;
            if paused || js_sys::Date::now() - last_saved.get() >= SAVE_AT_MOST {
                save();
            }
        }
    });
    let _ = set_interval_with_handle(move || (*tick)(), SAVE_TICK);
    let hidden = send_wrapper::SendWrapper::new({
        let save = save.clone();
        move || {
            if document().visibility_state() == web_sys::VisibilityState::Hidden {
                save();
            }
        }
    });
    // Hidden before this code arrived (it comes after the first paint):
    // written now, since the tab may not come back.
    hidden();
    // Left (a reload, another address, the tab closed): written now, so the
    // last moments of reading are in the copy the next start draws from.
    let left = send_wrapper::SendWrapper::new(move || save());
    // All live as long as the visit, like the store.
    let _ = window_event_listener_untyped("visibilitychange", move |_| hidden());
    let _ = window_event_listener_untyped("pagehide", move |_| left());
}
