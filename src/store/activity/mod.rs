//! Activity: what happened to the account's posts and followers, composed
//! by the app, since the interface has no notifications (docs/activity.md).
//! This room owns what is kept per account (`Kept`, in Web Storage, shared
//! by tabs), the unread counts the header shows (`Unread`, in the main
//! module), the comparison of two looks (`compare.rs`, plain logic), one
//! check against the server (`check.rs`) and when checks run (`watch.rs`).
//! The check and the watch are split out of the main module: the header
//! only reads a number.

mod check;
pub mod compare;
mod watch;

use crate::store::mutes::Muted;
pub use compare::{Item, Kept};
pub use watch::watch;

use crate::browser::web_storage::{self, Key};
use leptos::prelude::*;

/// How often a visible tab checks when `config.json` does not say.
pub const EVERY_S: u32 = 120;
/// The pages of the account's posts a full check reads (15 a page): its
/// last 60 posts and replies.
pub const POST_PAGES: u32 = 4;
/// A full check (every page of posts, not only the first) runs at the
/// first look, after this many checks, and when the reader asks (Check
/// now); the others read the first page and the followers, two requests
/// (two 304s) when nothing changed. A reply to an older post is found by
/// the next full check: within 8 intervals, 16 minutes.
pub const FULL_EVERY: u32 = 8;
/// The activities kept, newest first.
pub const ITEMS_KEPT: usize = 60;

/// What the account's checks found, as kept (a fresh one before its first look).
pub fn kept(account: &str) -> Kept {
    web_storage::get_json::<Kept>(&Key::Activity { account: account.to_owned() })
        .filter(|k| k.version == compare::VERSION)
        .unwrap_or_default()
}

/// Keeps `kept` for `account` and its unread count beside it (nothing
/// when the account is no longer signed in here).
pub fn save(account: &str, kept: &Kept) {
    if web_storage::set_json(&Key::Activity { account: account.to_owned() }, kept) {
        recount(account, kept, &crate::store::mutes::kept_for(account));
    }
}

/// The activities as the page shows them: muted people's and muted words'
/// replies and mentions left out, muted followers left out of their item
/// (an item of muted followers only is left out whole).
pub fn shown(items: &[Item], muted: &Muted) -> Vec<Item> {
    items
        .iter()
        .filter_map(|item| match item {
            Item::Reply { reply: p, .. } | Item::Mention { post: p, .. } if muted.hides(p).is_some() => None,
            Item::Followed { noticed_ms, users } => {
                let users: Vec<_> = users.iter().filter(|u| !muted.mutes_person(&u.uuid)).cloned().collect();
                (!users.is_empty()).then_some(Item::Followed { noticed_ms: *noticed_ms, users })
            }
            other => Some(other.clone()),
        })
        .collect()
}

/// How many of the activities the page shows are unread: a count counts
/// only what the page shows.
pub fn unread_shown(kept: &Kept, muted: &Muted) -> u32 {
    shown(&kept.items, muted).iter().filter(|i| i.noticed_ms() > kept.opened_ms).count() as u32
}

/// Sets `account`'s unread count from `kept` and `muted`, when it says
/// otherwise (after a check, a visit to the page, or a change of mutes).
/// `true` when it changed.
pub fn recount(account: &str, kept: &Kept, muted: &Muted) -> bool {
    let key = Key::Unread { account: account.to_owned() };
    let count = unread_shown(kept, muted).to_string();
    web_storage::get(&key).as_deref() != Some(count.as_str()) && web_storage::set(&key, &count)
}

/// The page was opened (or is on screen as activities arrive): all read.
/// Returns what was kept, the time the page was opened before (what
/// was noticed after it is new to the reader), and whether anything was
/// unread.
pub fn mark_read(account: &str) -> (Kept, i64, bool) {
    let mut kept = kept(account);
    let before = kept.opened_ms;
    let changed = unread_shown(&kept, &crate::store::mutes::kept_for(account)) > 0;
    if changed || kept.opened_ms == 0 {
        kept.opened_ms = js_sys::Date::now() as i64;
        save(account, &kept);
    }
    (kept, before, changed)
}

/// The unread counts of every account signed in here, as the header and
/// the account menu show them: read from the small `perch.unread.*` keys,
/// followed across tabs (`storage` events) and in this tab ([`Unread::changed`]).
#[derive(Clone, Copy)]
pub struct Unread(RwSignal<u64>);

impl Unread {
    /// Made once, by the shell, and put in context.
    pub fn provide() -> Self {
        let unread = Unread(RwSignal::new(0));
        web_storage::on_change_elsewhere(move |name, _| {
            if name.starts_with("perch.unread.") || name.starts_with("perch.activity.") {
                unread.changed();
            }
        });
        provide_context(unread);
        unread
    }

    /// How many of `account`'s activities are unread (tracked).
    pub fn of(&self, account: &str) -> u32 {
        self.0.track();
        web_storage::get(&Key::Unread { account: account.to_owned() }).and_then(|n| n.parse().ok()).unwrap_or(0)
    }

    /// What is kept changed in this tab.
    pub fn changed(&self) {
        let _ = self.0.try_update(|n| *n += 1);
    }
}

pub fn use_unread() -> Option<Unread> {
    use_context::<Unread>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::mutes::MutedPerson;
    use perch_model::{Post, User};

    fn by(author: &str, text: &str) -> Post {
        Post {
            uuid: format!("{author}-{text}"),
            author: User { uuid: author.into(), ..User::default() },
            content: text.into(),
            ..Post::default()
        }
    }

    #[test]
    fn the_unread_count_counts_only_what_the_page_shows() {
        let items = vec![
            Item::Reply { noticed_ms: 20, reply: by("muted", "hello") },
            Item::Reply { noticed_ms: 20, reply: by("kept", "hi") },
            Item::Mention { noticed_ms: 20, post: by("kept", "about spoilers") },
            Item::Followed { noticed_ms: 20, users: vec![User { uuid: "muted".into(), ..User::default() }] },
            Item::Liked { noticed_ms: 5, post: "p".into(), excerpt: String::new(), more: 1 },
        ];
        let kept = Kept { items, opened_ms: 10, ..Kept::default() };
        assert_eq!(unread_shown(&kept, &Muted::default()), 4, "nothing muted: every new item");
        let muted = Muted {
            people: vec![MutedPerson { uuid: "muted".into(), username: "m".into() }],
            words: vec!["spoilers".into()],
        };
        assert_eq!(
            unread_shown(&kept, &muted),
            1,
            "the muted person's reply and follow, and the muted word, leave the count"
        );
        assert_eq!(shown(&kept.items, &muted).len(), 2, "and the page: the kept reply and the old like");
    }
}
