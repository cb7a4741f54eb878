//! Lists of people, per account, kept in this browser only (the server has
//! no lists and is never told): each a name and its members, in the order
//! the person put them. A list's timeline is Home's code with the members
//! as its sources (`timeline::Feed::List`). Kept in Web Storage
//! (`perch.lists.<account>`, so every tab shares them and hears changes),
//! exported with the rest of "Your Perch data", forgotten with the
//! account's other data at sign-out unless the person keeps them.
//!
//! What is kept is hostile until read (another tab, an old version, a
//! file): [`checked`] keeps only well-formed lists. Nothing here is in the
//! main module: the lists' pages and "Add to list" are split out
//! (`page_lists`).

use crate::account::session::Session;
use crate::browser::web_storage::{self, Key};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// One list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct List {
    /// Made here, never shown: its address, `/lists/<id>`.
    pub id: String,
    pub name: String,
    /// The members' uuids, first added first.
    pub members: Vec<String>,
}

/// The most lists an account keeps, and people on one list.
pub const MOST_LISTS: usize = 100;
pub const MOST_MEMBERS: usize = 1000;
/// The longest name, in characters.
pub const LONGEST_NAME: usize = 60;

/// A name as kept: spaces folded, 1 to [`LONGEST_NAME`] characters, no
/// control characters; `None` when nothing is left.
pub fn clean_name(name: &str) -> Option<String> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    (!name.is_empty() && name.chars().count() <= LONGEST_NAME && !name.chars().any(char::is_control)).then_some(name)
}

/// An id or a uuid as kept: 1 to 64 letters, digits and dashes.
fn plain_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// `lists` as they may be kept: each with a plain id not seen before and a
/// clean name, its members plain uuids, each once; at most [`MOST_LISTS`]
/// of at most [`MOST_MEMBERS`]. What does not fit is dropped.
pub fn checked(lists: Vec<List>) -> Vec<List> {
    let mut kept: Vec<List> = Vec::new();
    for list in lists {
        let Some(name) = clean_name(&list.name) else { continue };
        if !plain_id(&list.id) || kept.iter().any(|k| k.id == list.id) {
            continue;
        }
        let mut members: Vec<String> = Vec::new();
        for m in list.members {
            if plain_id(&m) && !members.contains(&m) {
                members.push(m);
            }
        }
        members.truncate(MOST_MEMBERS);
        kept.push(List { id: list.id, name, members });
    }
    kept.truncate(MOST_LISTS);
    kept
}

/// The lists in a file's JSON: `None` unless it is a list of lists.
pub fn from_file(value: serde_json::Value) -> Option<Vec<List>> {
    serde_json::from_value::<Vec<List>>(value).ok().map(checked)
}

/// `account`'s lists as kept here.
pub fn read(account: &str) -> Vec<List> {
    let key = Key::Lists { account: account.to_owned() };
    checked(web_storage::get_json::<Vec<List>>(&key).unwrap_or_default())
}

/// Keeps `lists` as `account`'s: `false` when the browser refused.
pub fn write(account: &str, lists: &[List]) -> bool {
    web_storage::set_json(&Key::Lists { account: account.to_owned() }, &lists)
}

/// A new list's id: unguessable is not needed, unique among the account's is.
pub fn new_id(lists: &[List]) -> String {
    loop {
        let id = format!("{:x}", (js_sys::Math::random() * 1e12) as u64);
        if !lists.iter().any(|l| l.id == id) {
            return id;
        }
    }
}

/// What a person does to their lists; [`change`] applies it.
#[derive(Clone, Debug)]
pub enum Change {
    /// A new, empty list (with the id already made).
    Make {
        id: String,
        name: String,
    },
    Rename {
        id: String,
        name: String,
    },
    /// Moves a list one place up (-1) or down (1).
    Move {
        id: String,
        by: i32,
    },
    Delete(String),
    /// Puts a deleted list back where it was (Undo).
    Restore {
        list: List,
        at: usize,
    },
    /// Adds or removes a person.
    Member {
        id: String,
        uuid: String,
        on: bool,
    },
    /// Adds the lists of a file; a list already here (same id) takes the
    /// file's members too.
    Import(Vec<List>),
}

