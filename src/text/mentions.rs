//! The `@name`s of a text as a composer sees them: the one being typed
//! where the caret is, what the text becomes when a name is picked, and
//! every name the text mentions. A mention is exactly what the card will
//! link (`segments`), so the composer completes what will be sent.
//! Carets here are byte offsets; the browser counts UTF-16 units
//! (`utf16_to_byte`, `byte_to_utf16`).

use super::{segments, Segment};

/// A letter of what is typed after an `@`: a username's (ASCII letters,
/// digits, `_`), or of a display name in any script, which finds the
/// person by name.
fn is_typed_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The `@name` that ends at `caret`: the byte of its `@` and what is typed
/// after it (a letter at least, at most 30). `None` inside a word, a link
/// or an address, or when the word goes on after the caret.
pub fn typed_at(content: &str, caret: usize) -> Option<(usize, &str)> {
    if caret > content.len() || !content.is_char_boundary(caret) {
        return None;
    }
    if content[caret..].chars().next().is_some_and(is_typed_char) {
        return None;
    }
    let before = &content[..caret];
    let start = before.trim_end_matches(is_typed_char).len();
    let name = &before[start..];
    let at = start.checked_sub(1)?;
    if name.is_empty() || name.chars().count() > 30 || !before[at..].starts_with('@') {
        return None;
    }
    let word = before[..at].rsplit(char::is_whitespace).next().unwrap_or("");
    if word.chars().last().is_some_and(|p| is_typed_char(p) || p == '@' || p == '/') || word.contains("://") {
        return None;
    }
    Some((at, name))
}

/// Whether the text has an `@` and a letter that could start a mention
/// (the composer loads the completion then).
pub fn any(content: &str) -> bool {
    content.match_indices('@').any(|(at, _)| {
        let word = &content[at + 1..];
        let end = at + 1 + word.find(|c: char| !is_typed_char(c)).unwrap_or(word.len());
        typed_at(content, end).is_some_and(|(found, _)| found == at)
    })
}

/// The text with the mention typed from `at` to `caret` replaced by
/// `@username` and one space (none when a space follows already), and the
/// caret after it.
pub fn picked(content: &str, at: usize, caret: usize, username: &str) -> (String, usize) {
    let rest = &content[caret..];
    let space = if rest.starts_with(char::is_whitespace) { "" } else { " " };
    let mut text = String::with_capacity(content.len() + username.len() + 2);
    text.push_str(&content[..at]);
    text.push('@');
    text.push_str(username);
    text.push_str(space);
    let caret = text.len() + usize::from(space.is_empty() && !rest.is_empty());
    text.push_str(rest);
    let caret = caret.min(text.len());
    (text, caret)
}

/// Every name the text mentions, lowercased, each once, in order.
pub fn names(content: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for segment in segments(content) {
        if let Segment::Mention(name) = segment {
            let name = name.to_ascii_lowercase();
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The byte offset of the UTF-16 offset `units` (the browser's caret).
pub fn utf16_to_byte(content: &str, units: u32) -> usize {
    let mut seen = 0u32;
    for (byte, c) in content.char_indices() {
        if seen >= units {
            return byte;
        }
        seen += c.len_utf16() as u32;
    }
    content.len()
}

/// The UTF-16 offset of byte `byte`, for the browser.
pub fn byte_to_utf16(content: &str, byte: usize) -> u32 {
    content[..byte.min(content.len())].chars().map(|c| c.len_utf16() as u32).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_typed_is_the_mention_that_ends_at_the_caret() {
        assert_eq!(typed_at("hi @ad", 6), Some((3, "ad")));
        assert_eq!(typed_at("@a", 2), Some((0, "a")));
        assert_eq!(typed_at("hi @ad and", 6), Some((3, "ad")), "text after a space does not matter");
        assert_eq!(typed_at("hi @", 4), None, "an @ alone offers nothing yet");
        assert_eq!(typed_at("hi @ad", 5), None, "the name goes on after the caret");
        assert_eq!(typed_at("mail ada@exa", 12), None, "an address is no mention");
        assert_eq!(typed_at("https://a.b/@ada", 16), None, "nor is a link");
        assert_eq!(typed_at("@ada done", 9), None);
        assert_eq!(typed_at("مرحبا @ad", "مرحبا @ad".len()), Some(("مرحبا ".len(), "ad")), "right to left");
        assert_eq!(typed_at("(@ad", 4), Some((1, "ad")));
        assert_eq!(typed_at("é", 1), None, "inside a letter");
        assert_eq!(typed_at("hi @لي", "hi @لي".len()), Some((3, "لي")), "a name in its own script");
        assert_eq!(typed_at("see a.b/x @ad", 13), Some((10, "ad")));
        assert_eq!(typed_at("see https://a.b/x?q=1&@ad", 25), None);
    }

    #[test]
    fn picking_puts_the_name_and_one_space() {
        assert_eq!(picked("hi @ad", 3, 6, "ada_l"), ("hi @ada_l ".to_owned(), 10));
        assert_eq!(
            picked("hi @ad how", 3, 6, "ada"),
            ("hi @ada how".to_owned(), 8),
            "the caret goes past the space there"
        );
        assert_eq!(picked("@a,x", 0, 2, "ada"), ("@ada ,x".to_owned(), 5));
        assert_eq!(picked("يا @a", "يا ".len(), "يا @a".len(), "ali"), ("يا @ali ".to_owned(), "يا @ali ".len()));
    }

    #[test]
    fn names_are_each_mention_once() {
        assert_eq!(names("@Ada and @bob, @ada: x@y.z"), vec!["ada", "bob"]);
        assert!(names("no one").is_empty());
        assert!(any("hi @b"));
        assert!(!any("hi @ or a@b"));
        assert!(any("@ or @ل"));
    }

    #[test]
    fn browser_carets_count_utf16_units() {
        let s = "🙂 @a";
        assert_eq!(utf16_to_byte(s, 3), "🙂 ".len());
        assert_eq!(byte_to_utf16(s, "🙂 @a".len()), 5);
        assert_eq!(utf16_to_byte(s, 99), s.len());
    }
}
