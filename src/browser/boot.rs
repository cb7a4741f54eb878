//! The page frame that `index.html` paints before the wasm has arrived
//! (`<div id="boot">`), and the app's taking over from it, so the browser
//! never paints both, or neither. The frame is one of two:
//! - the wordless frame (the header's shape and a loading state): it goes
//!   in the task in which the app draws its own header ([`header_drawn`]);
//! - the first screen rendered at build time (`data-prerendered`: the
//!   sign-in page, words and all, docs/prerender.md): the app draws hidden
//!   behind it (style/main.css) until its page is there ([`page_drawn`]).
//!   `index.html`, which owns it, does the taking over when told
//!   (`window.perchFirstScreen`): its ids renamed meanwhile, so each names
//!   one element; then what the person typed into it, and its focus, given
//!   to the app's fields.

use leptos::prelude::{document, ArcRwSignal, Get, Update};

thread_local! {
    /// Whether a page (or the error in its place) has been drawn this visit.
    static DRAWN: ArcRwSignal<bool> = ArcRwSignal::new(false);
}

/// Whether the app has drawn a page yet this visit (tracked).
pub fn page_is_drawn() -> bool {
    DRAWN.with(|d| d.get())
}

fn frame() -> Option<web_sys::Element> {
    document().get_element_by_id("boot")
}

/// Removes the frame, whichever it is; harmless when it is already gone.
/// For what replaces the page (a configuration that cannot be read).
pub fn remove_frame() {
    if let Some(frame) = frame() {
        frame.remove();
    }
}

/// The app is drawing its header: the wordless frame goes now; a rendered
/// first screen stays, its ids set apart, until the page is drawn too.
pub fn header_drawn() {
    let Some(frame) = frame() else { return };
    if frame.has_attribute("data-prerendered") {
        tell_first_screen("apart");
    } else {
        frame.remove();
    }
}

/// The app's page (or the error in its place) is drawn: at the end of this
/// task, before the next paint, a rendered first screen hands over to it.
pub fn page_drawn() {
    // Nothing to tell, nor to take over from, when the page is rendered at
    // build time.
    if !cfg!(target_arch = "wasm32") {
        return;
    }
    // Told after this task: it is called while the page is being drawn.
    leptos::prelude::queue_microtask(|| {
        DRAWN.with(|d| {
            d.try_maybe_update(|d| {
                let first = !*d;
                *d = true;
                (first, ())
            })
        });
    });
    if frame().is_some() {
        leptos::prelude::queue_microtask(|| {
            if frame().is_some() {
                tell_first_screen("handOver");
                // Whatever index.html did, the frame does not stay.
                remove_frame();
            }
        });
    }
}

/// Calls `window.perchFirstScreen[what]()`, `index.html`'s.
fn tell_first_screen(what: &str) {
    use wasm_bindgen::JsCast;
    let window = leptos::prelude::window();
    let Ok(first) = js_sys::Reflect::get(&window, &"perchFirstScreen".into()) else { return };
    if let Some(call) =
        js_sys::Reflect::get(&first, &what.into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    {
        let _ = call.call0(&first);
    }
}
