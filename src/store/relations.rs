//! What the signed-in account likes and follows: one home for the answer
//! to "do I like this post, follow this user", and the one driver
//! of like and follow requests. Each like or follow has one [`Toggle`] in
//! the store, shared by every button and count that shows it. Its first
//! state comes from what the server said (a post's `liked`, a user's
//! `followed`), else what toggles taught the app earlier (kept per account
//! in `localStorage`, across reloads, because the interface has no "liked
//! by me"), else the account's following list, which is read one way only:
//! [`Store::read_following`].
//!
//! Follow state has one source of truth, the `Toggle`: a user's `followed`
//! and follower count, the account's `ListKey::Following` and what is kept
//! across reloads are updated from it (`follow_changed`), and the home
//! timeline hears `Change::Followed`.
//!
//! A click ([`Store::click_like`], [`Store::click_follow`]) flips the toggle
//! at once; the requests run to their end in the store, whatever page
//! started them, and a failure is kept next to the toggle
//! ([`Store::toggle_error`]) after the server's state is read back.

use super::lock;
use super::toggle::{Next, Toggle};
use super::{Change, ListKey, Store, ToggleKey};
use crate::api::ApiError;
use crate::browser::web_storage::{self, Key};
use leptos::prelude::*;
use perch_model::{FollowAction, LikeAction};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What is kept across reloads for one account.
#[derive(Default, Serialize, Deserialize)]
struct Remembered {
    likes: HashMap<String, bool>,
    follows: HashMap<String, bool>,
}

fn recall(account: &str) -> Remembered {
    web_storage::get_json(&Key::Relations { account: account.to_owned() }).unwrap_or_default()
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
    web_storage::set_json(&Key::Relations { account: account.to_owned() }, &kept);
}

impl Store {
    /// The post's `liked`, when the server said it (read in place).
    pub(super) fn liked_said(&self, uuid: &str) -> Option<bool> {
        lock(&self.inner.posts).get(uuid).and_then(|p| p.with_untracked(|p| p.liked))
    }

    /// The user's `followed`, when the server said it (read in place).
    pub(super) fn followed_said(&self, uuid: &str) -> Option<bool> {
        lock(&self.inner.users).get(uuid).and_then(|u| u.with_untracked(|u| u.followed))
    }

    /// The server said the state of `key` in an answer (a post's `liked`,
    /// a user's `followed`): a toggle already shown follows it, unless a
    /// click of its own is out or waiting. What was drawn first (from the
    /// local copy, or an older answer) is never taken over the server's word.
    ///
    /// Only a word asked after the account's last write of `key` was
    /// answered gets here ([`Store::written_since`]).
    fn toggle_said(&self, key: ToggleKey, server: bool) {
        let toggle = lock(&self.inner.toggles).get(&key).map(|(t, _)| t.clone());
        if let Some(toggle) = toggle.filter(|t| t.with_untracked(|t| t.server() != server)) {
            toggle.update(|t| t.learn(server));
        }
    }

    fn toggle(&self, key: ToggleKey, first: impl FnOnce() -> bool) -> ArcRwSignal<Toggle> {
        self.toggle_entry(key, first).0
    }

    /// The toggle of `key`, made as `first` when there is none yet.
    pub(super) fn toggle_with(&self, key: ToggleKey, first: Toggle) -> ArcRwSignal<Toggle> {
        lock(&self.inner.toggles)
            .entry(key)
            .or_insert_with(|| (ArcRwSignal::new(first), ArcRwSignal::new(None)))
            .0
            .clone()
    }

    fn toggle_entry(
        &self,
        key: ToggleKey,
        first: impl FnOnce() -> bool,
    ) -> (ArcRwSignal<Toggle>, ArcRwSignal<Option<crate::i18n::Text>>) {
        lock(&self.inner.toggles)
            .entry(key)
            .or_insert_with(|| (ArcRwSignal::new(Toggle::new(first())), ArcRwSignal::new(None)))
            .clone()
    }

