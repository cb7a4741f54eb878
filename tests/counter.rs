//! The counter in real Chromium: its live region speaks on entering a band
//! (20, 10 and 0 left, over), not on every keystroke, and falls silent when
//! the text is far from the limit again.

use leptos::prelude::*;
use perch::components::counter::Counter;
use wasm_bindgen_test::*;

mod common;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn the_live_region_speaks_only_on_entering_a_band() {
    let text = RwSignal::new(String::new());
    let handle = leptos::mount::mount_to(common::container(), move || {
        view! { <Counter text id="counter-under-test".to_owned()/> }
    });
    handle.forget();
    let live = || {
        document()
            .query_selector("#under-test [aria-live]")
            .unwrap()
            .expect("a live region")
            .text_content()
            .unwrap_or_default()
    };
    let mut heard = Vec::new();
    for n in [10, 470, 480, 485, 489, 490, 495, 500, 501, 510, 10] {
        text.set("x".repeat(n));
        leptos::task::tick().await;
        heard.push(live());
    }
    assert_eq!(
        heard,
        ["", "", "20 left", "20 left", "20 left", "10 left", "10 left", "0 left", "1 over", "1 over", ""],
        "a figure is spoken when a band is entered and then kept, not updated at every keystroke"
    );
}
