//! Sending the outbox: in order, by one tab at a time, each action as the
//! account that made it; what a try ended with (sent, refused, no answer);
//! backoff (2 s doubling, at most 2 min, [`TRIES`] tries), `Retry-After`,
//! and waiting for a new sign-in after a 401.

use super::{new_key, now_ms, Action, Refusal, Waiting, SEND_LOCK, TRIES};
use crate::api::{Api, ApiError};
use crate::store::toggle::Toggle;
use crate::store::ToggleKey;
use crate::store::{lock, Store};
use leptos::prelude::*;
use perch_model::{FollowAction, LikeAction, NewPost, Post, PostUpdate};

/// Loads the split module that sends (`components/sending.rs`; the
/// component room owns `lazy!`) and runs [`Store::send_now`] there, or
/// [`Store::sender_not_loaded`] when it cannot come. Sending is most of the
/// outbox's code, and a page needs it only once something waits to go: a
/// signed-out visitor and a reader who writes nothing never load it.
pub type Sender = fn(Store);

/// Whether the browser says it is offline.
pub(super) fn offline() -> bool {
    !window().navigator().on_line()
}

/// How long to wait after `tries` failed tries: 2 s, doubling, at most 2 min.
pub(super) fn backoff_ms(tries: u32) -> i64 {
    (2_000i64 << tries.saturating_sub(1).min(16)).min(120_000)
}

/// What a try of an action ended with.
enum Outcome {
    Posted(Post),
    Edited(Post),
    Deleted,
    /// The toggle's state on the server now.
    Toggled(bool),
    /// The server had the like or follow already (read back: a try whose
    /// answer was lost did it); the counts came with what was read.
    Found(bool),
}

