//! Muting, per account, kept in this browser only (the server is never
//! told): people, and words or phrases. A muted post leaves Home and
//! Activity; elsewhere (a thread, a profile) it collapses to one line with
//! Show. Kept in Web Storage (`perch.mutes.<account>`, so every tab shares
//! it and hears changes), forgotten with the account's other data at
//! sign-out unless the person keeps it.

use crate::account::session::Session;
use crate::browser::web_storage::{self, Key};
use crate::text::matching::{contains_phrase, fold};
use leptos::prelude::*;
use perch_model::{Post, User};
use serde::{Deserialize, Serialize};

/// What one account mutes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Muted {
    /// People, newest first.
    pub people: Vec<MutedPerson>,
    /// Words or phrases, newest first, as the person wrote them.
    pub words: Vec<String>,
}

/// A muted person: the uuid decides, the username is for the list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MutedPerson {
    pub uuid: String,
    pub username: String,
}

/// Why a post is hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    Person,
    Word,
}

/// The most people and words kept: an imported file is cut there.
pub const MOST: usize = 500;
/// The longest word or phrase kept, in characters.
pub const LONGEST: usize = 100;

impl Muted {
    /// Why `post` is hidden, if it is: its author is muted, or its text
    /// has a muted word or phrase.
    pub fn hides(&self, post: &Post) -> Option<Why> {
        if self.people.iter().any(|p| p.uuid == post.author.uuid) {
            return Some(Why::Person);
        }
        if self.words.is_empty() {
            return None;
        }
        let text = fold(&post.content);
        self.words.iter().any(|w| contains_phrase(&text, &fold(w))).then_some(Why::Word)
    }

    pub fn mutes_person(&self, uuid: &str) -> bool {
        self.people.iter().any(|p| p.uuid == uuid)
    }

    /// How many mutes there are.
    pub fn count(&self) -> usize {
        self.people.len() + self.words.len()
    }

    /// A file's mutes, checked: hostile until read (another browser's, or
    /// anyone's file). Entries that are not a person with a uuid, or a
    /// word of 1 to [`LONGEST`] characters, are dropped; at most [`MOST`].
    pub fn from_file(text: &str) -> Option<Muted> {
        let file: Muted = serde_json::from_str(text).ok()?;
        let mut checked = Muted::default();
        for p in file.people {
            let fits =
                |s: &str, n: usize| !s.trim().is_empty() && s.chars().count() <= n && !s.chars().any(char::is_control);
            if fits(&p.uuid, 64) && p.username.chars().count() <= 64 && !checked.mutes_person(&p.uuid) {
                checked.people.push(p);
            }
        }
        for w in file.words {
            if let Some(w) = clean_word(&w) {
                if !checked.words.iter().any(|k| fold(k) == fold(&w)) {
                    checked.words.push(w);
                }
            }
        }
        checked.people.truncate(MOST);
        checked.words.truncate(MOST);
        Some(checked)
    }
}

/// A word or phrase as kept: trimmed, 1 to [`LONGEST`] characters, no
/// control characters; `None` when nothing is left.
pub fn clean_word(word: &str) -> Option<String> {
    let word = word.split_whitespace().collect::<Vec<_>>().join(" ");
    (!word.is_empty() && word.chars().count() <= LONGEST && !word.chars().any(char::is_control)).then_some(word)
}

/// The current account's mutes, followed across tabs; in context.
#[derive(Clone, Copy)]
pub struct Mutes {
    muted: RwSignal<Muted>,
    session: Session,
}

impl Mutes {
    /// Made once by the shell: the current account's mutes, read again
    /// when another tab changes them.
    pub fn provide(session: Session) -> Self {
        let mutes = Mutes { muted: RwSignal::new(Muted::default()), session };
        // Read for whoever is signed in, now and after a sign-in in this
        // tab (mutes kept at a sign-out come back with the account).
        Effect::new(move |_| {
            session.user();
            mutes.read();
        });
        mutes.read();
        web_storage::on_change_elsewhere(move |name, _| {
            if name.starts_with("perch.mutes.") {
                mutes.read();
            }
        });
        provide_context(mutes);
        mutes
    }

    fn key(&self) -> Option<Key> {
        self.session.signed_untracked().map(|s| Key::Mutes { account: s.user.uuid })
    }

    fn read(&self) {
        let now = self.key().and_then(|k| web_storage::get_json::<Muted>(&k)).unwrap_or_default();
        if self.muted.try_with_untracked(|m| m != &now).unwrap_or(false) {
            self.muted.set(now);
        }
    }