/// `lists` after `change`; `None` when it changes nothing or cannot be
/// made (a bad name, too many lists).
pub fn change(mut lists: Vec<List>, change: Change) -> Option<Vec<List>> {
    let at = |lists: &[List], id: &str| lists.iter().position(|l| l.id == id);
    match change {
        Change::Make { id, name } => {
            let name = clean_name(&name)?;
            if lists.len() >= MOST_LISTS || at(&lists, &id).is_some() {
                return None;
            }
            lists.push(List { id, name, members: Vec::new() });
        }
        Change::Rename { id, name } => {
            let name = clean_name(&name)?;
            let i = at(&lists, &id)?;
            if lists[i].name == name {
                return None;
            }
            lists[i].name = name;
        }
        Change::Move { id, by } => {
            let i = at(&lists, &id)?;
            let j = i.checked_add_signed(by as isize).filter(|j| *j < lists.len())?;
            lists.swap(i, j);
        }
        Change::Delete(id) => {
            lists.remove(at(&lists, &id)?);
        }
        Change::Restore { list, at: place } => {
            if at(&lists, &list.id).is_some() {
                return None;
            }
            let place = place.min(lists.len());
            lists.insert(place, list);
        }
        Change::Member { id, uuid, on } => {
            let i = at(&lists, &id)?;
            let list = &mut lists[i];
            let had = list.members.contains(&uuid);
            match (on, had) {
                (true, false) if list.members.len() < MOST_MEMBERS => list.members.push(uuid),
                (false, true) => list.members.retain(|m| *m != uuid),
                _ => return None,
            }
        }
        Change::Import(file) => {
            for list in file {
                match at(&lists, &list.id) {
                    Some(i) => {
                        for m in list.members {
                            if !lists[i].members.contains(&m) {
                                lists[i].members.push(m);
                            }
                        }
                    }
                    None => lists.push(list),
                }
            }
            lists = checked(lists);
        }
    }
    Some(lists)
}

/// The current account's lists, followed across tabs.
#[derive(Clone, Copy)]
pub struct Lists {
    lists: RwSignal<Vec<List>>,
    /// A change could not be kept (storage full or off).
    pub failed: RwSignal<bool>,
    session: Session,
}

thread_local! {
    static MADE: std::cell::OnceCell<Lists> = const { std::cell::OnceCell::new() };
}

/// The lists, made (for the visit, under the shell) the first time they
/// are asked for.
pub fn use_lists() -> Option<Lists> {
    if let Some(made) = MADE.with(|m| m.get().copied()) {
        return Some(made);
    }
    let session = use_context::<Session>()?;
    let owner = super::bookmarks::shell_owner()?;
    let made = owner.with(|| Lists::make(session));
    let _ = MADE.with(|m| m.set(made));
    Some(made)
}

impl Lists {
    fn make(session: Session) -> Self {
        let lists = Lists { lists: RwSignal::new(Vec::new()), failed: RwSignal::new(false), session };
        Effect::new(move |_| {
            session.user();
            lists.read();
        });
        lists.read();
        web_storage::on_change_elsewhere(move |name, _| {
            if name.starts_with("perch.lists.") {
                lists.read();
            }
        });
        lists
    }

    /// The current account, whose lists these are.
    pub fn account(&self) -> Option<String> {
        self.session.signed_untracked().map(|s| s.user.uuid)
    }

    fn read(&self) {
        let now = self.account().map(|a| read(&a)).unwrap_or_default();
        if self.lists.try_with_untracked(|l| *l != now).unwrap_or(false) {
            self.lists.set(now);
        }
    }

    /// Every list (tracked).
    pub fn all(&self) -> Vec<List> {
        self.lists.get()
    }

