//! Marks on the page's performance timeline (`performance.mark`) at the
//! steps of the start, for the benchmarks (`end2end/bench/start.mjs`,
//! docs/performance.md). Only in a build with the `marks` feature
//! (`PERCH_FEATURES=marks trunk build --release`); in any other build a mark
//! is nothing at all.

/// Marks `name` now, in a build with the `marks` feature.
#[inline(always)]
pub fn mark(name: &str) {
    #[cfg(feature = "marks")]
    {
        let performance = js_sys::Reflect::get(&leptos::prelude::window(), &"performance".into());
        if let Ok(performance) = performance {
            if let Ok(mark) = js_sys::Reflect::get(&performance, &"mark".into()) {
                let mark: js_sys::Function = wasm_bindgen::JsCast::unchecked_into(mark);
                let _ = mark.call1(&performance, &name.into());
            }
        }
    }
    #[cfg(not(feature = "marks"))]
    let _ = name;
}
