//! The search index, plain logic: every post put in it, by its words
//! (folded as `text::matching` folds them, the one matcher mutes use too),
//! and every person, by name. A search is the posts that have all its
//! words, newest first, and the people whose username or a word of whose
//! name starts with each of its words.

use crate::store::mutes::Muted;
use crate::text::matching;
use perch_model::{Parent, Post, User};
use std::collections::HashMap;

/// One post as kept in the index.
#[derive(Debug)]
struct Entry {
    /// The post as last read, its parent by uuid alone.
    post: Post,
    /// Its words, by number in the vocabulary.
    words: Box<[u32]>,
    /// Deleted, or found missing: never found again.
    gone: bool,
}

/// Every post and person put in, findable by their words.
#[derive(Debug, Default)]
pub struct Index {
    entries: Vec<Entry>,
    by_uuid: HashMap<String, u32>,
    /// Each word once, with its number.
    vocabulary: HashMap<Box<str>, u32>,
    /// For each word's number, the entries that have it, in order.
    postings: Vec<Vec<u32>>,
    /// People, with their username and the words of their name, folded.
    people: Vec<(User, Box<[Box<str>]>)>,
    people_by_uuid: HashMap<String, usize>,
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Found {
    /// The posts, newest first (at most the `most` asked for).
    pub posts: Vec<Post>,
    /// How many posts match in all.
    pub matched: usize,
    /// The people, usernames in order.
    pub people: Vec<User>,
}

impl Index {
    /// How many posts it holds (deleted ones not counted).
    pub fn posts(&self) -> usize {
        self.entries.iter().filter(|e| !e.gone).count()
    }

    /// Puts `post` in (its newer reading replaces the one before), and its author.
    pub fn put(&mut self, post: &Post) {
        if post.uuid.is_empty() {
            return;
        }
        self.put_person(&post.author);
        let mut post = post.clone();
        if let Parent::Post(parent) = &post.parent {
            post.parent = Parent::Uuid(parent.uuid.clone());
        }
        let mut words: Vec<u32> = matching::words(&post.content).iter().map(|w| self.word_number(w)).collect();
        crate::order::sort_by(&mut words, u32::cmp);
        words.dedup();
        match self.by_uuid.get(&post.uuid).copied() {
            Some(at) => {
                let entry = &mut self.entries[at as usize];
                if entry.post.content != post.content {
                    for w in entry.words.iter() {
                        let list = &mut self.postings[*w as usize];
                        if let Ok(i) = list.binary_search(&at) {
                            list.remove(i);
                        }
                    }
                    for w in &words {
                        let list = &mut self.postings[*w as usize];
                        if let Err(i) = list.binary_search(&at) {
                            list.insert(i, at);
                        }
                    }
                    entry.words = words.into_boxed_slice();
                }
                entry.post = post;
            }
            None => {
                let at = self.entries.len() as u32;
                for w in &words {
                    self.postings[*w as usize].push(at);
                }
                self.by_uuid.insert(post.uuid.clone(), at);
                self.entries.push(Entry { post, words: words.into_boxed_slice(), gone: false });
            }
        }
    }

    /// The post `uuid` is deleted or missing: it is found no more.
    pub fn gone(&mut self, uuid: &str) {
        if let Some(at) = self.by_uuid.get(uuid) {
            self.entries[*at as usize].gone = true;
        }
    }

    /// Puts `user` in, or their newer reading in place of the one before.
    pub fn put_person(&mut self, user: &User) {
        if user.uuid.is_empty() || user.username.is_empty() {
            return;
        }
        let mut names = vec![Box::<str>::from(matching::fold(&user.username))];
        names.extend(matching::words(&user.display_name).into_iter().map(Box::from));
        match self.people_by_uuid.get(&user.uuid) {
            Some(at) => self.people[*at] = (user.clone(), names.into_boxed_slice()),
            None => {
                self.people_by_uuid.insert(user.uuid.clone(), self.people.len());
                self.people.push((user.clone(), names.into_boxed_slice()));
            }
        }
    }

    fn word_number(&mut self, word: &str) -> u32 {
        if let Some(n) = self.vocabulary.get(word) {
            return *n;
        }
        let n = self.postings.len() as u32;
        self.vocabulary.insert(word.into(), n);
        self.postings.push(Vec::new());
        n
    }

