//! Matching words in any script, one way for every room that compares text
//! (mutes hide with it, search finds with it): any case, every accent and
//! combining mark left out, whole words only ("cat" is not in "category").
//!
//! A word is a run of letters and digits of any script (and `_`), with the
//! marks written on them. Text is folded before it is compared: each
//! character taken apart into its letter and its marks (Unicode's canonical
//! decomposition: "é" is "e" and an acute, Greek "ά" is "α" and a tonos,
//! Vietnamese "ệ" is "e" and two marks), every combining mark dropped (in
//! any script: accents, Greek tonos and dialytika, Hebrew points, Arabic
//! vowel signs, Devanagari's vowel signs and virama), the joiners dropped,
//! lower case, and Greek's final sigma as any sigma. A mark stays part of
//! its word, so a word is never cut where a mark is part of the letter.
//! Scripts without spaces between words (Chinese, Japanese) are one word a
//! run: a search finds them whole, not inside.

use std::ops::Range;

/// The Latin letters from U+00C0 to U+017F, each as the letter without its
/// accent (lower case), or 0 where it is a letter of its own (æ, ß, þ…).
const LATIN: &[u8; 192] = b"aaaaaa\0ceeeeiiii\0nooooo\0ouuuuy\0\0aaaaaa\0ceeeeiiii\0nooooo\0ouuuuy\0y\
aaaaaaccccccccdd\
ddeeeeeeeeeegggg\
gggghhhhiiiiiiii\
ii\0\0jjkk\0lllllll\
lllnnnnnn\0\0\0oooo\
oo\0\0rrrrrrssssss\
ssttttttuuuuuuuu\
uuuuwwyyyzzzzzz\0";

/// A mark dropped before comparing: every combining mark of any script,
/// and the zero-width (non-)joiners.
fn is_mark(c: char) -> bool {
    !c.is_ascii() && (c == '\u{200C}' || c == '\u{200D}' || unicode::is_combining_mark(c))
}

/// A letter or digit of any script: what a whole word is made of.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `c` as compared, into `out`: its letter without its marks, in lower
/// case; nothing for a mark. The Latin letters of [`LATIN`] by the table
/// (it also takes "ł", "ø" and "đ", which Unicode does not decompose, to
/// their letter).
fn fold_into(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    if ('\u{00C0}'..='\u{017F}').contains(&c) {
        let base = LATIN[c as usize - 0xC0];
        if base != 0 {
            out.push(char::from(base));
            return;
        }
    }
    unicode::decompose(c, &mut |part| {
        if !is_mark(part) {
            for lower in part.to_lowercase() {
                out.push(if lower == 'ς' { 'σ' } else { lower });
            }
        }
    });
}

/// Unicode's canonical decomposition and its combining marks. In the
/// browser, its own (`String.prototype.normalize`, `\p{M}`), each
/// character asked once a visit: the tables would cost every signed-in
/// page about 20 kB (docs/size.md). In native builds (the tests), the
/// `unicode-normalization` crate's, the same standard.
#[cfg(target_arch = "wasm32")]
mod unicode {
    use std::cell::RefCell;
    use std::collections::HashMap;

    thread_local! {
        /// Each character met: whether it is a mark, and its parts.
        static SEEN: RefCell<HashMap<char, (bool, Vec<char>)>> = RefCell::new(HashMap::new());
        static MARK: js_sys::RegExp = js_sys::RegExp::new("^\\p{M}$", "u");
    }

    fn known(c: char) -> (bool, Vec<char>) {
        if let Some(seen) = SEEN.with(|s| s.borrow().get(&c).cloned()) {
            return seen;
        }
        let one = c.to_string();
        let mark = MARK.with(|m| m.test(&one));
        let parts: Vec<char> = String::from(js_sys::JsString::from(one.as_str()).normalize("NFD")).chars().collect();
        SEEN.with(|s| s.borrow_mut().insert(c, (mark, parts.clone())));
        (mark, parts)
    }

    pub fn is_combining_mark(c: char) -> bool {
        known(c).0
    }

    pub fn decompose(c: char, each: &mut dyn FnMut(char)) {
        known(c).1.into_iter().for_each(each);
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod unicode {
    pub use unicode_normalization::char::is_combining_mark;

    pub fn decompose(c: char, each: &mut dyn FnMut(char)) {
        unicode_normalization::char::decompose_canonical(c, each);
    }
}

/// Text as compared: folded, runs of white space as one space.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            fold_into(c, &mut out);
        }
    }
    out
}

