//! The content rule shared by the composer's counter and the server's check:
//! not empty once white space and invisible characters are set aside, no
//! NUL, at most 500 characters counted as Unicode scalar values (Rust
//! `chars()`, JavaScript `[...s].length`), with no normalisation. The
//! contract's "Decided later" list fixes which characters are invisible.

use std::fmt;

/// The longest content a post may have, in characters.
pub const MAX_CONTENT_CHARS: usize = 500;

/// Counts characters exactly as the limit does.
pub fn char_count(text: &str) -> usize {
    text.chars().count()
}

/// Why a post's content was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContentError {
    /// Nothing but white space and invisible characters.
    Empty,
    /// A NUL character (U+0000) somewhere.
    Nul,
    /// Longer than [`MAX_CONTENT_CHARS`] by `over` characters.
    TooLong { over: usize },
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContentError::Empty => f.write_str("The post is empty: write something first."),
            ContentError::Nul => f.write_str("The post holds a NUL character, which cannot be sent: delete it first."),
            ContentError::TooLong { over: 1 } => {
                write!(f, "The post is 1 character over the limit of {MAX_CONTENT_CHARS}.")
            }
            ContentError::TooLong { over } => {
                write!(f, "The post is {over} characters over the limit of {MAX_CONTENT_CHARS}.")
            }
        }
    }
}

impl std::error::Error for ContentError {}

/// Characters that show nothing, so a post of only these looks empty:
/// zero-width space, non-joiner and joiner, word joiner, and the byte-order
/// mark (zero-width no-break space).
pub fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}')
}

/// Checks content against the rule; the error says what to fix.
pub fn validate_content(text: &str) -> Result<(), ContentError> {
    if text.contains('\0') {
        return Err(ContentError::Nul);
    }
    if text.chars().all(|c| c.is_whitespace() || is_invisible(c)) {
        return Err(ContentError::Empty);
    }
    let count = char_count(text);
    if count > MAX_CONTENT_CHARS {
        return Err(ContentError::TooLong { over: count - MAX_CONTENT_CHARS });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of_len(n: usize) -> String {
        // Two-, three- and four-byte characters, and a ZWJ emoji sequence whose
        // parts count separately as the rule says.
        "é漢🙂👩\u{200d}💻".chars().cycle().take(n).collect()
    }

    #[test]
    fn multibyte_text_at_the_limit() {
        assert_eq!(char_count(&of_len(500)), 500);
        assert!(of_len(500).len() > 1000, "the test text must be multi-byte");
        assert_eq!(validate_content(&of_len(499)), Ok(()));
        assert_eq!(validate_content(&of_len(500)), Ok(()));
        assert_eq!(validate_content(&of_len(501)), Err(ContentError::TooLong { over: 1 }));
        assert_eq!(validate_content(&of_len(530)), Err(ContentError::TooLong { over: 30 }));
    }

    #[test]
    fn counts_scalar_values_without_normalising() {
        // "é" composed (1 scalar) and decomposed (2 scalars) count differently.
        assert_eq!(char_count("\u{e9}"), 1);
        assert_eq!(char_count("e\u{301}"), 2);
        assert_eq!(char_count("👍🏽"), 2);
    }

    #[test]
    fn blank_content_is_empty() {
        for blank in ["", "   ", "\n\t ", "\u{3000}"] {
            assert_eq!(validate_content(blank), Err(ContentError::Empty), "{blank:?}");
        }
        assert_eq!(validate_content(" a "), Ok(()));
    }

    #[test]
    fn invisible_characters_alone_are_empty() {
        for blank in ["\u{200B}", "\u{200C}\u{200D}", " \u{2060} ", "\u{FEFF}\n\u{200B}"] {
            assert_eq!(validate_content(blank), Err(ContentError::Empty), "{blank:?}");
        }
        // Beside a visible character they are kept, as a ZWJ emoji needs.
        assert_eq!(validate_content("👩\u{200d}💻"), Ok(()));
        assert_eq!(validate_content("\u{200B}a"), Ok(()));
        // Only those five: a soft hyphen or U+200E is not in the list.
        assert_eq!(validate_content("\u{200E}"), Ok(()));
        assert_eq!(validate_content("\u{200A}"), Err(ContentError::Empty), "U+200A is white space");
    }

    #[test]
    fn a_nul_anywhere_is_refused() {
        for text in ["\0", "a\0b", "hello\0", "\0 "] {
            assert_eq!(validate_content(text), Err(ContentError::Nul), "{text:?}");
        }
        assert!(ContentError::Nul.to_string().contains("NUL"));
    }

    #[test]
    fn messages_say_how_many_over() {
        assert_eq!(ContentError::TooLong { over: 1 }.to_string(), "The post is 1 character over the limit of 500.");
        assert_eq!(ContentError::TooLong { over: 12 }.to_string(), "The post is 12 characters over the limit of 500.");
    }
}
