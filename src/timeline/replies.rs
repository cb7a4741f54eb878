//! Hiding replies on a timeline (issue 68, as Elk's "Wellbeing" does): a
//! choice per account and per timeline (Home, each list), kept in this
//! browser (`perch.replies_hidden.<account>`: the timelines that hide
//! them, as a JSON list of "home" and "list.<id>"). A timeline that hides
//! replies shows only the posts that answer no one, and counts only those
//! among its new posts (`components/timeline_view.rs`). Threads, profiles
//! and Activity still show replies. A choice made in another tab applies
//! here at once.

use super::reading::Feed;
use crate::browser::web_storage::{self, Key};
use leptos::prelude::*;

thread_local! {
    /// Moved on at each change made in this tab: what shows follows it.
    static CHANGED: ArcRwSignal<u64> = ArcRwSignal::new(0);
}

/// How a timeline is named in the kept list.
fn name(feed: &Feed) -> String {
    match feed {
        Feed::Home => "home".to_owned(),
        Feed::List(id) => format!("list.{id}"),
    }
}

fn kept(account: &str) -> Vec<String> {
    web_storage::get_json::<Vec<String>>(&Key::RepliesHidden { account: account.to_owned() }).unwrap_or_default()
}

/// Whether `account`'s timeline `feed` hides replies; tracked, so what
/// shows follows a change.
pub fn hidden(account: &str, feed: &Feed) -> bool {
    CHANGED.with(|c| c.track());
    kept(account).contains(&name(feed))
}

/// `account`'s timeline `feed` hides replies (`hide`) or shows them.
/// Answers whether the browser kept the choice.
pub fn set_hidden(account: &str, feed: &Feed, hide: bool) -> bool {
    let mut all = kept(account);
    all.retain(|f| *f != name(feed));
    if hide {
        all.push(name(feed));
    }
    let key = Key::RepliesHidden { account: account.to_owned() };
    let done = if all.is_empty() {
        web_storage::remove(&key);
        true
    } else {
        web_storage::set_json(&key, &all)
    };
    CHANGED.with(|c| c.update(|n| *n += 1));
    done
}

/// Follows the choices made in other tabs (their storage events), for the
/// visit: called once, by the app's shell.
pub fn follow_other_tabs() {
    web_storage::on_change_elsewhere(|name, _| {
        if name.starts_with("perch.replies_hidden.") {
            CHANGED.with(|c| c.update(|n| *n += 1));
        }
    });
}
