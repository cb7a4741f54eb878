//! Changing the outbox: every change under the lock shared by tabs, on
//! what IndexedDB holds at that moment, kept before it is shown; putting an
//! action in; a like or follow clicked while it waits (folding to nothing
//! when it comes back to what the server has); discarding (with what
//! waited on it), Undo send, Retry, and changing a waiting text.

use super::kept::{load, save};
use super::{new_key, Action, Waiting, CHANGE_LOCK, WAITING_KEPT};
use crate::api::ApiError;
use crate::browser::indexed_db::{idb, Db};
use crate::browser::web_storage::DraftContext;
use crate::store::toggle::Toggle;
use crate::store::{Store, ToggleKey};
use leptos::prelude::*;

/// A change to the outbox, applied to what every tab left in it.
type Change<'a> = Box<dyn FnOnce(&mut Vec<Waiting>) + 'a>;

impl Store {
    /// Changes the outbox as `change` says, on what every tab left in it,
    /// and keeps the result; answers what `change` answered (`None`
    /// signed out).
    pub(in crate::store) async fn change_outbox<R>(&self, change: impl FnOnce(&mut Vec<Waiting>) -> R) -> Option<R> {
        // Written out rather than through `change_outbox_of`: one state
        // machine per answer type, not two.
        let me = self.me()?;
        let mut answer = None;
        let kept = self.change_outbox_with(&me, Box::new(|list| answer = Some(change(list)))).await;
        answer.filter(|_| kept)
    }

    /// [`Store::change_outbox`] of the account `me`, whether or not it is
    /// still current (a send that ended after another account became
    /// current is recorded in its own account's outbox).
    /// `None` also when the change could not be kept: nothing changed.
    pub(super) async fn change_outbox_of<R>(&self, me: &str, change: impl FnOnce(&mut Vec<Waiting>) -> R) -> Option<R> {
        let mut answer = None;
        let kept = self.change_outbox_with(me, Box::new(|list| answer = Some(change(list)))).await;
        answer.filter(|_| kept)
    }

    /// [`Store::change_outbox`]'s work, one copy of it for every caller.
    fn change_outbox_with<'a>(
        &'a self,
        me: &'a str,
        change: Change<'a>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = bool> + 'a>> {
        Box::pin(async move {
            let current = self.me().as_deref() == Some(me);
            let kept = crate::browser::tab_lock::exclusive(CHANGE_LOCK, async {
                let on_disk = idb(Db::Outbox).is_some();
                let mut waiting = match on_disk {
                    true => load(me).await.unwrap_or_else(|| self.outbox.get_untracked()),
                    false if current => self.outbox.get_untracked(),
                    false => return false,
                };
                let before = waiting.clone();
                change(&mut waiting);
                // Looking (the next action to send) writes nothing and
                // wakes no other tab. What is shown as waiting is on disk
                // first (a browser without IndexedDB keeps it for the visit).
                if waiting != before && !save(me, &waiting, before.len()).await && on_disk {
                    return false;
                }
                if current && self.outbox.with_untracked(|now| *now != waiting) {
                    self.outbox_now(waiting, false);
                }
                true
            })
            .await;
            kept
        })
    }

    /// Puts `action` in the outbox and sends what can be sent. Answers
    /// false when it could not be kept (the outbox is full).
    pub(in crate::store) async fn wait_with(&self, mut waiting: Waiting) -> bool {
        if waiting.key.is_empty() {
            waiting.key = new_key();
        }
        let kept = self
            .change_outbox(move |list| {
                if list.len() >= WAITING_KEPT {
                    return false;
                }
                list.push(waiting);
                true
            })
            .await
            .unwrap_or(false);
        if kept {
            self.send_waiting(false);
        }
        kept
    }

    /// A like or follow clicked while it waits (or while writes wait): the
    /// outbox holds what the person wants now, or nothing when that is
    /// what the server has.
    pub(in crate::store) fn toggle_waits(&self, key: ToggleKey, want: bool, was: bool, tried: Option<i64>) {
        let who = match &key {
            ToggleKey::Follow(uuid) => self.user(uuid).map(|u| u.with_untracked(|u| u.username.clone())),
            ToggleKey::Like(_) => None,
        }
        .unwrap_or_default();
        let (store, toggle) = (self.clone(), self.toggle_with(key.clone(), Toggle::new(was)));
        let error = self.toggle_error_mut(&key);
        leptos::task::spawn_local(async move {
            let kept = store
                .change_outbox(move |list| {
                    let same = |w: &Waiting| w.toggle().is_some_and(|(k, ..)| k == key);
                    match list.iter_mut().find(|w| same(w)) {
                        Some(_) if want == was => list.retain(|w| !same(w)),
                        Some(w) => {
                            w.action = action_for(&key, want, was, &who);
                            w.refused = None;
                        }
                        None if want != was => {
                            let mut w = Waiting::new(action_for(&key, want, was, &who));
                            w.tried = tried;
                            list.push(w)
                        }
                        None => {}
                    }
                })
                .await;
            // Shown as waiting only once it is kept on disk; the browser
            // refusing to keep it is a failure, shown as one.
            match kept {
                Some(()) => toggle.update(|t| {
                    if t.busy() {
                        t.park()
                    }
                }),
                None => {
                    toggle.update(Toggle::failed);
                    error.set(Some(ApiError::Network(String::new()).explain()));
                }
            }
            store.send_waiting(false);
        });
    }