    /// What is muted now (tracked).
    pub fn get(&self) -> Muted {
        self.muted.get()
    }

    /// Why `post` is hidden (tracked), if it is.
    pub fn hides(&self, post: &Post) -> Option<Why> {
        self.muted.with(|m| m.hides(post))
    }

    /// Changes the mutes and keeps them.
    pub fn change(&self, change: impl FnOnce(&mut Muted)) {
        let Some(key) = self.key() else { return };
        let mut muted = self.muted.get_untracked();
        change(&mut muted);
        web_storage::set_json(&key, &muted);
        self.muted.set(muted);
    }

    pub fn mute_person(&self, user: &User) {
        self.change(|m| {
            if !m.mutes_person(&user.uuid) {
                m.people.insert(0, MutedPerson { uuid: user.uuid.clone(), username: user.username.clone() });
            }
        });
    }

    pub fn unmute_person(&self, uuid: &str) {
        self.change(|m| m.people.retain(|p| p.uuid != uuid));
    }
}

pub fn use_mutes() -> Option<Mutes> {
    use_context::<Mutes>()
}

/// What `account` mutes, as kept here.
pub fn kept_for(account: &str) -> Muted {
    web_storage::get_json::<Muted>(&Key::Mutes { account: account.to_owned() }).unwrap_or_default()
}

/// How many mutes `account` keeps here (for the sign-out question).
pub fn count(account: &str) -> usize {
    kept_for(account).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(author: &str, content: &str) -> Post {
        Post { author: User { uuid: author.into(), ..User::default() }, content: content.into(), ..Post::default() }
    }

    fn muting(words: &[&str]) -> Muted {
        Muted { words: words.iter().map(|w| w.to_string()).collect(), ..Muted::default() }
    }

    #[test]
    fn a_phrase_matches_whole_words_in_any_case_and_script() {
        let cat = muting(&["cat"]);
        assert_eq!(cat.hides(&post("a", "My CAT, again!")), Some(Why::Word));
        assert_eq!(cat.hides(&post("a", "cat")), Some(Why::Word));
        assert_eq!(cat.hides(&post("a", "a new category")), None, "not inside a word");
        assert_eq!(cat.hides(&post("a", "concatenate cats")), None);
        let german = muting(&["Katze"]);
        assert!(german.hides(&post("a", "Die katze schläft.")).is_some());
        assert!(german.hides(&post("a", "Katzenfutter ist teuer")).is_none());
        let arabic = muting(&["قطة"]);
        assert!(arabic.hides(&post("a", "رأيت قطة في الحديقة")).is_some());
        assert!(arabic.hides(&post("a", "رأيت قِطَّة صغيرة")).is_some(), "with the vowel signs left in");
        assert!(arabic.hides(&post("a", "قطتي نائمة")).is_none(), "not inside a word");
        let phrase = muting(&["good   Morning"]);
        assert!(phrase.hides(&post("a", "Good\nmorning, all")).is_some());
        assert!(phrase.hides(&post("a", "good mornings")).is_none());
        let accented = muting(&["cafe"]);
        assert!(accented.hides(&post("a", "Le Café est ouvert")).is_some(), "accents left out");
    }

    #[test]
    fn a_person_is_muted_by_uuid() {
        let m = Muted { people: vec![MutedPerson { uuid: "u1".into(), username: "sam".into() }], ..Muted::default() };
        assert_eq!(m.hides(&post("u1", "hello")), Some(Why::Person));
        assert_eq!(m.hides(&post("u2", "hello")), None);
    }

    #[test]
    fn a_file_is_checked_before_it_is_kept() {
        let file = r#"{"people":[{"uuid":"u1","username":"sam"},{"uuid":"u1","username":"again"},{"uuid":"","username":"x"}],
                       "words":["  spoilers  ","","Spoilers","a\u0000b","ok phrase"],"other":1}"#;
        let m = Muted::from_file(file).expect("read");
        assert_eq!(m.people, vec![MutedPerson { uuid: "u1".into(), username: "sam".into() }]);
        assert_eq!(m.words, vec!["spoilers".to_string(), "ok phrase".into()]);
        assert!(Muted::from_file("not json").is_none());
        let long = format!(r#"{{"words":["{}"]}}"#, "x".repeat(LONGEST + 1));
        assert!(Muted::from_file(&long).unwrap().words.is_empty());
        let round = serde_json::to_string(&m).unwrap();
        assert_eq!(Muted::from_file(&round), Some(m));
    }
}
