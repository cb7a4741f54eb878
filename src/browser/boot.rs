//! The page frame that `index.html` paints before the wasm has arrived
//! (`<div id="boot">`: the header and a loading state in plain HTML and
//! CSS). The app removes it in the same task in which it draws its own
//! page, so the browser never paints both, or neither.

/// Removes the static frame; harmless when it is already gone.
pub fn remove_frame() {
    if let Some(frame) = leptos::prelude::document().get_element_by_id("boot") {
        frame.remove();
    }
}