    /// Whether the account follows `uuid`, as far as the store knows now,
    /// reading nothing: a follow toggle's server state, the server's
    /// `followed`, or what toggles taught on earlier visits.
    pub(crate) fn follows_known(&self, uuid: &str) -> bool {
        let toggle = lock(&self.inner.toggles).get(&ToggleKey::Follow(uuid.to_owned())).map(|(t, _)| t.clone());
        if let Some(toggle) = toggle {
            return toggle.with_untracked(|t| t.server());
        }
        let in_list = lock(&self.inner.lists)
            .get(&ListKey::Following(self.me().unwrap_or_default()))
            .is_some_and(|l| l.with_untracked(|l| l.items.iter().any(|u| u == uuid)));
        in_list
            || self
                .followed_said(uuid)
                .or_else(|| self.me().and_then(|me| recall(&me).follows.get(uuid).copied()))
                .unwrap_or(false)
    }

    /// Why the last request of this like or follow failed, if it did.
    pub fn toggle_error(&self, key: &ToggleKey) -> ArcReadSignal<Option<crate::i18n::Text>> {
        self.toggle_error_mut(key).read_only()
    }

    pub(super) fn toggle_error_mut(&self, key: &ToggleKey) -> ArcRwSignal<Option<crate::i18n::Text>> {
        // The toggle itself is made first by `like`/`follow`; a false first
        // state here is never shown.
        self.toggle_entry(key.clone(), || false).1
    }

    /// Whether the account likes `uuid`, as the Like button shows it.
    pub fn like(&self, uuid: &str) -> ArcReadSignal<Toggle> {
        self.like_toggle(uuid).read_only()
    }

    /// Whether the account follows `uuid`, as Follow buttons and follower
    /// counts show it. Without the server's `followed` or an earlier
    /// answer, the first state comes from the account's following list, read
    /// once for every button on the page.
    pub fn follow(&self, uuid: &str) -> ArcReadSignal<Toggle> {
        let toggle = self.follow_toggle(uuid).read_only();
        self.learn_follow_from_my_following(uuid);
        toggle
    }

    pub(super) fn like_toggle(&self, uuid: &str) -> ArcRwSignal<Toggle> {
        let said = self.liked_said(uuid);
        let toggle = self.toggle(ToggleKey::Like(uuid.to_owned()), || {
            said.or_else(|| self.me().and_then(|me| recall(&me).likes.get(uuid).copied())).unwrap_or(false)
        });
        if let Some(liked) = said {
            toggle.update(|t| t.learn(liked));
        }
        toggle
    }

