//! The page's clock and how it writes times: one `now` signal that every
//! relative time ("5m") reads, moved on every 15 seconds while the tab is
//! visible and at once when it becomes visible again; and absolute times
//! in the reader's own time zone and language (`Intl.DateTimeFormat`,
//! one per style, made once). Also when a page that shows data read earlier
//! reads it again because the reader came back to the tab.

use crate::i18n::{t, Language};
use crate::text::Ago;
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
/// switch to another tab and back costs no request. Also when the browser
/// is back online: what shows may be from before. For the page's own
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
    let online = window_event_listener_untyped("online", move |_| read.run(()));
    on_cleanup(move || {
        handle.remove();
        online.remove();
    });
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
    /// The formatters of the language in use, made on first use: one
    /// `Intl.DateTimeFormat` per style, and the relative time and unit
    /// formats. Making a formatter is most of the cost of writing a date
    /// (`Date.toLocaleString` makes one per call), and a timeline writes
    /// one or two per post: it was a fifth of the first render of 20 posts.
    /// A language switch makes them again.
    static FORMATS: std::cell::RefCell<Option<Formats>> = const { std::cell::RefCell::new(None) };
}

struct Formats {
    language: Language,
    dates: [std::cell::OnceCell<js_sys::Function>; 3],
    relative: std::cell::OnceCell<js_sys::Intl::RelativeTimeFormat>,
    units: [std::cell::OnceCell<js_sys::Intl::NumberFormat>; 3],
}

fn options(pairs: &[(&str, &str)]) -> js_sys::Object {
    let options = js_sys::Object::new();
    for (key, value) in pairs {
        let _ = js_sys::Reflect::set(&options, &JsValue::from_str(key), &JsValue::from_str(value));
    }
    options
}

/// Runs `f` with the formatters of the language in use (tracked: a time
/// drawn in a reactive closure is written again after a switch).
fn with_formats<R>(f: impl FnOnce(&Formats, &js_sys::Array) -> R) -> R {
    let language = crate::i18n::current();
    FORMATS.with(|formats| {
        let mut formats = formats.borrow_mut();
        if formats.as_ref().is_none_or(|f| f.language != language) {
            *formats = Some(Formats {
                language,
                dates: Default::default(),
                relative: Default::default(),
                units: Default::default(),
            });
        }
        let locales = js_sys::Array::of1(&JsValue::from_str(language.code()));
        f(formats.as_ref().expect("made above"), &locales)
    })
}

fn local(at: Timestamp, style: Style) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(at.millis() as f64));
    with_formats(|formats, locales| {
        let format = formats.dates[style as usize]
            .get_or_init(|| js_sys::Intl::DateTimeFormat::new(locales, &options(style.options())).format());
        format.call1(&JsValue::NULL, &date).ok().and_then(|s| s.as_string()).unwrap_or_default()
    })
}

/// How long ago, short: "now", "5m", "3h", "2d" (in the language in use:
/// "5 Min.", "٥ د").
pub fn short_ago(ago: Ago) -> String {
    let (n, unit, index) = match ago {
        Ago::Now => return t::now_short().get(),
        Ago::Minutes(n) => (n, "minute", 0),
        Ago::Hours(n) => (n, "hour", 1),
        Ago::Days(n) => (n, "day", 2),
    };
    with_formats(|formats, locales| {
        formats.units[index]
            .get_or_init(|| {
                let options = options(&[("style", "unit"), ("unit", unit), ("unitDisplay", "narrow")]);
                js_sys::Intl::NumberFormat::new(locales, &options)
            })
            .format()
            .call1(&JsValue::NULL, &JsValue::from_f64(n as f64))
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_default()
    })
}

/// How long ago, in words for screen readers: "5 minutes ago", "just now".
pub fn spoken_ago(ago: Ago) -> String {
    let (n, unit) = match ago {
        Ago::Now => return t::just_now().get(),
        Ago::Minutes(n) => (n, "minute"),
        Ago::Hours(n) => (n, "hour"),
        Ago::Days(n) => (n, "day"),
    };
    with_formats(|formats, locales| {
        let format = formats.relative.get_or_init(|| js_sys::Intl::RelativeTimeFormat::new(locales, &options(&[])));
        String::from(format.format(-(n as f64), unit))
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

/// Whether the tab is on screen.
pub fn visible() -> bool {
    document().visibility_state() == web_sys::VisibilityState::Visible
}

/// Resolves after `ms` milliseconds (a timer: slower in a hidden tab).
pub async fn sleep(ms: i64) {
    let ms = ms.clamp(0, i32::MAX as i64) as i32;
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Resolves once the tab is on screen: at once when it is, else when it
/// comes back.
pub async fn until_visible() {
    while !visible() {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            let options = web_sys::AddEventListenerOptions::new();
            options.set_once(true);
            let _ = document().add_event_listener_with_callback_and_add_event_listener_options(
                "visibilitychange",
                &resolve,
                &options,
            );
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }
}
