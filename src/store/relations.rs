//! What the signed-in account likes and follows: one owner for the answer
//! to "does the owner like this post, follow this user". Each like or
//! follow has one [`Toggle`] in the store, shared by every button and count
//! that shows it. Its first state comes from what the server said (a post's
//! `liked`, a user's `followed`), else what toggles taught the app earlier
//! (kept per account in `localStorage`, across reloads, because the
//! interface has no "liked by me"), else the owner's following list, which
//! is loaded one way only: [`load_following`].

use super::toggle::Toggle;
use super::{Change, ListKey, Store, ToggleKey};
use crate::api::{Api, ApiError};
use crate::lock;
use crate::storage::{self, Key};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What is kept across reloads for one account.
#[derive(Default, Serialize, Deserialize)]
struct Remembered {
    likes: HashMap<String, bool>,
    follows: HashMap<String, bool>,
}

fn recall(account: &str) -> Remembered {
    storage::get_json(&Key::Relations { account: account.to_owned() }).unwrap_or_default()
}

/// Remembers the server's state of each `(toggle, state)` for `account`,
/// with one write.
fn remember(account: &str, states: impl IntoIterator<Item = (ToggleKey, bool)>) {
    let mut kept = recall(account);
    for (key, state) in states {
        match key {
            ToggleKey::Like(uuid) => kept.likes.insert(uuid, state),
            ToggleKey::Follow(uuid) => kept.follows.insert(uuid, state),
        };
    }
    storage::set_json(&Key::Relations { account: account.to_owned() }, &kept);
}

impl Store {
    fn owner(&self) -> Option<String> {
        self.session.signed_untracked().map(|s| s.user.uuid)
    }

    /// The post's `liked`, when the server said it (read in place).
    fn liked_said(&self, uuid: &str) -> Option<bool> {
        lock(&self.inner.posts).get(uuid).and_then(|p| p.with_untracked(|p| p.liked))
    }

    /// The user's `followed`, when the server said it (read in place).
    fn followed_said(&self, uuid: &str) -> Option<bool> {
        lock(&self.inner.users).get(uuid).and_then(|u| u.with_untracked(|u| u.followed))
    }

    fn toggle(&self, key: ToggleKey, first: impl FnOnce() -> bool) -> ArcRwSignal<Toggle> {
        lock(&self.inner.toggles).entry(key).or_insert_with(|| ArcRwSignal::new(Toggle::new(first()))).clone()
    }

    /// Whether the owner likes `uuid`, as the Like button shows it.
    pub fn like_toggle(&self, uuid: &str) -> ArcRwSignal<Toggle> {
        let said = self.liked_said(uuid);
        let toggle = self.toggle(ToggleKey::Like(uuid.to_owned()), || {
            said.or_else(|| self.owner().and_then(|me| recall(&me).likes.get(uuid).copied())).unwrap_or(false)
        });
        if let Some(liked) = said {
            toggle.update(|t| t.learn(liked));
        }
        toggle
    }

    /// Whether the owner follows `uuid`, as Follow buttons and follower
    /// counts show it.
    pub fn follow_toggle(&self, uuid: &str) -> ArcRwSignal<Toggle> {
        let said = self.followed_said(uuid);
        let toggle = self.toggle(ToggleKey::Follow(uuid.to_owned()), || {
            said.or_else(|| {
                let me = self.owner()?;
                recall(&me).follows.get(uuid).copied().or_else(|| {
                    self.list(&ListKey::Following(me))
                        .with_untracked(|l| (l.pages_loaded > 0).then(|| l.items.iter().any(|u| u == uuid)))
                })
            })
            .unwrap_or(false)
        });
        if let Some(followed) = said {
            toggle.update(|t| t.learn(followed));
        }
        toggle
    }

    /// Whether a follow state is known from anything but the following
    /// list, or that list is loaded or loading: otherwise a Follow button
    /// needs [`load_following`] of the owner.
    fn needs_owner_following(&self, uuid: &str) -> bool {
        let Some(me) = self.owner() else { return false };
        // Cheapest first: once the list is loaded or loading, no button asks.
        self.list(&ListKey::Following(me.clone())).with_untracked(|l| !l.loading && l.pages_loaded == 0)
            && self.followed_said(uuid).is_none()
            && !recall(&me).follows.contains_key(uuid)
    }

    /// The owner's following list arrived: every follow state learns from
    /// it (unless a request is out).
    fn owner_following_learned(&self, me: &str, followed: &[String]) {
        let toggles: Vec<(String, ArcRwSignal<Toggle>)> = lock(&self.inner.toggles)
            .iter()
            .filter_map(|(key, t)| match key {
                ToggleKey::Follow(uuid) => Some((uuid.clone(), t.clone())),
                ToggleKey::Like(_) => None,
            })
            .collect();
        if toggles.is_empty() {
            return;
        }
        let mut learned = Vec::new();
        for (uuid, toggle) in toggles {
            let follows = followed.contains(&uuid);
            toggle.update(|t| t.learn(follows));
            learned.push((ToggleKey::Follow(uuid), follows));
        }
        remember(me, learned);
    }

