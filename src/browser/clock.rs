//! The page's clock and how it writes times: one `now` signal that every
//! relative time ("5m") reads, moved on every 15 seconds while the tab is
//! visible and at once when it becomes visible again; relative times and
//! days ("5m", "5 minutes ago", "Nov 3") from the catalog in use, in the
//! reader's time zone; the full date and time (`Intl.DateTimeFormat`, made
//! once per language in an idle moment after the first paint, so the first
//! screen never waits for the browser's locale data: issue 37). Also when a
//! page that shows data read earlier reads it again because the reader
//! came back to the tab.

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
    leptos::task::spawn_local(async {
        crate::browser::dom::after_paint().await;
        crate::browser::dom::when_idle().await;
        with_formats(|formats, locales| {
            formats.full.get_or_init(|| made_full(locales));
        });
        DATES_READY.with(|ready| ready.set(true));
    });
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

thread_local! {
    /// The full date formatter of the language in use, made on first use
    /// (`Date.toLocaleString` makes one per call; the first of a page loads
    /// the browser's locale data, 30–45 ms on a slow phone). A language
    /// switch makes it again.
    static FORMATS: std::cell::RefCell<Option<Formats>> = const { std::cell::RefCell::new(None) };
    /// Whether the full date formatter was made after the first paint:
    /// until then a time has no full date (its `title`).
    static DATES_READY: ArcRwSignal<bool> = ArcRwSignal::new(false);
}

struct Formats {
    language: Language,
    full: std::cell::OnceCell<js_sys::Function>,
}

fn made_full(locales: &js_sys::Array) -> js_sys::Function {
    let options = js_sys::Object::new();
    for (key, value) in [("dateStyle", "full"), ("timeStyle", "short")] {
        let _ = js_sys::Reflect::set(&options, &JsValue::from_str(key), &JsValue::from_str(value));
    }
    js_sys::Intl::DateTimeFormat::new(locales, &options).format()
}

/// Runs `f` with the formatters of the language in use (tracked: a time
/// drawn in a reactive closure is written again after a switch).
fn with_formats<R>(f: impl FnOnce(&Formats, &js_sys::Array) -> R) -> R {
    let language = crate::i18n::current();
    FORMATS.with(|formats| {
        let mut formats = formats.borrow_mut();
        if formats.as_ref().is_none_or(|f| f.language != language) {
            *formats = Some(Formats { language, full: Default::default() });
        }
        let locales = js_sys::Array::of1(&JsValue::from_str(language.code()));
        f(formats.as_ref().expect("made above"), &locales)
    })
}

/// How long ago, short: "now", "5m", "3h", "2d" (in the language in use:
/// "5 Min.", "5 د").
pub fn short_ago(ago: Ago) -> String {
    match ago {
        Ago::Now => t::now_short().get(),
        Ago::Minutes(n) => t::ago_minutes_short(n as u64).get(),
        Ago::Hours(n) => t::ago_hours_short(n as u64).get(),
        Ago::Days(n) => t::ago_days_short(n as u64).get(),
    }
}

/// How long ago, in words for screen readers: "5 minutes ago", "just now".
pub fn spoken_ago(ago: Ago) -> String {
    match ago {
        Ago::Now => t::just_now().get(),
        Ago::Minutes(n) => t::ago_minutes(n as u64).get(),
        Ago::Hours(n) => t::ago_hours(n as u64).get(),
        Ago::Days(n) => t::ago_days(n as u64).get(),
    }
}

/// A moment in words for screen readers: how long ago, or from a week on
/// the full date once its formatter is made, the day until then (tracked).
pub fn spoken(at: Timestamp, now_ms: i64) -> String {
    crate::text::ago(at, now_ms).map(spoken_ago).or_else(|| full_when_ready(at)).unwrap_or_else(|| day(at, now_ms))
}

/// The full date and time where the reader is: "Monday, 23 November 2026
/// at 15:04" (in their language).
pub fn full(at: Timestamp) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(at.millis() as f64));
    with_formats(|formats, locales| {
        let format = formats.full.get_or_init(|| made_full(locales));
        format.call1(&JsValue::NULL, &date).ok().and_then(|s| s.as_string()).unwrap_or_default()
    })
}

/// [`full`] once its formatter was made after the first paint, else
/// nothing (tracked): for a time's `title`, which no first screen needs.
pub fn full_when_ready(at: Timestamp) -> Option<String> {
    DATES_READY.with(|ready| ready.get()).then(|| full(at))
}

/// A day, for times older than a week: "Nov 3", or "Nov 3, 2025" in another
/// year (where the reader is, in their language).
pub fn day(at: Timestamp, now_ms: i64) -> String {
    let local = |ms: i64| js_sys::Date::new(&JsValue::from_f64(ms as f64));
    let (date, today) = (local(at.millis()), local(now_ms));
    let month = MONTHS[date.get_month() as usize % 12]().get();
    let day = date.get_date().to_string();
    if date.get_full_year() == today.get_full_year() {
        t::day_of_month(month, day).get()
    } else {
        t::day_of_year(month, day, date.get_full_year().to_string()).get()
    }
}

/// The months' short names, January first.
const MONTHS: [fn() -> crate::i18n::Msg; 12] = [
    t::month_1,
    t::month_2,
    t::month_3,
    t::month_4,
    t::month_5,
    t::month_6,
    t::month_7,
    t::month_8,
    t::month_9,
    t::month_10,
    t::month_11,
    t::month_12,
];

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
