//! The character counter under every text box that becomes a post (the
//! composer, a reply, an edit): it counts exactly as the server does, warns
//! near the limit and says how far over it is.

use leptos::prelude::*;
use perch_model::{char_count, MAX_CONTENT_CHARS};

/// From this many characters on, the counter warns.
const WARN_FROM: usize = MAX_CONTENT_CHARS - 20;

/// What the counter says for `text`.
pub fn counter_text(text: &str) -> String {
    let n = char_count(text);
    if n > MAX_CONTENT_CHARS {
        format!("{} over", n - MAX_CONTENT_CHARS)
    } else {
        format!("{} left", MAX_CONTENT_CHARS - n)
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
        _ => text.with_untracked(|t| counter_text(t)),
    });
    view! {
        <span id=id class="counter" class:warn=warn class:over=over>
            {move || text.with(|t| counter_text(t))}
        </span>
        <span class="visually-hidden" aria-live="polite">{move || spoken.get()}</span>
    }
}

#[cfg(test)]
mod tests {
    use super::{band, counter_text};

    #[test]
    fn the_counter_counts_as_the_server_does() {
        assert_eq!(counter_text(""), "500 left");
        assert_eq!(counter_text(&"🙂".repeat(499)), "1 left");
        assert_eq!(counter_text(&"é".repeat(500)), "0 left");
        assert_eq!(counter_text(&"漢".repeat(501)), "1 over");
    }

    #[test]
    fn the_bands_are_far_then_20_10_0_left_then_over() {
        let bands: Vec<u8> = [0, 479, 480, 489, 490, 499, 500, 501, 600].into_iter().map(band).collect();
        assert_eq!(bands, [0, 0, 1, 1, 2, 2, 3, 4, 4]);
    }
}
