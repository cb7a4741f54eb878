//! The people this account has met, for completing an `@`-mention: everyone
//! the store holds, its kept Activity names and its bookmarks' authors, each scored by how recently and how often they were
//! met. Each post of theirs read counts once, each mention of them in the
//! account's own posts three times, each fading by half every 30 days;
//! following them adds two, being followed by them one. [`ranked`] keeps
//! those whose username, or a word of whose name, starts with what was
//! typed: usernames first, then the higher score.

use super::{ListKey, Store};
use crate::text::{matching, mentions};
use leptos::prelude::*;
use perch_model::User;
use std::collections::HashMap;

/// A person met, and how much.
#[derive(Clone, Debug, PartialEq)]
pub struct Met {
    pub user: User,
    pub score: f64,
}

const DAY_MS: f64 = 86_400_000.0;
/// Days after which a meeting counts half.
const HALF_LIFE_DAYS: f64 = 30.0;
/// A mention written by the account, against a post read.
const MENTIONED: f64 = 3.0;
const FOLLOWED: f64 = 2.0;
const FOLLOWER: f64 = 1.0;

fn faded(weight: f64, at_ms: Option<i64>, now_ms: i64) -> f64 {
    let days = at_ms.map_or(HALF_LIFE_DAYS, |at| (now_ms - at).max(0) as f64 / DAY_MS);
    weight * 0.5f64.powf(days / HALF_LIFE_DAYS)
}

impl Store {
    /// Everyone this browser has met but `me`, scored (module docs): the
    /// people the store holds (what was read this visit and the local copy
    /// it started from), and those only the account's kept Activity (its
    /// followers, who replied or mentioned it) and bookmarks name.
    pub fn people_met(&self, me: &str, now_ms: i64) -> Vec<Met> {
        let mut users = self.every_user_untracked();
        let (also, new_followers) = kept_people(me);
        for user in also {
            if !user.uuid.is_empty() && !users.iter().any(|u| u.uuid == user.uuid) {
                users.push(user);
            }
        }
        let mut score: HashMap<String, f64> = HashMap::new();
        let by_name: HashMap<String, String> =
            users.iter().map(|u| (u.username.to_ascii_lowercase(), u.uuid.clone())).collect();
        for post in self.every_post_untracked() {
            let at = post.created_at.map(|t| t.millis());
            if post.author.uuid == me {
                for name in mentions::names(&post.content) {
                    if let Some(uuid) = by_name.get(&name) {
                        *score.entry(uuid.clone()).or_default() += faded(MENTIONED, at, now_ms);
                    }
                }
            } else {
                *score.entry(post.author.uuid.clone()).or_default() += faded(1.0, at, now_ms);
            }
        }
        // Read where the store has them, without making an empty list.
        let held = |key: ListKey| {
            super::lock(&self.inner.lists).get(&key).map(|l| l.with_untracked(|l| l.items.clone())).unwrap_or_default()
        };
        let following = held(ListKey::Following(me.to_owned()));
        let followers = held(ListKey::Followers(me.to_owned()));
        users
            .into_iter()
            .filter(|u| u.uuid != me && !u.username.is_empty())
            .map(|user| {
                let mut s = score.get(&user.uuid).copied().unwrap_or(0.0);
                if user.followed == Some(true) || following.contains(&user.uuid) {
                    s += FOLLOWED;
                }
                if followers.contains(&user.uuid) || new_followers.contains(&user.uuid) {
                    s += FOLLOWER;
                }
                Met { user, score: s }
            })
            .collect()
    }
}

