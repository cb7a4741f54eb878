//! Where the person was reading the home timeline, kept per account across
//! reloads: the newest post shown (what came later counts as new) and the
//! post at the top of the screen with its offset. Plain data and its
//! storage; `position.rs` saves it while the page scrolls and scrolls back
//! to it after a reload.

use super::merge::Item;
use crate::browser::web_storage::{self, Key};
use perch_model::Timestamp;
use serde::{Deserialize, Serialize};

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

/// The reading position `account` left, if any.
pub fn saved(account: &str) -> Option<Reading> {
    web_storage::get_json(&Key::Reading { account: account.to_owned() })
}

pub(super) fn save(account: &str, reading: &Reading) {
    web_storage::set_json(&Key::Reading { account: account.to_owned() }, reading);
}