    /// The server answered a like toggle: it left the post liked (`now`) or
    /// not, where it was `was` before.
    pub fn like_answered(&self, uuid: &str, was: bool, now: bool) {
        if now != was {
            if let Some(post) = self.post(uuid) {
                post.update(|p| {
                    p.like_count = if now { p.like_count + 1 } else { p.like_count.saturating_sub(1) };
                    p.liked = Some(now);
                });
            }
        }
        if let Some(me) = self.owner() {
            remember(&me, [(ToggleKey::Like(uuid.to_owned()), now)]);
        }
    }

    /// The owner's follow of `uuid` changed on the server: the owner's
    /// following list, what is kept across reloads and the home timeline
    /// follow.
    fn follow_changed(&self, uuid: &str, now: bool) {
        if let Some(me) = self.owner() {
            self.list(&ListKey::Following(me.clone())).update(|l| {
                if l.pages_loaded > 0 {
                    l.items.retain(|u| u != uuid);
                    if now {
                        l.items.insert(0, uuid.to_owned());
                    }
                }
            });
            remember(&me, [(ToggleKey::Follow(uuid.to_owned()), now)]);
        }
        self.tell(Change::Followed { uuid, following: now });
    }

    /// The server answered a follow toggle: the owner now follows `uuid`
    /// (`now`) or not. The user's follower count, the owner's following
    /// list and the home timeline follow.
    pub fn follow_answered(&self, uuid: &str, was: bool, now: bool) {
        if now == was {
            if let Some(me) = self.owner() {
                remember(&me, [(ToggleKey::Follow(uuid.to_owned()), now)]);
            }
            return;
        }
        if let Some(user) = self.user(uuid) {
            user.update(|u| {
                u.follow_count = if now { u.follow_count + 1 } else { u.follow_count.saturating_sub(1) };
                u.followed = Some(now);
            });
        }
        self.follow_changed(uuid, now);
    }
}

/// For a Follow button whose state only the owner's following list can
/// tell: loads that list, once for every button on the page. The list is
/// marked loading before the request starts, so the next button created in
/// the same render does not ask again.
pub fn learn_follow_from_owner_list(api: &Api, store: &Store, uuid: &str) {
    let Some(me) = store.owner() else { return };
    if !store.needs_owner_following(uuid) {
        return;
    }
    store.list(&ListKey::Following(me.clone())).update(|l| l.loading = true);
    let (api, store) = (api.clone(), store.clone());
    leptos::task::spawn_local(async move {
        let _ = load_following(&api, &store, &me).await;
    });
}

/// Reads whom `uuid` follows and keeps it in the store. The one way the
/// following list is loaded: for the owner (by the home timeline, Follow
/// buttons and the Following page alike), every follow state learns from it.
pub async fn load_following(api: &Api, store: &Store, uuid: &str) -> Result<Vec<String>, ApiError> {
    let key = ListKey::Following(uuid.to_owned());
    let followed =
        super::load_whole(store.list(&key), async { Ok(store.put_user_refs(api.following(uuid).await?.following)) })
            .await?;
    if store.owner().as_deref() == Some(uuid) {
        store.owner_following_learned(uuid, &followed);
    }
    Ok(followed)
}

/// A like request failed, but the server may have toggled anyway (the
/// answer lost on the way): reads the post back, so the button and count
/// show the truth rather than a guess. A server that does not say `liked`
/// leaves the button where the failure put it.
pub async fn read_like_back(api: &Api, store: &Store, uuid: &str) {
    if let Ok(post) = api.get_post(uuid).await {
        let liked = post.liked;
        store.put_post(post);
        if let Some(liked) = liked {
            store.like_toggle(uuid).update(|t| t.learn(liked));
            if let Some(me) = store.owner() {
                remember(&me, [(ToggleKey::Like(uuid.to_owned()), liked)]);
            }
        }
    }
}

/// A follow request failed: reads the user back (its `followed` and
/// follower count), or, from a server that does not say `followed`, the
/// owner's following list, which every follow state learns from.
pub async fn read_follow_back(api: &Api, store: &Store, uuid: &str) {
    let followed = match api.user(uuid).await {
        Ok(user) => {
            let followed = user.followed;
            store.put_user(user);
            followed
        }
        Err(_) => None,
    };
    match followed {
        Some(followed) => {
            let toggle = store.follow_toggle(uuid);
            let was = toggle.with_untracked(Toggle::server);
            toggle.update(|t| t.learn(followed));
            if was != followed {
                store.follow_changed(uuid, followed);
            }
        }
        None => {
            if let Some(me) = store.owner() {
                let _ = load_following(api, store, &me).await;
            }
        }
    }
}