/// The people the account's kept Activity (followers, who replied or
/// mentioned it) and bookmarks (their authors) name, and the new followers'
/// uuids among them. Read as far as who they name, with no more of either
/// (their whole readers are their pages' and the checks' code).
fn kept_people(me: &str) -> (Vec<User>, Vec<String>) {
    use crate::browser::web_storage::{get_json, Key};
    /// An activity as far as who it names; serde passes the other fields by.
    #[derive(serde::Deserialize)]
    enum Named {
        Reply { reply: Authored },
        Followed { users: Vec<User> },
        Liked {},
        Mention { post: Authored },
    }
    #[derive(serde::Deserialize)]
    struct Authored {
        author: User,
    }
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct Activity {
        items: Vec<Named>,
    }
    #[derive(serde::Deserialize)]
    struct Bookmark {
        post: Authored,
    }
    let (mut people, mut followers) = (Vec::new(), Vec::new());
    let activity: Activity = get_json(&Key::Activity { account: me.to_owned() }).unwrap_or_default();
    for item in activity.items {
        match item {
            Named::Followed { users } => {
                followers.extend(users.iter().map(|u| u.uuid.clone()));
                people.extend(users);
            }
            Named::Reply { reply: Authored { author } } | Named::Mention { post: Authored { author } } => {
                people.push(author)
            }
            Named::Liked {} => {}
        }
    }
    let bookmarks: Vec<Bookmark> = get_json(&Key::Bookmarks { account: me.to_owned() }).unwrap_or_default();
    people.extend(bookmarks.into_iter().map(|b| b.post.author));
    (people, followers)
}

/// The first `most` people whose username starts with `typed` (any case),
/// or one word of whose display name does (accents aside); usernames
/// first, then the higher score, then the username.
pub fn ranked<'a>(people: &'a [Met], typed: &str, most: usize) -> Vec<&'a Met> {
    let typed_name = typed.to_ascii_lowercase();
    let typed_word = matching::fold(typed);
    let mut found: Vec<(u8, &Met)> = people
        .iter()
        .filter_map(|m| {
            if m.user.username.to_ascii_lowercase().starts_with(&typed_name) {
                Some((0, m))
            } else if matching::words(&m.user.display_name).iter().any(|w| w.starts_with(&typed_word)) {
                Some((1, m))
            } else {
                None
            }
        })
        .collect();
    crate::order::sort_by(&mut found, |(a_class, a), (b_class, b)| {
        a_class
            .cmp(b_class)
            .then(b.score.total_cmp(&a.score))
            .then_with(|| a.user.username.to_ascii_lowercase().cmp(&b.user.username.to_ascii_lowercase()))
    });
    found.into_iter().take(most).map(|(_, m)| m).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn met(username: &str, display_name: &str, score: f64) -> Met {
        let user = User {
            uuid: username.into(),
            username: username.into(),
            display_name: display_name.into(),
            ..User::default()
        };
        Met { user, score }
    }

    fn names(found: Vec<&Met>) -> Vec<&str> {
        found.into_iter().map(|m| m.user.username.as_str()).collect()
    }

    #[test]
    fn usernames_first_then_the_most_met() {
        let people = [met("adam", "", 0.5), met("ada", "Ada L", 4.0), met("zed", "Adèle Z", 9.0), met("bob", "", 9.0)];
        assert_eq!(names(ranked(&people, "ad", 8)), vec!["ada", "adam", "zed"]);
        assert_eq!(names(ranked(&people, "AD", 2)), vec!["ada", "adam"], "any case, and at most `most`");
        assert_eq!(names(ranked(&people, "ade", 8)), vec!["zed"], "a word of the name, accents aside");
        assert!(ranked(&people, "x", 8).is_empty());
    }

    #[test]
    fn meetings_fade_with_time() {
        let now = 100 * DAY_MS as i64;
        let today = faded(1.0, Some(now), now);
        let month = faded(1.0, Some(now - 30 * DAY_MS as i64), now);
        assert!((today - 1.0).abs() < 1e-9 && (month - 0.5).abs() < 1e-9);
        assert!(
            faded(MENTIONED, Some(now - 30 * DAY_MS as i64), now) > today,
            "a mention written a month ago outweighs a post read today"
        );
    }
}