    /// Discards the waiting action `key`: a waiting post goes with the
    /// replies that wait for it; a like or follow shows the server's state
    /// again, an edit the post as it was.
    pub fn discard_waiting(&self, key: &str) {
        let (store, key) = (self.clone(), key.to_owned());
        leptos::task::spawn_local(async move {
            let gone = store
                .change_outbox(|list| {
                    let mut gone: Vec<Waiting> = list.iter().filter(|w| w.key == key).cloned().collect();
                    // Replies to a discarded post, and theirs.
                    loop {
                        let ids: Vec<String> = gone.iter().filter_map(|w| w.post_id().map(str::to_owned)).collect();
                        let more: Vec<Waiting> = list
                            .iter()
                            .filter(|w| w.waits_for().is_some_and(|p| ids.iter().any(|i| i == p)))
                            .filter(|w| !gone.iter().any(|g| g.key == w.key))
                            .cloned()
                            .collect();
                        if more.is_empty() {
                            break;
                        }
                        gone.extend(more);
                    }
                    list.retain(|w| !gone.iter().any(|g| g.key == w.key));
                    gone
                })
                .await
                .unwrap_or_default();
            for w in gone {
                match w.action {
                    Action::Like { uuid, was, .. } => {
                        store.toggle_with(ToggleKey::Like(uuid), Toggle::new(was)).set(Toggle::new(was))
                    }
                    Action::Follow { uuid, was, .. } => {
                        store.toggle_with(ToggleKey::Follow(uuid), Toggle::new(was)).set(Toggle::new(was))
                    }
                    _ => {}
                }
            }
        });
    }

    /// Undo send: the held post leaves the outbox (with the replies that
    /// wait for it), and its text goes back into its box (a thread's:
    /// `Store::undo_thread`).
    pub fn undo_waiting(&self, key: &str) {
        let found = self.outbox.with_untracked(|l| l.iter().find(|w| w.key == key).map(|w| w.action.clone()));
        if let Some(Action::Post { content, parent, .. }) = found {
            let context = parent.map_or(DraftContext::New, DraftContext::Reply);
            let now = self.writing(context.clone()).text.get_untracked();
            let text = if now.trim().is_empty() { content } else { format!("{content}\n\n{now}") };
            self.typed(context, text, None);
        }
        self.discard_waiting(key);
    }

    /// Tries a refused or stopped action again now.
    pub fn retry_waiting(&self, key: &str) {
        let (store, key) = (self.clone(), key.to_owned());
        leptos::task::spawn_local(async move {
            store
                .change_outbox(|list| {
                    if let Some(w) = list.iter_mut().find(|w| w.key == key) {
                        w.refused = None;
                        w.tries = 0;
                        w.after = 0;
                    }
                })
                .await;
            store.send_waiting(true);
        });
    }

    /// Changes the text of a waiting post, or of a waiting edit: what will
    /// be sent, not a second request.
    pub fn change_waiting(&self, key: &str, text: String, locked: bool) {
        let (store, key) = (self.clone(), key.to_owned());
        leptos::task::spawn_local(async move {
            store
                .change_outbox(|list| {
                    if let Some(w) = list.iter_mut().find(|w| w.key == key) {
                        rewrite(w, text, locked, new_key);
                    }
                })
                .await;
            store.send_waiting(false);
        });
    }
}

/// A waiting post's or edit's new text and Locked switch. What is sent
/// changed: it is another request, with another Idempotency-Key
/// (`fresh_key`), or the server would refuse it as the first key's reuse
/// (422) for as long as it keeps the key. The same text keeps its key.
pub(super) fn rewrite(w: &mut Waiting, text: String, locked: bool, fresh_key: impl FnOnce() -> String) {
    let (Action::Post { content, locked: l, .. } | Action::Edit { content, locked: l, .. }) = &mut w.action else {
        return;
    };
    if *content != text || *l != locked {
        *content = text;
        *l = locked;
        w.key = fresh_key();
        w.tried = None;
    }
    w.refused = None;
    w.tries = 0;
    w.after = 0;
}

fn action_for(key: &ToggleKey, want: bool, was: bool, who: &str) -> Action {
    match key {
        ToggleKey::Like(uuid) => Action::Like { uuid: uuid.clone(), want, was },
        ToggleKey::Follow(uuid) => Action::Follow { uuid: uuid.clone(), want, was, who: who.to_owned() },
    }
}
