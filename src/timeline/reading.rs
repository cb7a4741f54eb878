//! Where the person was reading the home timeline (or a list), kept per account across
//! reloads: the newest post shown (what came later counts as new) and the
//! post at the top of the screen with its offset. Plain data and its
//! storage; `position.rs` saves it while the page scrolls and scrolls back
//! to it after a reload.

use super::merge::Item;
use crate::browser::web_storage::{self, Key};
use perch_model::Timestamp;
use serde::{Deserialize, Serialize};

/// Whose posts a timeline merges: Home's (the account and everyone it
/// follows) or a list's (its members, followed or not). Everything else,
/// the merge, paging, new posts and the reading position, is the same code.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Feed {
    #[default]
    Home,
    /// A list of the account's (`store/lists.rs`), by its id.
    List(String),
}

/// Where the person was reading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    /// The newest post shown (newer ones count as new).
    pub newest: Option<Mark>,
    /// The post at the top of the screen, and how far below the top it was.
    pub at: Option<Mark>,
    pub offset: f64,
}

/// A post and its time, enough to find its place again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    pub uuid: String,
    pub at: i64,
}

impl Mark {
    pub fn item(&self) -> Item {
        Item { uuid: self.uuid.clone(), at: Timestamp(self.at) }
    }
}

/// Where the reading position of `account` in `feed` is kept.
fn key(account: &str, feed: &Feed) -> Key {
    let account = account.to_owned();
    match feed {
        Feed::Home => Key::Reading { account },
        Feed::List(list) => Key::ListReading { account, list: list.clone() },
    }
}

/// The reading position `account` left in `feed`, if any.
pub fn saved(account: &str, feed: &Feed) -> Option<Reading> {
    web_storage::get_json(&key(account, feed))
}

pub(super) fn save(account: &str, feed: &Feed, reading: &Reading) {
    web_storage::set_json(&key(account, feed), reading);
}
