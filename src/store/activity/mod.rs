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
        web_storage::set(&Key::Unread { account: account.to_owned() }, &kept.unread().to_string());
    }
}

/// The page was opened (or is on screen as activities arrive): all read.
/// Returns what was kept, the time the page was opened before (what
/// was noticed after it is new to the reader), and whether anything was
/// unread.
pub fn mark_read(account: &str) -> (Kept, i64, bool) {
    let mut kept = kept(account);
    let before = kept.opened_ms;
    let changed = kept.unread() > 0;
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