    pub(super) fn follow_toggle(&self, uuid: &str) -> ArcRwSignal<Toggle> {
        let said = self.followed_said(uuid);
        let toggle = self.toggle(ToggleKey::Follow(uuid.to_owned()), || {
            said.or_else(|| {
                let me = self.me()?;
                recall(&me).follows.get(uuid).copied().or_else(|| {
                    self.list_mut(&ListKey::Following(me))
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
    /// list, or that list is read or being read: otherwise a Follow button
    /// needs [`load_following`] of the account. A list the local copy
    /// gave is drawn from, and read once, behind it (a follow made
    /// elsewhere while Perch was closed).
    fn needs_my_following(&self, uuid: &str) -> bool {
        let Some(me) = self.me() else { return false };
        let from_copy = self.inner.following_from_copy.load(std::sync::atomic::Ordering::Relaxed);
        // Cheapest first: once the list is read or being read, no button asks.
        self.list_mut(&ListKey::Following(me.clone()))
            .with_untracked(|l| !l.loading && (l.pages_loaded == 0 || from_copy))
            && self.followed_said(uuid).is_none()
            && !recall(&me).follows.contains_key(uuid)
    }

    /// The account's following list arrived: every follow state learns from
    /// it (unless a request is out).
    pub(super) fn my_following_learned(&self, me: &str, followed: &[String]) {
        let toggles: Vec<(String, ArcRwSignal<Toggle>)> = lock(&self.inner.toggles)
            .iter()
            .filter_map(|(key, (t, _))| match key {
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

    /// The server answered a write of `key`, leaving it `now`: a read asked
    /// before this moment and answered after it says what was before.
    pub(super) fn written(&self, key: ToggleKey, now: bool) {
        lock(&self.inner.toggles_written).insert(key, (crate::api::requests_started(), now));
    }

    /// What the account's last write of `key` left, when the answer being
    /// read now (`api::answer_asked`) was asked before that write was
    /// answered and says otherwise (`said`): a read started before a like
    /// and answered after it must not set the button back. A read asked
    /// later is the server's word, whatever it says (another device).
    fn written_since(&self, key: &ToggleKey, said: bool) -> Option<bool> {
        let (answered, now) = *lock(&self.inner.toggles_written).get(key)?;
        (crate::api::answer_asked() <= answered && now != said).then_some(now)
    }

    /// A read said `key` is `said` (a post's `liked`, a user's `followed`):
    /// the toggle follows it ([`Store::toggle_said`]), or, when the read is
    /// older than the account's last write of it, that write's state is
    /// answered, for the read post or user to be kept with.
    pub(super) fn read_said(&self, key: ToggleKey, said: bool) -> Option<bool> {
        let newer = self.written_since(&key, said);
        if newer.is_none() {
            self.toggle_said(key, said);
        }
        newer
    }

    /// The server answered a like toggle: it left the post liked (`now`) or
    /// not, where it was `was` before.
    pub(super) fn like_answered(&self, uuid: &str, was: bool, now: bool) {
        self.written(ToggleKey::Like(uuid.to_owned()), now);
        if now != was {
            if let Some(post) = self.post_mut(uuid) {
                post.update(|p| {
                    p.like_count = moved(p.like_count, now);
                    p.liked = Some(now);
                });
            }
        }
        if let Some(me) = self.me() {
            remember(&me, [(ToggleKey::Like(uuid.to_owned()), now)]);
        }
    }

    /// The account's follow of `uuid` changed on the server: the account's
    /// following list, what is kept across reloads and the home timeline
    /// follow.
    pub(super) fn follow_changed(&self, uuid: &str, now: bool) {
        if let Some(me) = self.me() {
            self.list_mut(&ListKey::Following(me.clone())).update(|l| {
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

    /// The server answered a follow toggle: the account now follows `uuid`
    /// (`now`) or not. The user's follower count, the account's following
    /// list and the home timeline follow.
    pub(super) fn follow_answered(&self, uuid: &str, was: bool, now: bool) {
        self.written(ToggleKey::Follow(uuid.to_owned()), now);
        if now == was {
            if let Some(me) = self.me() {
                remember(&me, [(ToggleKey::Follow(uuid.to_owned()), now)]);
            }
            return;
        }
        if let Some(user) = self.user_mut(uuid) {
            user.update(|u| {
                u.follow_count = moved(u.follow_count, now);
                u.followed = Some(now);
            });
        }
        self.follow_changed(uuid, now);
    }
}

/// A like or follower count, moved by the toggle becoming `now`.
pub(super) fn moved(count: u64, now: bool) -> u64 {
    if now {
        count + 1
    } else {
        count.saturating_sub(1)
    }
}

/// Which toggle a click drives.
#[derive(Clone, Copy)]
enum Kind {
    Like,
    Follow,
}

impl Store {
    /// A click on a Like button: the button flips at once, and requests run
    /// until the server agrees (`toggle.rs` folds clicks made meanwhile).
    pub fn click_like(&self, uuid: &str) {
        self.click(Kind::Like, uuid);
    }

    /// A click on a Follow button, as [`Store::click_like`].
    pub fn click_follow(&self, uuid: &str) {
        self.click(Kind::Follow, uuid);
    }

    fn click(&self, kind: Kind, uuid: &str) {
        let (toggle, key) = match kind {
            Kind::Like => (self.like_toggle(uuid), ToggleKey::Like(uuid.to_owned())),
            Kind::Follow => (self.follow_toggle(uuid), ToggleKey::Follow(uuid.to_owned())),
        };
        self.toggle_error_mut(&key).set(None);
        // Offline, or this toggle (or an earlier write) waits: the click
        // changes what the outbox will send, and sends nothing itself.
        let idle = !toggle.with_untracked(Toggle::busy);
        if idle && (self.must_wait() || self.toggle_waiting(&key)) {
            toggle.update(Toggle::hold);
            let (want, was) = toggle.with_untracked(|t| (t.shown(), t.server()));
            self.toggle_waits(key, want, was, None);
            return;
        }
        if toggle.try_update(Toggle::click) == Some(Next::Send) {
            let (store, uuid) = (self.clone(), uuid.to_owned());
            // Not tied to the page: it ends in the store, which outlives it.
            leptos::task::spawn_local(async move { store.drive(kind, &uuid, toggle, key).await });
        }
    }

    /// Sends toggle requests until the toggle settles; after a failure,
    /// reads the server's state back, since the server may have toggled
    /// though its answer was lost.
    async fn drive(&self, kind: Kind, uuid: &str, toggle: ArcRwSignal<Toggle>, key: ToggleKey) {
        loop {
            let was = toggle.with_untracked(Toggle::server);
            let sent = match kind {
                Kind::Like => self.api_as_me().like(uuid).await.map(|r| r.action == LikeAction::Liked),
                Kind::Follow => self.api_as_me().follow(uuid).await.map(|r| r.action == FollowAction::Followed),
            };
            match sent {
                Ok(now) => {
                    match kind {
                        Kind::Like => self.like_answered(uuid, was, now),
                        Kind::Follow => self.follow_answered(uuid, was, now),
                    }
                    if toggle.try_update(|t| t.answered(now)) != Some(Next::Send) {
                        break;
                    }
                }
                // No answer, or the server failed: it waits in the outbox,
                // shown as the person wants it, marked once it is kept there.
                Err(e @ (ApiError::Network(_) | ApiError::Server { .. })) => {
                    let (want, was) = toggle.with_untracked(|t| (t.shown(), t.server()));
                    let tried = matches!(e, ApiError::Network(_)).then(super::outbox::now_ms);
                    self.toggle_waits(key, want, was, tried);
                    break;
                }
                Err(e) => {
                    let wanted = toggle.with_untracked(Toggle::shown);
                    toggle.update(Toggle::failed);
                    let error = self.toggle_error_mut(&key);
                    error.set(Some(e.explain()));
                    match kind {
                        Kind::Like => self.read_like_back(uuid).await,
                        Kind::Follow => self.read_follow_back(uuid).await,
                    }
                    // The server did what was asked; only its answer was lost.
                    if toggle.with_untracked(Toggle::shown) == wanted {
                        error.set(None);
                    }
                    break;
                }
            }
        }
    }

    /// For a Follow button whose state only the account's following list can
    /// tell: reads that list, once for every button on the page. The list
    /// is marked loading before the request starts, so the next button
    /// made in the same render does not ask again.
    fn learn_follow_from_my_following(&self, uuid: &str) {
        let Some(me) = self.me() else { return };
        if !self.needs_my_following(uuid) {
            return;
        }
        self.list_mut(&ListKey::Following(me.clone())).update(|l| l.loading = true);
        let store = self.clone();
        leptos::task::spawn_local(async move {
            store.list_mut(&ListKey::Following(me.clone())).update(|l| l.loading = false);
            let _ = store.read_following(&me).await;
        });
    }

    /// A like request failed, but the server may have toggled anyway: reads
    /// the post back, so the button and count show the truth rather than a
    /// guess. A server that does not say `liked` leaves the button where
    /// the failure put it.
    async fn read_like_back(&self, uuid: &str) {
        if let Ok(post) = self.api.get_post(uuid).await {
            let liked = post.liked;
            self.put_post(post);
            if let Some(liked) = liked {
                self.like_toggle(uuid).update(|t| t.learn(liked));
                if let Some(me) = self.me() {
                    remember(&me, [(ToggleKey::Like(uuid.to_owned()), liked)]);
                }
            }
        }
    }

    /// A follow request failed: reads the user back (its `followed` and
    /// follower count), or, from a server that does not say `followed`, the
    /// account's following list, which every follow state learns from.
    async fn read_follow_back(&self, uuid: &str) {
        let followed = match self.api.user(uuid).await {
            Ok(user) => {
                let followed = user.followed;
                self.put_user(user);
                followed
            }
            Err(_) => None,
        };
        match followed {
            Some(followed) => {
                let toggle = self.follow_toggle(uuid);
                let was = toggle.with_untracked(Toggle::server);
                toggle.update(|t| t.learn(followed));
                if was != followed {
                    self.follow_changed(uuid, followed);
                }
            }
            None => {
                if let Some(me) = self.me() {
                    let _ = self.read_following(&me).await;
                }
            }
        }
    }
}
