//! The bookmarks as kept: each post with its text as last read, when it was
//! bookmarked, and whether it was found deleted; one list per account in
//! Web Storage, newest bookmarked first. Only split modules reach this
//! (the writes, `/bookmarks`); the Bookmark buttons know the uuids alone
//! (`super`). Once here, it follows the store's reads and deletions.

use super::{Bookmarks, Change};
use crate::browser::web_storage::{self, Key};
use crate::store::Change as Told;
use perch_model::{Parent, Post};
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;

/// One bookmark: the post as last read, and when it was bookmarked.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Bookmark {
    pub post: Post,
    /// When it was bookmarked, in ms since 1970.
    pub at: u64,
    /// Found deleted on the server: shown as deleted, with the kept text.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub gone: bool,
}

/// The most bookmarks kept: the oldest go beyond it.
pub const MOST: usize = 1000;

/// What is kept (another tab's or an old version's writing: hostile until
/// read), checked: bookmarks of posts without a uuid, and repeats, are
/// dropped; newest bookmarked first; at most [`MOST`]. `None` when it is
/// not a list of bookmarks at all: then nothing is written over it (the
/// person's bookmarks are not replaced by one), and nothing is shown.
pub fn checked(text: &str) -> Option<Vec<Bookmark>> {
    // Read with the parser the API's answers use, not one for each entry
    // (`serde_json::Value`), which would cost the main module (docs/size.md).
    let mut all: Vec<Bookmark> = serde_json::from_str(text).ok()?;
    let mut seen = std::collections::HashSet::new();
    all.retain(|b| !b.post.uuid.is_empty() && seen.insert(b.post.uuid.clone()));
    all.sort_by_key(|b| std::cmp::Reverse(b.at));
    all.truncate(MOST);
    Some(all)
}

/// `account`'s bookmarks, as kept here (none kept: an empty list; `None`:
/// what is kept cannot be read).
pub fn read_kept(account: &str) -> Option<Vec<Bookmark>> {
    web_storage::get(&key(account)).map_or(Some(Vec::new()), |text| checked(&text))
}

/// `account`'s bookmarks to show.
pub fn read(account: &str) -> Vec<Bookmark> {
    read_kept(account).unwrap_or_default()
}

fn key(account: &str) -> Key {
    Key::Bookmarks { account: account.to_owned() }
}

/// A post as a bookmark keeps it: without the account's like (the store
/// learns that from the server) and its parent by uuid alone.
fn as_kept(post: &Post) -> Post {
    let mut post = post.clone();
    post.liked = None;
    if let Parent::Post(parent) = &post.parent {
        post.parent = Parent::Uuid(parent.uuid.clone());
    }
    post
}

/// `change` applied to `all`, bookmarked `now`: whether it changed anything.
pub fn apply(all: &mut Vec<Bookmark>, change: Change, now: u64) -> bool {
    let at = |all: &Vec<Bookmark>, uuid: &str| all.iter().position(|b| b.post.uuid == uuid);
    match change {
        Change::Add(post) => {
            if at(all, &post.uuid).is_some() {
                return false;
            }
            all.insert(0, Bookmark { post: as_kept(&post), at: now, gone: false });
            all.truncate(MOST);
        }
        Change::Remove(uuid) => match at(all, &uuid) {
            Some(i) => drop(all.remove(i)),
            None => return false,
        },
        Change::Put(bookmark) => {
            if at(all, &bookmark.post.uuid).is_some() {
                return false;
            }
            let place = all.iter().position(|b| b.at < bookmark.at).unwrap_or(all.len());
            all.insert(place, bookmark);
            all.truncate(MOST);
        }
        // A post read is not gone; its bookmark keeps what was read.
        Change::Read(post) => {
            let Some(i) = at(all, &post.uuid) else { return false };
            let kept = as_kept(&post);
            if all[i].post == kept && !all[i].gone {
                return false;
            }
            all[i].post = kept;
            all[i].gone = false;
        }
        Change::Gone(uuid) => match at(all, &uuid) {
            Some(i) if !all[i].gone => all[i].gone = true,
            _ => return false,
        },
    }
    true
}

/// Applies `changes` to what `account` keeps now (another tab's latest
/// included) and keeps it: `false` when the browser refused (storage full
/// or off), nothing changed then.
pub fn change(account: &str, changes: Vec<Change>) -> bool {
    let Some(mut all) = read_kept(account) else { return false };
    let now = js_sys::Date::now() as u64;
    let mut changed = false;
    for change in changes {
        changed |= apply(&mut all, change, now);
    }
    !changed || web_storage::set_json(&key(account), &all)
}