    /// One list (tracked), if it is there.
    pub fn get(&self, id: &str) -> Option<List> {
        self.lists.with(|l| l.iter().find(|l| l.id == id).cloned())
    }

    /// Every list (untracked).
    pub fn all_untracked(&self) -> Vec<List> {
        self.lists.get_untracked()
    }

    /// Applies `what`, reading what is kept first (another tab may have
    /// changed it), and keeps the result: `true` when it was kept.
    pub fn change(&self, what: Change) -> bool {
        let Some(account) = self.account() else { return false };
        let Some(after) = change(read(&account), what) else { return false };
        let kept = write(&account, &after);
        self.failed.set(!kept);
        if kept {
            self.lists.set(after);
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(id: &str, name: &str, members: &[&str]) -> List {
        List { id: id.into(), name: name.into(), members: members.iter().map(|m| m.to_string()).collect() }
    }

    #[test]
    fn what_is_kept_is_checked_before_it_is_used() {
        let read = checked(vec![
            list("a", "  Friends   here ", &["u1", "u1", "u/2", "", "u3"]),
            list("a", "Again", &[]),
            list("b", "", &[]),
            list("c\"><b>", "Bad id", &[]),
            list("d", &"x".repeat(LONGEST_NAME + 1), &[]),
            list("e", "Tab\u{0007}", &[]),
            list("f", "عمل", &["u9"]),
        ]);
        assert_eq!(read, vec![list("a", "Friends here", &["u1", "u3"]), list("f", "عمل", &["u9"])]);
        let many: Vec<List> = (0..MOST_LISTS + 5).map(|i| list(&i.to_string(), "n", &[])).collect();
        assert_eq!(checked(many).len(), MOST_LISTS);
        assert_eq!(from_file(serde_json::json!({"lists": 1})), None);
        assert_eq!(
            from_file(serde_json::json!([{"id": "a", "name": "A", "members": ["u1"]}])),
            Some(vec![list("a", "A", &["u1"])])
        );
    }

    #[test]
    fn lists_are_made_renamed_moved_and_deleted_with_undo() {
        let made = change(Vec::new(), Change::Make { id: "a".into(), name: "Work".into() }).unwrap();
        let made = change(made, Change::Make { id: "b".into(), name: "Friends".into() }).unwrap();
        assert!(change(made.clone(), Change::Make { id: "c".into(), name: "   ".into() }).is_none(), "no name");
        let renamed = change(made, Change::Rename { id: "a".into(), name: "Job".into() }).unwrap();
        assert_eq!(renamed[0].name, "Job");
        let moved = change(renamed.clone(), Change::Move { id: "b".into(), by: -1 }).unwrap();
        assert_eq!(moved.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(), ["b", "a"]);
        assert!(change(moved.clone(), Change::Move { id: "b".into(), by: -1 }).is_none(), "already first");
        let deleted = change(moved.clone(), Change::Delete("b".into())).unwrap();
        assert_eq!(deleted.len(), 1);
        let back = change(deleted, Change::Restore { list: moved[0].clone(), at: 0 }).unwrap();
        assert_eq!(back, moved, "Undo puts it back where it was");
    }

    #[test]
    fn members_come_once_and_go() {
        let lists = vec![list("a", "A", &["u1"])];
        assert!(change(lists.clone(), Change::Member { id: "a".into(), uuid: "u1".into(), on: true }).is_none());
        let added = change(lists, Change::Member { id: "a".into(), uuid: "u2".into(), on: true }).unwrap();
        assert_eq!(added[0].members, ["u1", "u2"]);
        let removed = change(added, Change::Member { id: "a".into(), uuid: "u1".into(), on: false }).unwrap();
        assert_eq!(removed[0].members, ["u2"]);
        let imported =
            change(removed, Change::Import(vec![list("a", "A", &["u2", "u3"]), list("z", "Z", &["u4"])])).unwrap();
        assert_eq!(imported, vec![list("a", "A", &["u2", "u3"]), list("z", "Z", &["u4"])]);
    }
}
