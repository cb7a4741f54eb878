//! A moment as people read it: "5m", or the day from a week on, kept up to
//! date by the page's clock, with the full date and time where the reader
//! is as its title.

use crate::text::ago;
use leptos::prelude::*;

/// A `<time>` with the relative time, kept up to date by the page's clock
/// (or the day, from a week on), and the full date and time where the
/// reader is as its title.
#[component]
pub fn Time(at: Option<perch_model::Timestamp>) -> impl IntoView {
    use crate::browser::clock;
    at.map(|at| {
        let full = move || clock::full(at);
        let spoken = move || clock::spoken(at, clock::now());
        view! {
            <time datetime=at.to_rfc3339() title=full aria-label=spoken>
                {move || {
                    let now = clock::now();
                    ago(at, now).map(clock::short_ago).unwrap_or_else(|| clock::day(at, now))
                }}
            </time>
        }
    })
}
