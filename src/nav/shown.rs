//! The lifetime of the page (or component) being shown, in its two forms:
//! work that belongs to the page and stops with it ([`while_shown`]: a
//! read whose answer only that page wants), and work that outlives it but
//! tells the page when it ends, only if the page is still there
//! ([`WhileShown::then`]: a send the person may leave while it runs).
//! Either way nothing of a page is touched after the page has gone: in
//! wasm that would be a panic that kills the app.

use leptos::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What a page does when a write it started has ended.
pub type Then<T> = Box<dyn FnOnce(T)>;

/// Runs `work` for as long as the calling page or component is shown: it
/// is dropped (its requests aborted) when that goes. Boxed, so the
/// framework's task wrapper is compiled once for every page's work, not
/// once per future type (`docs/size.md`).
pub fn while_shown(work: impl std::future::Future<Output = ()> + 'static) {
    let work: std::pin::Pin<Box<dyn std::future::Future<Output = ()>>> = Box::pin(work);
    leptos::task::spawn_local_scoped_with_cancellation(work);
}

/// Whether the component that made it is still shown. Made in the
/// component's body (where its reactive owner is current, unlike in an
/// event handler), it turns false when the component goes.
#[derive(Clone)]
pub struct WhileShown(Arc<AtomicBool>);

impl WhileShown {
    pub fn here() -> Self {
        let shown = Arc::new(AtomicBool::new(true));
        on_cleanup({
            let shown = shown.clone();
            move || shown.store(false, Ordering::Relaxed)
        });
        WhileShown(shown)
    }

    /// `then`, run only while the component is still shown: a write that
    /// ends after its page has gone must not touch the page's disposed
    /// state.
    pub fn then<T: 'static>(&self, then: impl FnOnce(T) + 'static) -> Then<T> {
        let shown = self.0.clone();
        Box::new(move |value| {
            if shown.load(Ordering::Relaxed) {
                then(value)
            }
        })
    }
}
