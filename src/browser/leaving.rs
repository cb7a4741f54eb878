//! Leaving the page on purpose (a sign-out's reload) after the work that
//! must not be cut off by it: IndexedDB drops the person asked for.
//! Whatever registers here is waited for, at most [`AT_MOST_MS`], before
//! the page goes.

use std::cell::Cell;
use wasm_bindgen::JsCast;

/// The longest a reload waits for the work registered before it.
pub const AT_MOST_MS: i32 = 3_000;

thread_local! {
    /// Work registered and not ended yet.
    static PENDING: Cell<usize> = const { Cell::new(0) };
    /// A reload was asked for: it happens when the last work ends.
    static ASKED: Cell<bool> = const { Cell::new(false) };
    /// The reload has begun: a second one (the time limit after the work
    /// ended) would start the slow navigation over.
    static LEFT: Cell<bool> = const { Cell::new(false) };
}

/// Starts `work` now; a [`reload`] asked for meanwhile waits for it.
pub fn finish_first(work: impl std::future::Future<Output = ()> + 'static) {
    PENDING.with(|p| p.set(p.get() + 1));
    wasm_bindgen_futures::spawn_local(async move {
        work.await;
        let left = PENDING.with(|p| {
            p.set(p.get().saturating_sub(1));
            p.get()
        });
        if left == 0 && ASKED.with(Cell::get) {
            now();
        }
    });
}

/// Whether the page is being left on purpose (a sign-out's reload was
/// asked for): what this visit still had under way must not act for an
/// account any more (`api::Api::as_account`).
pub fn asked() -> bool {
    ASKED.with(Cell::get)
}

/// Reloads the page once the work registered before it ended, or
/// [`AT_MOST_MS`] passed.
pub fn reload() {
    ASKED.with(|a| a.set(true));
    if PENDING.with(Cell::get) == 0 {
        return now();
    }
    let later = wasm_bindgen::closure::Closure::once_into_js(now);
    if let Some(window) = web_sys::window() {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), AT_MOST_MS);
    }
}

/// Reloads, once: whichever of the last work's end and the time limit
/// comes first.
fn now() {
    if LEFT.with(|left| left.replace(true)) {
        return;
    }
    if let Some(window) = web_sys::window() {
        let _ = window.location().reload();
    }
}
