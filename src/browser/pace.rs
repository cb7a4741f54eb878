//! The pace at which a long list is drawn: a few items a task, as many as
//! fit [`BUDGET_MS`] on this device, with the browser free between tasks to
//! paint and take input (issue 37: a post card costs 15–25 ms on a slow
//! phone, 3–5 ms on a laptop). Owns the measured cost of an item (one for
//! the page: every list draws the same cards) and yielding to the browser.

use std::cell::Cell;
use wasm_bindgen::{JsCast, JsValue};

/// The time one task may spend drawing items, in milliseconds: under the
/// 50 ms at which a task is long, with room for the rest of the task.
pub const BUDGET_MS: f64 = 30.0;

/// The items a task draws before any was measured.
pub const UNMEASURED: usize = 2;

thread_local! {
    /// What an item cost to draw so far, in milliseconds (0: not measured).
    static MS_PER_ITEM: Cell<f64> = const { Cell::new(0.0) };
}

/// How many items the next task may draw: as many as fit the budget at the
/// cost measured so far, at least one.
pub fn items_per_task() -> usize {
    let per = MS_PER_ITEM.get();
    if per <= 0.0 {
        UNMEASURED
    } else {
        ((BUDGET_MS / per) as usize).clamp(1, 50)
    }
}

/// Records that drawing `items` took `ms`, the task and what the browser did
/// right after it (a fair share of style and layout): the next tasks size
/// themselves on it. Recent draws weigh most.
pub fn record(items: usize, ms: f64) {
    if items == 0 || !ms.is_finite() || ms < 0.0 {
        return;
    }
    // For `bench/render.mjs`: what each step drew and cost.
    #[cfg(feature = "marks")]
    crate::browser::marks::mark(&format!("perch:drew:{items}:{ms:.2}"));
    let measured = ms / items as f64;
    let before = MS_PER_ITEM.get();
    MS_PER_ITEM.set(if before <= 0.0 { measured } else { (before + measured) / 2.0 });
}

/// The items that fill a phone's first screen: painted before the rest
/// is drawn.
pub const FIRST_SCREEN: usize = 4;

/// Draws a list at the page's pace, from the next task on: `drawn` (how
/// many items are drawn, `usize::MAX` once all are) grows by what fits a
/// task, until it covers `len()` items; once the first screen's items are
/// drawn, they are painted before the rest. Each step is measured for the
/// next ones. Stops when `drawn` is gone (the list's view was disposed).
pub async fn draw_rest(drawn: leptos::prelude::RwSignal<usize>, len: impl Fn() -> usize) {
    use leptos::prelude::*;
    let mut step: Option<(usize, f64)> = None;
    let mut painted = false;
    loop {
        yield_now().await;
        if let Some((items, started)) = step.take() {
            record(items, now() - started);
        }
        let Some(shown) = drawn.try_get_untracked() else { return };
        if !painted && shown >= FIRST_SCREEN {
            crate::browser::dom::after_paint().await;
            painted = true;
        }
        let total = len();
        let items = items_per_task().min(total.saturating_sub(shown));
        let next = shown + items;
        if next < total {
            step = Some((items, now()));
        }
        if drawn.try_set(if next >= total { usize::MAX } else { next }).is_some() || next >= total {
            return;
        }
    }
}

/// Milliseconds since the page opened (`performance.now()`).
pub fn now() -> f64 {
    let window = leptos::prelude::window();
    js_sys::Reflect::get(&window, &"performance".into())
        .ok()
        .and_then(|p| {
            let now = js_sys::Reflect::get(&p, &"now".into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
            now.call0(&p).ok()?.as_f64()
        })
        .unwrap_or_else(js_sys::Date::now)
}

/// Resolves in a new task, soon: `scheduler.yield()` where there is one
/// (the rest of the work goes before other pages' tasks), else a message to
/// itself (unlike a timer, not held back to 4 ms or by a hidden tab).
pub async fn yield_now() {
    let window = leptos::prelude::window();
    let scheduler = js_sys::Reflect::get(&window, &"scheduler".into()).ok().filter(|s| s.is_object());
    let yielder = scheduler
        .as_ref()
        .and_then(|s| js_sys::Reflect::get(s, &"yield".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let promise = match (scheduler, yielder) {
        (Some(scheduler), Some(yielder)) => {
            yielder.call0(&scheduler).ok().and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
        }
        _ => None,
    };
    let promise = promise.unwrap_or_else(|| {
        js_sys::Promise::new(&mut |resolve, _| {
            if post_to_itself(&resolve).is_none() {
                let _ = leptos::prelude::window().set_timeout_with_callback(resolve.unchecked_ref());
            }
        })
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Calls `then` from a message a `MessageChannel` sends to itself.
fn post_to_itself(then: &js_sys::Function) -> Option<()> {
    let get = |on: &JsValue, name: &str| js_sys::Reflect::get(on, &name.into()).ok();
    let channel = get(&leptos::prelude::window(), "MessageChannel")?.dyn_into::<js_sys::Function>().ok()?;
    let channel = js_sys::Reflect::construct(&channel, &js_sys::Array::new()).ok()?;
    js_sys::Reflect::set(&get(&channel, "port1")?, &"onmessage".into(), then).ok()?;
    let port2 = get(&channel, "port2")?;
    get(&port2, "postMessage")?.dyn_into::<js_sys::Function>().ok()?.call1(&port2, &JsValue::UNDEFINED).ok()?;
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_draws_what_fits_its_budget_at_the_measured_cost() {
        assert_eq!(items_per_task(), UNMEASURED, "nothing measured yet");
        record(2, 40.0);
        assert_eq!(items_per_task(), 1, "20 ms an item: one a task, never none");
        record(4, 8.0);
        assert_eq!(items_per_task(), 2, "the mean of 20 and 2 ms: 11 ms an item");
        record(0, 100.0);
        record(1, f64::NAN);
        assert_eq!(items_per_task(), 2, "nothing drawn says nothing");
    }
}