/// What the writing module does when it is reached (`super::Keeper`): the
/// first time, it starts following the store (and catches up with what
/// was read or found gone before); then it applies `change`, if any, and
/// answers.
pub fn keep(bookmarks: Bookmarks, change: Option<Change>) {
    let Some(account) = bookmarks.account() else { return };
    if !bookmarks.following.swap(true, Ordering::Relaxed) {
        follow_store(&bookmarks);
        let store = &bookmarks.store;
        let missed: Vec<Change> = bookmarks
            .ids_untracked()
            .into_iter()
            .filter_map(|uuid| match store.post_untracked(&uuid) {
                _ if store.is_deleted(&uuid) => Some(Change::Gone(uuid)),
                Some(post) if store.was_read(&uuid) => Some(Change::Read(post)),
                _ => None,
            })
            .collect();
        if !missed.is_empty() {
            self::change(&account, missed);
        }
    }
    let kept = change.clone().is_none_or(|c| self::change(&account, vec![c]));
    bookmarks.answered(change.as_ref(), kept);
}

/// From now on, a bookmarked post read again or found gone is kept so.
fn follow_store(bookmarks: &Bookmarks) {
    let this = bookmarks.clone();
    bookmarks.store.on_change(move |told| {
        let change = match told {
            Told::Read(post) if this.holds(&post.uuid) => Change::Read((*post).clone()),
            Told::Gone(uuid) if this.holds(uuid) => Change::Gone((*uuid).to_owned()),
            _ => return,
        };
        if let Some(account) = this.account() {
            self::change(&account, vec![change]);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(uuid: &str, content: &str) -> Post {
        Post { uuid: uuid.into(), content: content.into(), ..Post::default() }
    }

    #[test]
    fn what_is_kept_is_checked_before_it_is_shown() {
        let text = r#"[{"post":{"uuid":"p1","content":"old"},"at":1},
                       {"post":{"uuid":"p2","content":"new"},"at":5,"gone":true},
                       {"post":{"uuid":"p1","content":"again"},"at":3},
                       {"post":{"uuid":"","content":"no uuid"},"at":9},
                       {"at":7}]"#;
        let all = checked(text).expect("a list");
        let uuids: Vec<_> = all.iter().map(|b| (b.post.uuid.as_str(), b.at, b.gone)).collect();
        assert_eq!(uuids, vec![("p2", 5, true), ("p1", 1, false)], "newest first, each once, each a post with a uuid");
        for broken in ["not json", r#"{"post":1}"#, r#"[{"post":{"uuid":"p3"},"at":"not a time"}]"#, "[7]"] {
            assert_eq!(checked(broken), None, "{broken}");
        }
        let many: Vec<Bookmark> =
            (0..MOST + 5).map(|i| Bookmark { post: post(&format!("p{i}"), ""), at: i as u64, gone: false }).collect();
        let kept = checked(&serde_json::to_string(&many).unwrap()).unwrap();
        assert_eq!(kept.len(), MOST);
        assert_eq!(kept[0].post.uuid, format!("p{}", MOST + 4), "the newest stay");
    }

    #[test]
    fn a_kept_post_leaves_the_like_and_the_parents_copy_behind() {
        let parent = post("p0", "parent");
        let reply = Post { parent: Parent::Post(Box::new(parent)), liked: Some(true), ..post("p1", "reply") };
        let mut all = Vec::new();
        assert!(apply(&mut all, Change::Add(reply), 10));
        assert_eq!(all[0].post.parent, Parent::Uuid("p0".into()));
        assert_eq!(all[0].post.liked, None);
        let text = serde_json::to_string(&all).unwrap();
        assert!(!text.contains("gone"), "{text}");
        assert_eq!(checked(&text), Some(all));
    }

    #[test]
    fn a_bookmark_follows_its_post_and_goes_back_to_its_place() {
        let mut all = Vec::new();
        assert!(apply(&mut all, Change::Add(post("a", "first")), 1));
        assert!(apply(&mut all, Change::Add(post("b", "second")), 2));
        assert!(apply(&mut all, Change::Add(post("c", "third")), 3));
        assert!(!apply(&mut all, Change::Add(post("a", "again")), 4), "once");
        let order = |all: &Vec<Bookmark>| all.iter().map(|b| b.post.uuid.clone()).collect::<Vec<_>>();
        assert_eq!(order(&all), ["c", "b", "a"], "newest bookmarked first");

        assert!(apply(&mut all, Change::Read(post("a", "edited")), 5));
        assert_eq!(all[2].post.content, "edited");
        assert!(!apply(&mut all, Change::Read(post("a", "edited")), 5), "the same post changes nothing");
        assert!(!apply(&mut all, Change::Read(post("z", "not bookmarked")), 5), "a read never adds one");

        assert!(apply(&mut all, Change::Gone("b".into()), 6));
        assert!(all[1].gone && all[1].post.content == "second", "gone, with its text");
        assert!(!apply(&mut all, Change::Gone("b".into()), 6));

        let removed = all[1].clone();
        assert!(apply(&mut all, Change::Remove("b".into()), 7));
        assert_eq!(order(&all), ["c", "a"]);
        assert!(apply(&mut all, Change::Put(removed), 8));
        assert_eq!(order(&all), ["c", "b", "a"], "Undo puts it back at its place");
    }
}
