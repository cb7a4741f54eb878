//! What toggles taught the app about the signed-in account: which posts it
//! likes and whom it follows. The interface has no "liked by me" on a post,
//! so this memory (kept per account in `localStorage`, across reloads) gives
//! a button its first state when the server does not say.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Default, Serialize, Deserialize)]
struct Known {
    likes: HashMap<String, bool>,
    follows: HashMap<String, bool>,
}

#[derive(Clone, Copy)]
pub enum Kind {
    Like,
    Follow,
}

fn key(account: &str) -> String {
    format!("perch.known.{account}")
}

fn load(account: &str) -> Known {
    leptos::prelude::window()
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(&key(account)).ok().flatten())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// What is remembered about `uuid` for `account`, if anything.
pub fn recall(account: &str, kind: Kind, uuid: &str) -> Option<bool> {
    let known = load(account);
    match kind {
        Kind::Like => known.likes.get(uuid).copied(),
        Kind::Follow => known.follows.get(uuid).copied(),
    }
}

/// Remembers the server's state of `uuid` for `account`.
pub fn remember(account: &str, kind: Kind, uuid: &str, state: bool) {
    let mut known = load(account);
    match kind {
        Kind::Like => known.likes.insert(uuid.to_owned(), state),
        Kind::Follow => known.follows.insert(uuid.to_owned(), state),
    };
    if let (Some(storage), Ok(text)) =
        (leptos::prelude::window().local_storage().ok().flatten(), serde_json::to_string(&known))
    {
        let _ = storage.set_item(&key(account), &text);
    }
}
