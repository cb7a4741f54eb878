//! The character counter under every text box that becomes a post (the
//! composer, a reply, an edit): it counts exactly as the server does, warns
//! near the limit and says how far over it is.

use crate::i18n::{t, Text};
use leptos::prelude::*;
use perch_model::{char_count, ContentError, MAX_CONTENT_CHARS};

/// From this many characters on, the counter warns.
const WARN_FROM: usize = MAX_CONTENT_CHARS - 20;

/// What the counter says for `text`.
pub fn counter_text(text: &str) -> Text {
    let n = char_count(text);
    if n > MAX_CONTENT_CHARS {
        t::chars_over((n - MAX_CONTENT_CHARS) as u64)
    } else {
        t::chars_left((MAX_CONTENT_CHARS - n) as u64)
    }
}

/// Why a text cannot be sent, in the app's words (the model's rule).
pub fn content_problem(problem: &ContentError) -> Text {
    match problem {
        ContentError::Empty => t::content_empty().into(),
        ContentError::Nul => t::content_nul().into(),
        ContentError::TooLong { over } => t::content_too_long(*over as u64, MAX_CONTENT_CHARS.to_string()),
    }
}

/// Which stretch of the count `n` is in: 0 far from the limit, then 20, 10
/// and 0 left, then over. A screen reader hears the counter only when this
/// changes, not on every keystroke.
pub fn band(n: usize) -> u8 {
    match MAX_CONTENT_CHARS.checked_sub(n) {
        None => 4,
        Some(0) => 3,
        Some(1..=10) => 2,
        Some(11..=20) => 1,
        Some(_) => 0,
    }
}

/// The counter for `text`; `id` is what the text box's
/// `aria-describedby` names. The visible figure follows every keystroke;
/// a hidden live region says it again only on entering a new band, and
/// says nothing when the text is back far from the limit.
#[component]
pub fn Counter(#[prop(into)] text: Signal<String>, id: String) -> impl IntoView {
    let warn = move || text.with(|t| char_count(t) >= WARN_FROM);
    let over = move || text.with(|t| char_count(t) > MAX_CONTENT_CHARS);
    let current = Memo::new(move |_| text.with(|t| band(char_count(t))));
    let spoken = Memo::new(move |_| match current.get() {
        0 => String::new(),
        _ => text.with_untracked(|text| counter_text(text)).get(),
    });
    view! {
        <span id=id class="counter" class:warn=warn class:over=over>
            {move || text.with(|text| counter_text(text)).get()}
        </span>
        <span class="visually-hidden" aria-live="polite">{move || spoken.get()}</span>
    }
}

#[cfg(test)]
mod tests {
    use super::{band, counter_text};
    use crate::i18n::t;

    #[test]
    fn the_counter_counts_as_the_server_does() {
        assert_eq!(counter_text(""), t::chars_left(500));
        assert_eq!(counter_text(&"🙂".repeat(499)), t::chars_left(1));
        assert_eq!(counter_text(&"é".repeat(500)), t::chars_left(0));
        assert_eq!(counter_text(&"漢".repeat(501)), t::chars_over(1));
    }

    #[test]
    fn the_bands_are_far_then_20_10_0_left_then_over() {
        let bands: Vec<u8> = [0, 479, 480, 489, 490, 499, 500, 501, 600].into_iter().map(band).collect();
        assert_eq!(bands, [0, 0, 1, 1, 2, 2, 3, 4, 4]);
    }
}
