//! The bookmarks as kept: each post with its text as last read, when it was
//! bookmarked, and whether it was found deleted; one list per account in
//! Web Storage, newest bookmarked first. Only split modules reach this
//! (the writes, `/bookmarks`); the Bookmark buttons know the uuids alone
//! (`super`). Once here, it follows the store's reads and deletions.

use super::{as_kept, key, Bookmarks, Change};
use crate::browser::web_storage;
use crate::store::Change as Told;
use perch_model::Post;
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
/// read), checked: `None` when it is not a list at all (then nothing is
/// written over it, and nothing is shown); else its bookmarks ([`checked_entries`]).
/// The list is cut into entries by the browser's parser, each read by the
/// one the API's answers use (one for `serde_json::Value` cost the main module).
pub fn checked(text: &str) -> Option<Vec<Bookmark>> {
    let all = super::js_list(text)?;
    Some(checked_entries(all.iter().filter_map(|entry| js_sys::JSON::stringify(&entry).ok()?.as_string())))
}

/// Entries, each a JSON text, checked: one that is not a bookmark of a post
/// with a uuid is dropped, and so is a repeat; newest bookmarked first; at
/// most [`MOST`].
pub fn checked_entries(entries: impl Iterator<Item = String>) -> Vec<Bookmark> {
    let mut seen = std::collections::HashSet::new();
    let mut all: Vec<Bookmark> = entries
        .filter_map(|entry| serde_json::from_str::<Bookmark>(&entry).ok())
        .filter(|b| !b.post.uuid.is_empty() && seen.insert(b.post.uuid.clone()))
        .collect();
    crate::order::sort_by_key(&mut all, |b| std::cmp::Reverse(b.at));
    all.truncate(MOST);
    all
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
    use perch_model::Parent;

    fn post(uuid: &str, content: &str) -> Post {
        Post { uuid: uuid.into(), content: content.into(), ..Post::default() }
    }

    #[test]
    fn what_is_kept_is_checked_before_it_is_shown() {
        let entries = [
            r#"{"post":{"uuid":"p1","content":"old"},"at":1}"#,
            r#"{"post":{"uuid":"p2","content":"new"},"at":5,"gone":true}"#,
            r#"{"post":{"uuid":"p1","content":"again"},"at":3}"#,
            r#"{"post":{"uuid":"","content":"no uuid"},"at":9}"#,
            r#"{"post":{"uuid":"p3"},"at":"not a time"}"#,
            r#"{"post":1}"#,
            "7",
            r#"{"at":7}"#,
        ];
        let all = checked_entries(entries.iter().map(|e| e.to_string()));
        let uuids: Vec<_> = all.iter().map(|b| (b.post.uuid.as_str(), b.at, b.gone)).collect();
        assert_eq!(uuids, vec![("p2", 5, true), ("p1", 1, false)], "newest first, each once, each a post with a uuid");
        let many = (0..MOST + 5).map(|i| {
            serde_json::to_string(&Bookmark { post: post(&format!("p{i}"), ""), at: i as u64, gone: false }).unwrap()
        });
        let kept = checked_entries(many);
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
        let text = serde_json::to_string(&all[0]).unwrap();
        assert!(!text.contains("gone"), "{text}");
        assert_eq!(checked_entries(std::iter::once(text)), all);
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