/// Whether folded `text` has folded `phrase` as whole words: not starting
/// or ending inside a word.
pub fn contains_phrase(text: &str, phrase: &str) -> bool {
    if phrase.is_empty() {
        return false;
    }
    let mut from = 0;
    while let Some(found) = text[from..].find(phrase) {
        let (start, end) = (from + found, from + found + phrase.len());
        let clear_before = text[..start].chars().next_back().is_none_or(|c| !is_word(c));
        let clear_after = text[end..].chars().next().is_none_or(|c| !is_word(c));
        if clear_before && clear_after {
            return true;
        }
        from = start + text[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Calls `each` with every word of `text`: where it is in `text` (bytes)
/// and the word folded.
pub fn each_word(text: &str, mut each: impl FnMut(Range<usize>, &str)) {
    let mut folded = String::new();
    let mut start = None;
    for (at, c) in text.char_indices() {
        let in_word = is_word(c) || start.is_some() && is_mark(c);
        match (in_word, start) {
            (true, None) => {
                start = Some(at);
                fold_into(c, &mut folded);
            }
            (true, Some(_)) => fold_into(c, &mut folded),
            (false, Some(from)) => {
                if !folded.is_empty() {
                    each(from..at, &folded);
                }
                folded.clear();
                start = None;
            }
            (false, None) => {}
        }
    }
    if let Some(from) = start {
        if !folded.is_empty() {
            each(from..text.len(), &folded);
        }
    }
}

/// The words of `text`, folded, each once, in order.
pub fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    each_word(text, |_, w| {
        if !out.iter().any(|o| o == w) {
            out.push(w.to_owned());
        }
    });
    out
}

/// Where in `text` the words of `wanted` (folded) are, in order: what a
/// result highlights.
pub fn found_in(text: &str, wanted: &[String]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    each_word(text, |at, w| {
        if wanted.iter().any(|x| x == w) {
            out.push(at);
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_folded_to_lower_case_without_accents_or_vowel_signs() {
        assert_eq!(fold("Crème  Brûlée\n à LA  carte"), "creme brulee a la carte");
        assert_eq!(fold("ŁÓDŹ Ærø Straße"), "lodz æro straße", "æ and ß are letters of their own");
        assert_eq!(fold("قِطَّة"), "قطة");
        assert_eq!(fold("Cafe\u{0301}"), "cafe", "an accent written apart");
        assert_eq!(fold("ΚΑΛΗΜΕΡΑ"), "καλημερα");
    }

    #[test]
    fn every_combining_mark_and_tonos_is_left_out_in_any_script() {
        // Greek: tonos and dialytika on precomposed letters, final sigma.
        assert_eq!(fold("Καλημέρα from Athens"), "καλημερα from athens");
        assert_eq!(fold("ΐ ΰ Ά Ώ ϊ"), "ι υ α ω ι");
        assert_eq!(fold("λόγος"), fold("ΛΟΓΟΣ"));
        assert!(contains_phrase(&fold("Καλημέρα from Athens"), &fold("καλημερα")));
        // Vietnamese: two marks stacked on one letter, and the horn.
        assert_eq!(fold("Tiếng Việt"), "tieng viet");
        assert_eq!(fold("Phở ngưỡng"), "pho nguong");
        // Hebrew points.
        assert_eq!(fold("שָׁלוֹם"), "שלום");
        // Devanagari: the vowel signs and the virama are marks, and part of
        // their word: the word is found whole, not cut at a mark.
        let text = "नमस्ते दोस्त";
        let mut spans = Vec::new();
        each_word(text, |at, _| spans.push(&text[at]));
        assert_eq!(spans, ["नमस्ते", "दोस्त"]);
        assert!(contains_phrase(&fold(text), &fold("नमस्ते")));
        assert!(!contains_phrase(&fold("नमस्तेजी"), &fold("नमस्ते")));
        assert_eq!(found_in("Ελλάδα, καλημέρα!", &words("ΚΑΛΗΜΕΡΑ")).len(), 1);
    }

    #[test]
    fn the_latin_table_has_one_entry_a_letter() {
        // Each entry is the letter of its character, checked on a few of
        // each row, so the table cannot slip by one.
        for (c, base) in
            [('À', 'a'), ('Ç', 'c'), ('Ï', 'i'), ('Ñ', 'n'), ('Ø', 'o'), ('Ý', 'y'), ('à', 'a'), ('ÿ', 'y')]
        {
            assert_eq!(fold(&c.to_string()), base.to_string(), "{c}");
        }
        for (c, base) in
            [('Ā', 'a'), ('ď', 'd'), ('Đ', 'd'), ('ě', 'e'), ('ģ', 'g'), ('ı', 'i'), ('Ĵ', 'j'), ('Ł', 'l')]
        {
            assert_eq!(fold(&c.to_string()), base.to_string(), "{c}");
        }
        for (c, base) in
            [('ń', 'n'), ('Ő', 'o'), ('ř', 'r'), ('Ş', 's'), ('ť', 't'), ('Ů', 'u'), ('Ŵ', 'w'), ('Ÿ', 'y')]
        {
            assert_eq!(fold(&c.to_string()), base.to_string(), "{c}");
        }
        assert_eq!(fold("ž"), "z");
        assert_eq!(fold("ſ"), "ſ");
        assert_eq!(fold("×÷"), "×÷");
    }

    #[test]
    fn words_are_runs_of_letters_of_any_script_with_their_marks() {
        let mut seen = Vec::new();
        each_word("Hello, wörld! رأيت قِطَّة_2 ok", |at, w| seen.push((at, w.to_owned())));
        let text = "Hello, wörld! رأيت قِطَّة_2 ok";
        let words: Vec<(&str, &str)> = seen.iter().map(|(at, w)| (&text[at.clone()], w.as_str())).collect();
        assert_eq!(
            words,
            // The hamza above is a combining mark too: "رأيت" is found as
            // "رايت", as people often type it.
            vec![("Hello", "hello"), ("wörld", "world"), ("رأيت", "رايت"), ("قِطَّة_2", "قطة_2"), ("ok", "ok")]
        );
        assert_eq!(super::words("a A a"), vec!["a"]);
    }

    #[test]
    fn found_words_are_whole_and_in_the_original_text() {
        let text = "My Café, the cafes, CAFE!";
        let at = found_in(text, &["cafe".to_owned()]);
        assert_eq!(at.iter().map(|r| &text[r.clone()]).collect::<Vec<_>>(), vec!["Café", "CAFE"]);
    }

    #[test]
    fn a_phrase_is_found_as_whole_words() {
        assert!(contains_phrase(&fold("My CAT, again"), "cat"));
        assert!(!contains_phrase(&fold("a category"), "cat"));
        assert!(contains_phrase(&fold("Good\nmorning"), &fold("good   Morning")));
        assert!(!contains_phrase("", ""));
    }
}
