//! Post content as the card shows it: plain text cut into runs of text,
//! `http(s)` links and `@username` mentions. Nothing here ever becomes
//! markup; the card renders each run as a text node or a link.
//! Also: how long ago a moment was, for `<time>` elements (`clock.rs`
//! writes it in the reader's language). And `matching`: how text is
//! compared, for mutes and search alike.

pub mod matching;
pub mod mentions;
pub mod thread;

use perch_model::Timestamp;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Text(String),
    /// An `http://` or `https://` address.
    Link(String),
    /// A username, without the `@`.
    Mention(String),
}

/// Characters that end a link when they close it, as in "see https://a.b/c."
const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', '\'', '"', ')', ']', '}', '>'];

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Cuts `content` into text, links and mentions.
pub fn segments(content: &str) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let mut text = String::new();
    let mut rest = content;
    let mut prev: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        let boundary = prev.is_none_or(|p| !is_name_char(p) && p != '/');
        if boundary && (rest.starts_with("https://") || rest.starts_with("http://")) {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let mut url = &rest[..end];
            // Trim closing punctuation, keeping a ')' that closes a '(' inside the link.
            while let Some(last) = url.chars().last() {
                let balanced = last == ')' && url.matches('(').count() >= url.matches(')').count();
                if TRAILING.contains(&last) && !balanced {
                    url = &url[..url.len() - last.len_utf8()];
                } else {
                    break;
                }
            }
            let scheme_len = if url.starts_with("https://") { 8 } else { 7 };
            if url.len() > scheme_len {
                if !text.is_empty() {
                    out.push(Segment::Text(std::mem::take(&mut text)));
                }
                out.push(Segment::Link(url.to_owned()));
                prev = url.chars().last();
                rest = &rest[url.len()..];
                continue;
            }
        }
        if c == '@' && prev.is_none_or(|p| !is_name_char(p) && p != '@') {
            let name_len = rest[1..].chars().take_while(|&c| is_name_char(c)).count();
            if (1..=30).contains(&name_len) {
                let name = &rest[1..1 + name_len];
                if !text.is_empty() {
                    out.push(Segment::Text(std::mem::take(&mut text)));
                }
                out.push(Segment::Mention(name.to_owned()));
                prev = name.chars().last();
                rest = &rest[1 + name_len..];
                continue;
            }
        }
        text.push(c);
        prev = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    if !text.is_empty() {
        out.push(Segment::Text(text));
    }
    out
}

/// How long ago a moment was, as a relative time says it: now (under 45
/// seconds, or a clock a little ahead), minutes, hours, days; `None` from
/// a week on, when the day is shown instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ago {
    Now,
    Minutes(i64),
    Hours(i64),
    Days(i64),
}

pub fn ago(at: Timestamp, now_ms: i64) -> Option<Ago> {
    let secs = (now_ms - at.millis()).max(0) / 1000;
    Some(match secs {
        0..=44 => Ago::Now,
        45..=3599 => Ago::Minutes((secs + 30) / 60),
        3600..=86_399 => Ago::Hours(secs / 3600),
        86_400..=604_799 => Ago::Days(secs / 86_400),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Segment::*;

    fn t(s: &str) -> Segment {
        Text(s.into())
    }

    #[test]
    fn links_are_cut_out_without_trailing_punctuation() {
        assert_eq!(
            segments("see https://example.org/a?b=1#c. Next"),
            vec![t("see "), Link("https://example.org/a?b=1#c".into()), t(". Next")]
        );
        assert_eq!(
            segments("(http://x.io/wiki/Foo_(bar))"),
            vec![t("("), Link("http://x.io/wiki/Foo_(bar)".into()), t(")")]
        );
        assert_eq!(segments("https://"), vec![t("https://")], "a scheme alone is text");
        assert_eq!(segments("ftp://x.io javascript:alert(1)"), vec![t("ftp://x.io javascript:alert(1)")]);
        assert_eq!(segments("xhttps://a.b"), vec![t("xhttps://a.b")], "only at a word start");
    }

    #[test]
    fn mentions_are_usernames_after_an_at() {
        assert_eq!(segments("hi @ada_l!"), vec![t("hi "), Mention("ada_l".into()), t("!")]);
        assert_eq!(segments("@bob"), vec![Mention("bob".into())]);
        assert_eq!(segments("mail ada@example.org"), vec![t("mail ada@example.org")], "not inside a word");
        assert_eq!(segments("@ alone, @@x"), vec![t("@ alone, @@x")]);
        let long = format!("@{}", "a".repeat(31));
        assert_eq!(segments(&long), vec![t(&long)], "longer than a username can be");
    }

    #[test]
    fn markup_stays_text() {
        let evil = "<script>alert(1)</script><img src=x onerror=alert(2)>";
        assert_eq!(segments(evil), vec![t(evil)]);
    }

    #[test]
    fn everything_is_kept_in_order() {
        let s = "漢字 @yuki https://a.b/ç 🙂";
        let joined: String = segments(s)
            .into_iter()
            .map(|seg| match seg {
                Text(x) | Link(x) => x,
                Mention(m) => format!("@{m}"),
            })
            .collect();
        assert_eq!(joined, s);
    }

    #[test]
    fn relative_times() {
        let now = Timestamp::parse("2026-11-22T12:00:00Z").unwrap().millis();
        let at = |secs: i64| ago(Timestamp(now - secs * 1000), now);
        assert_eq!(at(10), Some(Ago::Now));
        assert_eq!(at(-30), Some(Ago::Now), "a clock a little ahead is not the future");
        assert_eq!(at(44), Some(Ago::Now));
        assert_eq!(at(45), Some(Ago::Minutes(1)));
        assert_eq!(at(5 * 60), Some(Ago::Minutes(5)));
        assert_eq!(at(3 * 3600 + 59), Some(Ago::Hours(3)));
        assert_eq!(at(2 * 86_400), Some(Ago::Days(2)));
        assert_eq!(at(7 * 86_400 - 1), Some(Ago::Days(6)));
        assert_eq!(at(7 * 86_400), None, "a week on, the day is shown");
    }
}