impl Store {
    /// Sends the waiting actions in order, from this tab while it holds
    /// the lock (another tab sending meanwhile leaves nothing to send).
    /// `again`: the server or the network is back; actions waiting for
    /// their backoff are tried at once.
    pub fn send_waiting(&self, again: bool) {
        if self.outbox.with_untracked(|w| w.is_empty()) || offline() {
            return;
        }
        if again {
            lock(&self.inner.outbox_again).clone_from(&true);
        }
        let Some(sender) = self.inner.outbox_sender.get().copied() else { return };
        if self.inner.outbox_sending.swap(true, std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        sender(self.clone());
    }

    /// Sends the waiting actions in order under the lock shared by tabs:
    /// what the sending module runs once it is here ([`Sender`]).
    pub async fn send_now(&self) {
        self.inner.sender_failures.store(0, std::sync::atomic::Ordering::Relaxed);
        crate::browser::tab_lock::exclusive(SEND_LOCK, self.send_in_order()).await;
        self.inner.outbox_sending.store(false, std::sync::atomic::Ordering::Relaxed);
    }

    /// The sending module could not be loaded (the network went, or a new
    /// release removed its file): nothing was sent, nothing is lost. Tried
    /// again with the actions' backoff, and at once when the browser is
    /// back online or the server answers again (as every send).
    pub fn sender_not_loaded(&self) {
        self.inner.outbox_sending.store(false, std::sync::atomic::Ordering::Relaxed);
        let failures = self.inner.sender_failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        self.send_later(backoff_ms(failures));
    }

    async fn send_in_order(&self) {
        // Every action goes as the account whose outbox this is, with its
        // own token from the first request to the last: when another
        // account becomes current meanwhile (added, switched to), sending
        // stops and the actions wait for their account.
        let Some(me) = self.me() else { return };
        let api = self.api.as_account(&me);
        loop {
            if offline() || self.session.ended_untracked() || self.me().as_deref() != Some(me.as_str()) {
                return;
            }
            let again = std::mem::take(&mut *lock(&self.inner.outbox_again));
            let now = now_ms();
            // The first action that may go now, with every tab's latest.
            let next = self
                .change_outbox(|list| {
                    if again {
                        // Backoffs end; a post held for Undo stays held.
                        for w in list.iter_mut().filter(|w| w.refused.is_none() && w.tries > 0) {
                            w.after = 0;
                        }
                    }
                    list.iter().find(|w| w.refused.is_none() && w.waits_for().is_none()).cloned()
                })
                .await
                .flatten();
            let Some(next) = next else { return };
            if next.after > now {
                self.send_later(next.after - now);
                return;
            }
            let result = self.try_action(&api, &next).await;
            let stop = match &result {
                Ok(outcome) => {
                    self.done(&me, &next, outcome).await;
                    false
                }
                Err(error) => self.not_done(&me, &next, error).await,
            };
            if stop {
                return;
            }
        }
    }

    /// Sends again in `ms` (the next try's time).
    fn send_later(&self, ms: i64) {
        let store = self.clone();
        set_timeout(move || store.send_waiting(false), std::time::Duration::from_millis(ms.max(0) as u64 + 50));
    }

    /// One try of `w`.
    async fn try_action(&self, api: &Api, w: &Waiting) -> Result<Outcome, ApiError> {
        match &w.action {
            Action::Post { content, locked, parent, .. } => {
                let body = NewPost { content: content.clone(), locked: *locked, parent: parent.clone() };
                // A server that ignores the key may have made it on a try
                // whose answer was lost.
                if let Some(since) = w.tried {
                    let look: std::pin::Pin<Box<dyn std::future::Future<Output = Option<Post>> + '_>> =
                        Box::pin(self.already_made(api, &body, since));
                    if let Some(post) = look.await {
                        return Ok(Outcome::Posted(post));
                    }
                }
                api.send_post(&body, &w.key).await.map(Outcome::Posted)
            }
            Action::Edit { uuid, content, locked, .. } => {
                let update = PostUpdate { content: Some(content.clone()), locked: Some(*locked) };
                api.update_post(uuid, &update, &w.key).await.map(Outcome::Edited)
            }
            Action::Delete { uuid } => match api.delete_post(uuid, &w.key).await {
                // Gone already: what was asked is done.
                Ok(_) | Err(ApiError::NotFound(_)) => Ok(Outcome::Deleted),
                Err(e) => Err(e),
            },
            Action::Like { uuid, want, .. } => {
                // A try whose answer was lost may have toggled already.
                if w.tried.is_some() {
                    let post = api.get_post(uuid).await?;
                    self.put_post(post);
                }
                if self.liked_said(uuid) == Some(*want) {
                    return Ok(Outcome::Found(*want));
                }
                api.like(uuid).await.map(|r| Outcome::Toggled(r.action == LikeAction::Liked))
            }
            Action::Follow { uuid, want, .. } => {
                if w.tried.is_some() {
                    let user = api.user(uuid).await?;
                    self.put_user(user);
                }
                if self.followed_said(uuid) == Some(*want) {
                    return Ok(Outcome::Found(*want));
                }
                api.follow(uuid).await.map(|r| Outcome::Toggled(r.action == FollowAction::Followed))
            }
        }
    }

    /// `sent` was done: it leaves the outbox (or, changed meanwhile, what
    /// changed is sent next), and the store shows the server's answer.
    async fn done(&self, me: &str, sent: &Waiting, outcome: &Outcome) {
        let real = match outcome {
            Outcome::Posted(post) => Some(post.uuid.clone()),
            _ => None,
        };
        let toggled = match outcome {
            Outcome::Toggled(now) | Outcome::Found(now) => Some(*now),
            _ => None,
        };
        let sent_clone = sent.clone();
        let settled = self
            .change_outbox_of(me, move |list| {
                let sent = &sent_clone;
                if let (Some(real), Some(id)) = (&real, sent.post_id()) {
                    // Replies that waited for it go with its real uuid.
                    for w in list.iter_mut() {
                        if let Action::Post { parent: Some(p), .. } = &mut w.action {
                            if p == id {
                                *p = real.clone();
                            }
                        }
                    }
                }
                let at = list.iter().position(|w| w.key == sent.key)?;
                let now = list[at].clone();
                match (&now.action, &sent.action, toggled) {
                    _ if now.action == sent.action && toggled.is_none() => {
                        list.remove(at);
                    }
                    // Edited while it was sent: the change goes as an edit.
                    (
                        Action::Post { content, locked, .. },
                        Action::Post { content: was, locked: was_locked, .. },
                        _,
                    ) => {
                        if let Some(real) = &real {
                            list[at] = Waiting::new(Action::Edit {
                                uuid: real.clone(),
                                content: content.clone(),
                                locked: *locked,
                                before: was.clone(),
                                was_locked: *was_locked,
                            });
                        }
                    }
                    (Action::Like { want, .. } | Action::Follow { want, .. }, _, Some(now_on)) => {
                        if *want == now_on {
                            list.remove(at);
                        } else {
                            // Another device toggled it meanwhile: once more.
                            let w = &mut list[at];
                            w.tries += 1;
                            if w.tries > TRIES {
                                w.refused = Some(Refusal { status: 409, message: String::new() });
                            }
                            match &mut w.action {
                                Action::Like { was, .. } | Action::Follow { was, .. } => *was = now_on,
                                _ => {}
                            }
                        }
                    }
                    _ => {
                        // An edit changed again meanwhile: sent next, with a new key.
                        list[at].key = new_key();
                        list[at].tried = None;
                    }
                }
                Some(now)
            })
            .await
            .flatten();
        match outcome {
            Outcome::Posted(post) => self.post_sent(post.clone()),
            Outcome::Edited(post) => self.post_edited(post.clone()),
            Outcome::Deleted => {
                if let Action::Delete { uuid } = &sent.action {
                    self.post_deleted(uuid)
                }
            }
            Outcome::Toggled(now) | Outcome::Found(now) => {
                let want = match settled.as_ref().map(|w| &w.action) {
                    Some(Action::Like { want, .. } | Action::Follow { want, .. }) => *want,
                    _ => *now,
                };
                let found = matches!(outcome, Outcome::Found(_));
                match &sent.action {
                    Action::Like { uuid, .. } if found => {
                        self.like_answered(uuid, *now, *now);
                        self.toggle_with(ToggleKey::Like(uuid.clone()), Toggle::new(*now))
                            .update(|t| t.waits(*now, want));
                    }
                    Action::Follow { uuid, was, .. } if found => {
                        self.written(ToggleKey::Follow(uuid.clone()), *now);
                        if was != now {
                            self.follow_changed(uuid, *now);
                        }
                        self.toggle_with(ToggleKey::Follow(uuid.clone()), Toggle::new(*now))
                            .update(|t| t.waits(*now, want));
                    }
                    Action::Like { uuid, was, .. } => {
                        self.like_answered(uuid, *was, *now);
                        self.toggle_with(ToggleKey::Like(uuid.clone()), Toggle::new(*now))
                            .update(|t| t.waits(*now, want));
                    }
                    Action::Follow { uuid, was, .. } => {
                        self.follow_answered(uuid, *was, *now);
                        self.toggle_with(ToggleKey::Follow(uuid.clone()), Toggle::new(*now))
                            .update(|t| t.waits(*now, want));
                    }
                    _ => {}
                }
            }
        }
    }

    /// `w` was not done: a refusal is kept with its reason; a failure to
    /// reach the server, a 5xx or a 429 waits to be tried again. Answers
    /// whether sending stops here (later actions wait behind it).
    async fn not_done(&self, me: &str, w: &Waiting, error: &ApiError) -> bool {
        let now = now_ms();
        let (key, failure) = (w.key.clone(), error.clone());
        let stop = self
            .change_outbox_of(me, move |list| {
                let Some(w) = list.iter_mut().find(|w| w.key == key) else { return false };
                let error = &failure;
                match error {
                    // Signed out elsewhere: waits for the account to sign in again.
                    ApiError::Unauthorized(_) => true,
                    ApiError::RateLimited { retry_after, .. } => {
                        w.after = now + retry_after.unwrap_or(30).min(86_400) as i64 * 1000;
                        true
                    }
                    ApiError::Network(_) | ApiError::Server { .. } => {
                        if matches!(error, ApiError::Network(_)) && w.tried.is_none() {
                            w.tried = Some(now);
                        }
                        w.tries += 1;
                        if w.tries >= TRIES {
                            w.refused = Some(refusal_of(error));
                            false
                        } else {
                            w.after = now + backoff_ms(w.tries);
                            true
                        }
                    }
                    refused => {
                        w.refused = Some(refusal_of(refused));
                        false
                    }
                }
            })
            .await
            .unwrap_or(true);
        if let (Some((key, ..)), true) = (w.toggle(), !stop) {
            // A refused like or follow shows the server's state, and why.
            let toggle = self.toggle_with(key.clone(), Toggle::new(false));
            toggle.update(Toggle::failed);
            self.toggle_error_mut(&key).set(Some(error.explain()));
        }
        if stop && !matches!(error, ApiError::Unauthorized(_)) {
            let after = self.outbox.with_untracked(|l| l.iter().find(|x| x.key == w.key).map(|x| x.after));
            if let Some(after) = after {
                self.send_later(after - now);
            }
        }
        stop
    }
}

fn refusal_of(error: &ApiError) -> Refusal {
    let (status, message) = match error {
        ApiError::Network(m) => (0, m.clone()),
        ApiError::Unauthorized(m) => (401, m.clone()),
        ApiError::Forbidden { message, .. } => (403, message.clone()),
        ApiError::NotFound(m) => (404, m.clone()),
        ApiError::Unprocessable(m) => (422, m.clone()),
        ApiError::RateLimited { message, .. } => (429, message.clone()),
        ApiError::Server { status, message } | ApiError::Other { status, message } => (*status, message.clone()),
        ApiError::Invalid(m) => (502, m.clone()),
    };
    Refusal { status, message }
}
