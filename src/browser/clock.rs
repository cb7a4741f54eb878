//! The page's clock and how it writes times: one `now` signal that every
//! relative time ("5m") reads, moved on every 15 seconds while the tab is
//! visible and at once when it becomes visible again; relative times, days
//! and full dates ("5m", "5 minutes ago", "Nov 3", "Monday, November 23,
//! 2026 at 3:04 PM") from the catalog in use, in the reader's time zone,
//! as the browser's `Intl` formatters write them, without making one: the
//! first `Intl` object of a page loads the browser's locale data, 40–60 ms
//! on a slow phone (issue 37). Also when a page that shows data read
//! earlier reads it again because the reader came back to the tab.

use crate::i18n::t;
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
/// the full date.
pub fn spoken(at: Timestamp, now_ms: i64) -> String {
    crate::text::ago(at, now_ms).map(spoken_ago).unwrap_or_else(|| full(at))
}

/// The reader's local calendar and clock at `ms`.
fn local(ms: i64) -> js_sys::Date {
    js_sys::Date::new(&JsValue::from_f64(ms as f64))
}

/// The full date and time where the reader is: "Monday, November 23, 2026
/// at 3:04 PM" (in their language: "Montag, 23. November 2026 um 15:04").
pub fn full(at: Timestamp) -> String {
    let date = local(at.millis());
    let (hours, minutes) = (date.get_hours(), date.get_minutes());
    let time = if crate::i18n::current().clock_24h() {
        format!("{hours:02}:{minutes:02}")
    } else {
        let time = format!("{}:{minutes:02}", (hours + 11) % 12 + 1);
        if hours < 12 { t::time_am(time) } else { t::time_pm(time) }.get()
    };
    t::full_date(
        WEEKDAYS[date.get_day() as usize % 7]().get(),
        LONG_MONTHS[date.get_month() as usize % 12]().get(),
        date.get_date().to_string(),
        date.get_full_year().to_string(),
        time,
    )
    .get()
}

/// A day, for times older than a week: "Nov 3", or "Nov 3, 2025" in another
/// year (where the reader is, in their language).
pub fn day(at: Timestamp, now_ms: i64) -> String {
    let (date, today) = (local(at.millis()), local(now_ms));
    let month = MONTHS[date.get_month() as usize % 12]().get();
    let day = date.get_date().to_string();
    if date.get_full_year() == today.get_full_year() {
        t::day_of_month(month, day).get()
    } else {
        t::day_of_year(month, day, date.get_full_year().to_string()).get()
    }
}

/// The days of the week, Sunday first (as `Date.getDay` counts).
const WEEKDAYS: [fn() -> crate::i18n::Msg; 7] =
    [t::weekday_1, t::weekday_2, t::weekday_3, t::weekday_4, t::weekday_5, t::weekday_6, t::weekday_7];

/// The months' names, January first.
const LONG_MONTHS: [fn() -> crate::i18n::Msg; 12] = [
    t::month_long_1,
    t::month_long_2,
    t::month_long_3,
    t::month_long_4,
    t::month_long_5,
    t::month_long_6,
    t::month_long_7,
    t::month_long_8,
    t::month_long_9,
    t::month_long_10,
    t::month_long_11,
    t::month_long_12,
];

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
