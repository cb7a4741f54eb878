//! The page's clock and how it writes times: one `now` signal that every
//! relative time ("5m") reads, moved on every 15 seconds while the tab is
//! visible and at once when it becomes visible again; and absolute times
//! in the reader's own time zone and language (`Intl.DateTimeFormat`,
//! one per style, made once). Also when a page that shows data read earlier
//! reads it again because the reader came back to the tab.

use leptos::prelude::*;
use perch_model::Timestamp;
use std::time::Duration;
use wasm_bindgen::JsValue;

/// How often relative times are brought up to date.
const TICK: Duration = Duration::from_secs(15);

/// The time relative times are shown against, in milliseconds.
#[derive(Clone, Copy)]
pub struct Now(pub ReadSignal<i64>);

/// Starts the clock and puts it in context.
pub fn provide() {
    let (now, set_now) = signal(js_sys::Date::now() as i64);
    let visible = || document().visibility_state() == web_sys::VisibilityState::Visible;
    if let Ok(handle) = set_interval_with_handle(
        move || {
            if visible() {
                set_now.set(js_sys::Date::now() as i64);
            }
        },
        TICK,
    ) {
        on_cleanup(move || handle.clear());
    }
    let handle = window_event_listener_untyped("visibilitychange", move |_| {
        if visible() {
            set_now.set(js_sys::Date::now() as i64);
        }
    });
    on_cleanup(move || handle.remove());
    provide_context(Now(now));
}

/// How long the tab must have been read or hidden before coming back to
/// it reads a page again.
const READ_AGAIN_AFTER_MS: f64 = 10_000.0;

/// Runs `read` when the tab becomes visible again and the page was opened,
/// or last read this way, more than `READ_AGAIN_AFTER_MS` ago: a quick
/// switch to another tab and back costs no request. For the page's own
/// lifetime.
pub fn read_again_when_back(read: Callback<()>) {
    let last_read = StoredValue::new(js_sys::Date::now());
    let handle = window_event_listener_untyped("visibilitychange", move |_| {
        let visible = document().visibility_state() == web_sys::VisibilityState::Visible;
        if visible && js_sys::Date::now() - last_read.get_value() > READ_AGAIN_AFTER_MS {
            last_read.set_value(js_sys::Date::now());
            read.run(());
        }
    });
    on_cleanup(move || handle.remove());
}

/// The clock's current reading, tracked; the browser's time when there is
/// no clock in context (a component rendered alone, in a test).
pub fn now() -> i64 {
    match use_context::<Now>() {
        Some(Now(now)) => now.get(),
        None => js_sys::Date::now() as i64,
    }
}

/// The ways an absolute time is written.
#[derive(Clone, Copy)]
enum Style {
    Full,
    Day,
    DayAndYear,
}

impl Style {
    fn options(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Style::Full => &[("dateStyle", "full"), ("timeStyle", "short")],
            Style::Day => &[("month", "short"), ("day", "numeric")],
            Style::DayAndYear => &[("month", "short"), ("day", "numeric"), ("year", "numeric")],
        }
    }
}

thread_local! {
    /// One `Intl.DateTimeFormat` per style, made on first use, in the
    /// reader's language and time zone as they were then. Making a
    /// formatter is most of the cost of writing a date
    /// (`Date.toLocaleString` makes one per call), and a timeline writes
    /// one or two per post: it was a fifth of the first render of 20 posts.
    static FORMATS: [std::cell::OnceCell<js_sys::Function>; 3] = Default::default();
}

fn local(at: Timestamp, style: Style) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(at.millis() as f64));
    FORMATS.with(|formats| {
        let format = formats[style as usize].get_or_init(|| {
            let options = js_sys::Object::new();
            for (key, value) in style.options() {
                let _ = js_sys::Reflect::set(&options, &JsValue::from_str(key), &JsValue::from_str(value));
            }
            let language = window().navigator().language().unwrap_or_else(|| "en".into());
            let locales = js_sys::Array::of1(&JsValue::from_str(&language));
            js_sys::Intl::DateTimeFormat::new(&locales, &options).format()
        });
        format.call1(&JsValue::NULL, &date).ok().and_then(|s| s.as_string()).unwrap_or_default()
    })
}

/// The full date and time where the reader is: "Monday, 23 November 2026
/// at 15:04" (in their language), for a time's `title`.
pub fn full(at: Timestamp) -> String {
    local(at, Style::Full)
}

/// A day, for times older than a week: "Nov 3", or "Nov 3, 2025" in another
/// year (where the reader is, in their language).
pub fn day(at: Timestamp, now_ms: i64) -> String {
    let year = |ms: i64| js_sys::Date::new(&JsValue::from_f64(ms as f64)).get_full_year();
    local(at, if year(at.millis()) == year(now_ms) { Style::Day } else { Style::DayAndYear })
}