    /// The posts with every word of `query` (folded), newest first, the
    /// first `most` of them; and the people whose names start with them
    /// (an `@` before a word is left out). `muted` stays out.
    pub fn search(&self, query: &str, muted: &Muted, most: usize) -> Found {
        let wanted = matching::words(query);
        if wanted.is_empty() {
            return Found::default();
        }
        let mut found = Found::default();
        // A muted word or phrase can only be in a post that has each of its
        // words: those alone are read again whole (a phrase of no word, all).
        let mut maybe_muted = std::collections::HashSet::new();
        let mut read_all = false;
        for phrase in &muted.words {
            match self.having_all(&matching::words(phrase)) {
                Some(at) => maybe_muted.extend(at),
                None => read_all = true,
            }
        }
        let shown = |at: &u32, e: &Entry| {
            !e.gone
                && !muted.mutes_person(&e.post.author.uuid)
                && !((read_all || maybe_muted.contains(at)) && muted.hides(&e.post).is_some())
        };
        let mut hits: Vec<&Post> = self
            .having_all(&wanted)
            .unwrap_or_default()
            .iter()
            .map(|at| (at, &self.entries[*at as usize]))
            .filter(|(at, e)| shown(at, e))
            .map(|(_, e)| &e.post)
            .collect();
        crate::order::sort_by_key(&mut hits, |p| std::cmp::Reverse(p.created_at.map_or(0, |t| t.0)));
        found.matched = hits.len();
        found.posts = hits.into_iter().take(most).cloned().collect();
        let mut people: Vec<&User> = self
            .people
            .iter()
            .filter(|(user, names)| {
                !muted.mutes_person(&user.uuid)
                    && wanted.iter().all(|w| names.iter().any(|n| n.starts_with(w.as_str())))
            })
            .map(|(user, _)| user)
            .collect();
        crate::order::sort_by(&mut people, |a, b| a.username.cmp(&b.username));
        found.people = people.into_iter().take(most).cloned().collect();
        found
    }

    /// The entries that have every one of `words` (folded), in order;
    /// `None` for no word at all.
    fn having_all(&self, words: &[String]) -> Option<Vec<u32>> {
        let mut lists: Vec<&[u32]> = Vec::with_capacity(words.len());
        for word in words {
            match self.vocabulary.get(word.as_str()) {
                Some(n) => lists.push(&self.postings[*n as usize]),
                None => return Some(Vec::new()),
            }
        }
        crate::order::sort_by_key(&mut lists, |l| l.len());
        let (first, others) = lists.split_first()?;
        Some(first.iter().copied().filter(|at| others.iter().all(|l| l.binary_search(at).is_ok())).collect())
    }

    /// About how many bytes the index takes, beyond the posts' own text
    /// (docs/performance.md, "Search").
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        let posts: usize =
            self.entries.iter().map(|e| size_of::<Entry>() + e.words.len() * 4 + post_bytes(&e.post)).sum();
        let uuids: usize = self.by_uuid.keys().map(|k| k.len() + size_of::<String>() + 8).sum();
        let vocabulary: usize = self.vocabulary.keys().map(|k| k.len() + size_of::<Box<str>>() + 8).sum();
        let postings: usize = self.postings.iter().map(|l| l.capacity() * 4 + size_of::<Vec<u32>>()).sum();
        let people: usize = self
            .people
            .iter()
            .map(|(u, names)| {
                size_of::<User>()
                    + u.uuid.len()
                    + u.username.len()
                    + u.display_name.len()
                    + names.iter().map(|n| n.len() + 16).sum::<usize>()
            })
            .sum();
        posts + uuids + vocabulary + postings + people
    }
}

