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

/// The counter for `text`; `id` is what the text box's
/// `aria-describedby` names.
#[component]
pub fn Counter(text: RwSignal<String>, id: String) -> impl IntoView {
    let warn = move || text.with(|t| char_count(t) >= WARN_FROM);
    let over = move || text.with(|t| char_count(t) > MAX_CONTENT_CHARS);
    view! {
        <span id=id class="counter" class:warn=warn class:over=over aria-live="polite">
            {move || text.with(|t| counter_text(t))}
        </span>
    }
}

#[cfg(test)]
mod tests {
    use super::counter_text;

    #[test]
    fn the_counter_counts_as_the_server_does() {
        assert_eq!(counter_text(""), "500 left");
        assert_eq!(counter_text(&"🙂".repeat(499)), "1 left");
        assert_eq!(counter_text(&"é".repeat(500)), "0 left");
        assert_eq!(counter_text(&"漢".repeat(501)), "1 over");
    }
}
