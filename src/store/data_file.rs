//! "Your Perch data": one file with what the account keeps in this browser
//! only (its mutes, its bookmarks and its lists), written by Settings' Export and read
//! back by Import, in this browser or another. A file is hostile until
//! read: it is checked whole before anything is kept, and a broken one
//! changes nothing. The mutes-only file of earlier versions is read too.

use super::bookmarks::kept::{self, Bookmark};
use super::bookmarks::Change;
use super::lists::List;
use super::mutes::Muted;
use serde::{Deserialize, Serialize};

/// What the file holds. `perch_data` names it and its version.
#[derive(Serialize, Deserialize)]
struct DataFile {
    perch_data: u32,
    mutes: serde_json::Value,
    bookmarks: serde_json::Value,
    /// Absent from the files of versions before lists.
    #[serde(default)]
    lists: serde_json::Value,
}

/// The version written now.
const VERSION: u32 = 1;

/// What a file read brings.
#[derive(Debug, Default, PartialEq)]
pub struct Data {
    pub mutes: Muted,
    pub bookmarks: Vec<Bookmark>,
    pub lists: Vec<List>,
}

/// The file for `mutes` and `account`'s bookmarks and lists.
pub fn export(mutes: &Muted, account: &str) -> String {
    let file = DataFile {
        perch_data: VERSION,
        mutes: serde_json::to_value(mutes).unwrap_or_default(),
        bookmarks: serde_json::to_value(kept::read(account)).unwrap_or_default(),
        lists: serde_json::to_value(super::lists::read(account)).unwrap_or_default(),
    };
    serde_json::to_string_pretty(&file).unwrap_or_default()
}

/// A file, checked: `None` when it is not Perch data, or when a part of it
/// cannot be read (then nothing of it is taken). Each part is checked as
/// its own room checks what it keeps (`Muted::from_file`, `kept::checked`).
pub fn read(text: &str) -> Option<Data> {
    match serde_json::from_str::<DataFile>(text) {
        Ok(file) if file.perch_data >= 1 => {
            let mutes = match file.mutes {
                serde_json::Value::Null => Muted::default(),
                value => Muted::from_file(&value.to_string())?,
            };
            // Every entry must be a bookmark: a file is taken whole or not at all.
            let bookmarks = match file.bookmarks {
                serde_json::Value::Null => Vec::new(),
                serde_json::Value::Array(entries) => {
                    let entries: Vec<String> = entries.iter().map(|e| e.to_string()).collect();
                    let whole = entries
                        .iter()
                        .all(|e| serde_json::from_str::<Bookmark>(e).is_ok_and(|b| !b.post.uuid.is_empty()));
                    if !whole {
                        return None;
                    }
                    kept::checked_entries(entries.into_iter())
                }
                _ => return None,
            };
            let lists = match file.lists {
                serde_json::Value::Null => Vec::new(),
                value => super::lists::from_file(value)?,
            };
            Some(Data { mutes, bookmarks, lists })
        }
        Ok(_) => None,
        // The mutes file of earlier versions: an object of people and words.
        Err(_) => {
            let looks_like_mutes = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
                .is_ok_and(|o| o.contains_key("people") || o.contains_key("words"));
            looks_like_mutes.then(|| Muted::from_file(text)).flatten().map(|mutes| Data {
                mutes,
                bookmarks: Vec::new(),
                lists: Vec::new(),
            })
        }
    }
}

/// Adds `bookmarks` to what `account` keeps (each post once, at its place
/// by when it was bookmarked): `false` when the browser refused.
pub fn keep_bookmarks(account: &str, bookmarks: Vec<Bookmark>) -> bool {
    bookmarks.is_empty() || kept::change(account, bookmarks.into_iter().map(Change::Put).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::mutes::MutedPerson;
    use perch_model::Post;

    #[test]
    fn a_file_written_is_read_back_the_same() {
        let mutes = Muted {
            people: vec![MutedPerson { uuid: "u1".into(), username: "sam".into() }],
            words: vec!["spoilers".into()],
        };
        let bookmarks = vec![Bookmark {
            post: Post { uuid: "p1".into(), content: "kept".into(), ..Post::default() },
            at: 5,
            gone: true,
        }];
        let lists = vec![List { id: "a1".into(), name: "Work".into(), members: vec!["u1".into()] }];
        let text = serde_json::to_string(&DataFile {
            perch_data: VERSION,
            mutes: serde_json::to_value(&mutes).unwrap(),
            bookmarks: serde_json::to_value(&bookmarks).unwrap(),
            lists: serde_json::to_value(&lists).unwrap(),
        })
        .unwrap();
        assert_eq!(read(&text), Some(Data { mutes, bookmarks, lists }));
    }

    #[test]
    fn a_broken_file_brings_nothing() {
        for broken in [
            "not json",
            "[]",
            r#"{"people": 5}"#,
            r#"{"perch_data": 0, "mutes": null, "bookmarks": null}"#,
            r#"{"perch_data": 1, "mutes": {"people": 5}, "bookmarks": []}"#,
            r#"{"perch_data": 1, "mutes": null, "bookmarks": [{"post": {"uuid": "p1"}, "at": "soon"}]}"#,
            r#"{"perch_data": 1, "mutes": null, "bookmarks": {"p1": 1}}"#,
            r#"{"something": "else"}"#,
            r#"{"perch_data": 1, "mutes": null, "bookmarks": [], "lists": {"a": 1}}"#,
            r#"{"perch_data": 1, "mutes": null, "bookmarks": [], "lists": [{"id": "a", "members": "u1"}]}"#,
        ] {
            assert_eq!(read(broken), None, "{broken}");
        }
    }

    #[test]
    fn a_file_of_the_versions_before_lists_is_read() {
        let data = read(r#"{"perch_data": 1, "mutes": null, "bookmarks": []}"#).expect("read");
        assert!(data.lists.is_empty());
        let data = read(r#"{"perch_data": 1, "mutes": null, "bookmarks": [], "lists": [{"id": "a", "name": " Work ", "members": ["u1", "u1"]}]}"#).expect("read");
        assert_eq!(data.lists, vec![List { id: "a".into(), name: "Work".into(), members: vec!["u1".into()] }]);
    }

    #[test]
    fn the_mutes_file_of_earlier_versions_is_read() {
        let data = read(r#"{"people":[{"uuid":"u1","username":"sam"}],"words":["cat"]}"#).expect("read");
        assert_eq!(data.mutes.words, vec!["cat".to_string()]);
        assert!(data.bookmarks.is_empty());
    }
}