/// What a post's text takes beyond its struct (counted in its entry's).
fn post_bytes(post: &Post) -> usize {
    post.uuid.len()
        + post.content.len()
        + post.author.uuid.len()
        + post.author.username.len()
        + post.author.display_name.len()
        + post.parent.uuid().map_or(0, str::len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::mutes::MutedPerson;
    use perch_model::Timestamp;

    fn user(name: &str, display: &str) -> User {
        User { uuid: format!("u-{name}"), username: name.into(), display_name: display.into(), ..User::default() }
    }

    fn post(uuid: &str, by: &str, at: i64, content: &str) -> Post {
        Post {
            uuid: uuid.into(),
            author: user(by, &by.to_uppercase()),
            content: content.into(),
            created_at: Some(Timestamp(at)),
            ..Post::default()
        }
    }

    fn uuids(found: &Found) -> Vec<&str> {
        found.posts.iter().map(|p| p.uuid.as_str()).collect()
    }

    fn index(posts: &[Post]) -> Index {
        let mut index = Index::default();
        posts.iter().for_each(|p| index.put(p));
        index
    }

    #[test]
    fn every_word_must_match_whole_in_any_case_newest_first() {
        let index = index(&[
            post("1", "ana", 1, "The cat sat on the mat"),
            post("2", "ben", 3, "A CAT and a dog"),
            post("3", "cai", 2, "category theory, dog days"),
            post("4", "ana", 4, "dog and cat, again"),
        ]);
        let none = Muted::default();
        assert_eq!(uuids(&index.search("cat", &none, 10)), vec!["4", "2", "1"], "newest first, not inside a word");
        assert_eq!(uuids(&index.search("Dog CAT", &none, 10)), vec!["4", "2"], "all the words");
        assert_eq!(uuids(&index.search("cat unicorn", &none, 10)), Vec::<&str>::new());
        let first = index.search("cat", &none, 2);
        assert_eq!((uuids(&first), first.matched), (vec!["4", "2"], 3), "the first two of three");
        assert_eq!(index.search("  ,, ", &none, 10), Found::default());
    }

    #[test]
    fn accents_case_and_arabic_vowel_signs_are_left_out() {
        let index = index(&[post("1", "ana", 1, "Un Café crème"), post("2", "ben", 2, "رأيت قِطَّة في الحديقة")]);
        let none = Muted::default();
        assert_eq!(uuids(&index.search("cafe CREME", &none, 10)), vec!["1"]);
        assert_eq!(uuids(&index.search("café", &none, 10)), vec!["1"]);
        assert_eq!(uuids(&index.search("قطة", &none, 10)), vec!["2"]);
    }

    #[test]
    fn a_post_read_again_is_found_by_its_new_words_only_and_a_gone_one_not_at_all() {
        let mut index = index(&[post("1", "ana", 1, "first words"), post("2", "ben", 2, "other words")]);
        index.put(&post("1", "ana", 1, "edited text"));
        let none = Muted::default();
        assert_eq!(uuids(&index.search("first", &none, 10)), Vec::<&str>::new());
        assert_eq!(uuids(&index.search("edited", &none, 10)), vec!["1"]);
        assert_eq!(uuids(&index.search("words", &none, 10)), vec!["2"]);
        assert_eq!(index.posts(), 2);
        index.gone("2");
        assert_eq!(uuids(&index.search("words", &none, 10)), Vec::<&str>::new());
        assert_eq!(index.posts(), 1);
    }

    #[test]
    fn muted_people_and_words_stay_out() {
        let index = index(&[
            post("1", "ana", 1, "garden news"),
            post("2", "ben", 2, "garden spoilers"),
            post("3", "cai", 3, "garden party"),
        ]);
        let muted = Muted {
            people: vec![MutedPerson { uuid: "u-cai".into(), username: "cai".into() }],
            words: vec!["Spoilers".into()],
        };
        assert_eq!(uuids(&index.search("garden", &muted, 10)), vec!["1"]);
        let people: Vec<String> = index.search("c", &muted, 10).people.into_iter().map(|u| u.username).collect();
        assert!(people.is_empty(), "{people:?}");
    }

    #[test]
    fn a_muted_phrase_hides_only_where_its_words_stand_together() {
        let index = index(&[
            post("1", "ana", 1, "Good morning, garden!"),
            post("2", "ben", 2, "good garden, morning"),
            post("3", "cai", 3, "garden: good-morning"),
        ]);
        let muted = Muted { words: vec!["good morning".into(), "!!".into()], ..Muted::default() };
        assert_eq!(uuids(&index.search("garden", &muted, 10)), vec!["3", "2"]);
    }

    #[test]
    fn people_are_found_by_the_start_of_their_username_or_a_word_of_their_name() {
        let mut index = Index::default();
        index.put_person(&user("alice", "Alice Liddell"));
        index.put_person(&user("bob", "Robert Émile"));
        index.put_person(&user("alicia", "Ally"));
        let none = Muted::default();
        let names =
            |q: &str| -> Vec<String> { index.search(q, &none, 10).people.into_iter().map(|u| u.username).collect() };
        assert_eq!(names("@ali"), vec!["alice", "alicia"]);
        assert_eq!(names("lidd"), vec!["alice"]);
        assert_eq!(names("emile"), vec!["bob"], "accents left out");
        assert_eq!(names("ali lid"), vec!["alice"], "every word");
        assert_eq!(names("ice"), Vec::<String>::new(), "the start of a word only");
    }
}
