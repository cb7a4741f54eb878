//! A text too long for one post, cut into a thread: parts of at most
//! `max` characters (counted as the server counts), cut after a sentence
//! where one ends in time, else between words, else (one word longer than
//! a post) anywhere. Nothing is lost but the spaces at the cuts.

/// Marks that end a sentence, in the scripts Perch speaks and a few more.
const ENDS: &[char] = &['.', '!', '?', '…', '。', '！', '？', '؟', '\n'];
const WIDE_ENDS: &[char] = &['。', '！', '？'];

/// `text` as thread parts, each at most `max` characters, none empty.
pub fn split(text: &str, max: usize) -> Vec<String> {
    let mut parts = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if rest.chars().count() <= max {
            parts.push(rest.to_owned());
            break;
        }
        // The byte after the `max`th character: a part ends at or before it.
        let limit = rest.char_indices().nth(max).map_or(rest.len(), |(i, _)| i);
        let head = &rest[..limit];
        let after_sentence = head
            .char_indices()
            .filter(|&(i, c)| {
                let next = rest[i + c.len_utf8()..].chars().next();
                // Full-width marks need no space after them.
                ENDS.contains(&c) && (next.is_none_or(char::is_whitespace) || WIDE_ENDS.contains(&c))
            })
            .map(|(i, c)| i + c.len_utf8())
            .next_back();
        let between_words = || head.rfind(char::is_whitespace).filter(|&i| i > 0);
        let cut = after_sentence.or_else(between_words).unwrap_or(limit);
        let part = rest[..cut].trim();
        if !part.is_empty() {
            parts.push(part.to_owned());
        }
        rest = rest[cut..].trim_start();
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lengths(parts: &[String]) -> Vec<usize> {
        parts.iter().map(|p| p.chars().count()).collect()
    }

    #[test]
    fn cuts_after_sentences_that_fit() {
        let parts = split("One two. Three four! Five six? Seven.", 20);
        assert_eq!(parts, vec!["One two. Three four!", "Five six? Seven."]);
    }

    #[test]
    fn a_text_that_fits_is_one_part_and_spaces_at_the_ends_go() {
        assert_eq!(split("  short  ", 500), vec!["short"]);
        assert!(split("   ", 500).is_empty());
    }

    #[test]
    fn a_long_sentence_is_cut_between_words_and_a_long_word_anywhere() {
        let parts = split("aaaa bbbb cccc dddd", 10);
        assert_eq!(parts, vec!["aaaa bbbb", "cccc dddd"]);
        assert_eq!(split(&"x".repeat(25), 10), vec!["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
    }

    #[test]
    fn no_part_is_over_the_limit_and_nothing_but_spaces_is_lost() {
        let text = "Perch is a client. ".repeat(60) + "مرحبا بكم؟ " + &"漢字。".repeat(200);
        let parts = split(&text, 500);
        assert!(lengths(&parts).iter().all(|&n| n <= 500 && n > 0), "{:?}", lengths(&parts));
        let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert_eq!(squeeze(&parts.concat()), squeeze(&text));
        assert!(parts[0].ends_with("client."), "the first cut is after a sentence");
    }

    #[test]
    fn a_decimal_point_is_no_sentence_end() {
        assert_eq!(split("It costs 3.50 today and more", 16), vec!["It costs 3.50", "today and more"]);
    }
}
