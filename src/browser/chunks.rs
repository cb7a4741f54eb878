//! The files of the split modules, as the `index.html` of this version
//! lists them (`window.perchChunks`, written by perch-xtask; absent in a
//! build that does not split).

use wasm_bindgen::JsCast;

/// Once a page is on screen: the files of the pages it links to are asked
/// for when the browser is idle, at low priority, so that a click finds its
/// page's code already here (index.html's `fetchLinked`, which also follows
/// links that appear later, until every page's files were asked for).
pub fn fetch_linked_after_paint() {
    leptos::task::spawn_local(async {
        super::dom::after_paint().await;
        let Ok(chunks) = js_sys::Reflect::get(&leptos::prelude::window(), &"perchChunks".into()) else { return };
        if chunks.is_undefined() {
            return;
        }
        if let Ok(fetch) = js_sys::Reflect::get(&chunks, &"fetchLinked".into()) {
            if let Some(fetch) = fetch.dyn_ref::<js_sys::Function>() {
                let _ = fetch.call0(&chunks);
            }
        }
    });
}
