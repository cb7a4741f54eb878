//! What the account writes: a new post, a reply, an edit, a deletion. One
//! [`Writing`] per draft (`drafts.rs`) holds its text, its Locked switch,
//! whether a send is under way and why the last one failed. The store
//! keeps it for the visit, not the component that shows it, because a send
//! outlives its page: the person may move on while it is under way, and
//! the answer must still clear the draft exactly once. A composer opened
//! again on the same draft shows the same state ("Sending…", then the text
//! left after the send), so what was sent is never offered again.
//!
//! The requests run in tasks of their own that touch only the store. A
//! page that wants to react to the end (to move focus) passes a callback
//! made by `nav::WhileShown::then`: if the page has gone, the work still ends, and
//! nothing of the page is touched.

use super::lock;
use super::outbox;
use super::Store;
use crate::account::drafts::{Draft, LocalStorage};
use crate::api::ApiError;
use crate::browser::web_storage::DraftContext;
use crate::nav::Then;
use leptos::prelude::*;
use perch_model::{validate_content, NewPost, Post, PostUpdate};
use std::future::Future;

/// One draft's state, shared by every view of it during the visit.
#[derive(Clone)]
pub struct Writing {
    /// What is in the box (kept in the draft as it is typed).
    pub text: ArcRwSignal<String>,
    pub locked: ArcRwSignal<bool>,
    /// A send (or save) is under way.
    pub busy: ArcRwSignal<bool>,
    /// Why the last send failed; the text is kept.
    pub error: ArcRwSignal<Option<ApiError>>,
    /// An edit is open on its card (edits only).
    pub open: ArcRwSignal<bool>,
    /// The parts after the first of a thread (`thread.rs`); none for a
    /// post alone.
    pub parts: ArcRwSignal<Vec<String>>,
    /// Where it is written.
    context: DraftContext,
}

impl Store {
    fn draft(&self, context: DraftContext) -> Draft<LocalStorage> {
        Draft::new(LocalStorage, &self.me().unwrap_or_default(), context)
    }

    /// The state of the account's draft in `context`, restored from what was
    /// kept (an edit left open, a reload ago, opens again).
    pub fn writing(&self, context: DraftContext) -> Writing {
        let draft = self.draft(context.clone());
        lock(&self.inner.writings)
            .entry(draft.key_name())
            .or_insert_with(|| {
                let kept = draft.restore();
                let open = matches!(context, DraftContext::Edit(_)) && !kept.is_empty();
                Writing {
                    text: ArcRwSignal::new(kept),
                    locked: ArcRwSignal::new(false),
                    busy: ArcRwSignal::new(false),
                    error: ArcRwSignal::new(None),
                    open: ArcRwSignal::new(open),
                    parts: ArcRwSignal::new(self.kept_parts(context.clone())),
                    context: context.clone(),
                }
            })
            .clone()
    }

    /// Every unsent draft of the account, newest first: where it is
    /// written, its text, and when it was last typed in (ms since 1970;
    /// `None` for one kept by an earlier version).
    pub fn drafts(&self) -> Vec<(DraftContext, String, Option<u64>)> {
        let Some(me) = self.me() else { return Vec::new() };
        let mut all: Vec<_> = crate::browser::web_storage::draft_contexts(&me)
            .into_iter()
            .filter_map(|context| {
                let (text, at) = self.draft(context.clone()).left()?;
                Some((context, text, at))
            })
            .collect();
        crate::order::sort_by_key(&mut all, |(_, _, at)| std::cmp::Reverse(*at));
        all
    }

    /// The person goes to continue the draft of `context`: an edit opens
    /// on its card.
    pub fn continuing_draft(&self, context: &DraftContext) {
        if let DraftContext::Edit(_) = context {
            self.writing(context.clone()).open.set(true);
        }
    }

    /// Throws the draft of `context` away (the drafts page): its box
    /// empties wherever it shows, and an open edit closes.
    /// A thread's other parts go with it.
    pub fn discard_draft(&self, context: DraftContext) {
        if let DraftContext::Edit(uuid) = &context {
            self.cancel_edit(uuid);
        }
        self.parts_changed(context.clone(), Vec::new());
        self.typed(context, String::new(), None);
    }

    /// Puts `text` back as the draft of `context` (Undo), with a thread's
    /// other `parts`, an edit open again on its card.
    pub fn restore_draft(&self, context: DraftContext, text: String, parts: Vec<String>) {
        let edit = matches!(context, DraftContext::Edit(_));
        self.parts_changed(context.clone(), parts);
        self.typed(context.clone(), text, None);
        if edit {
            self.writing(context).open.set(true);
        }
    }

    /// The parts after the first of the thread in `context` are `parts`
    /// now (typed in, added, removed), kept beside the draft, or forgotten
    /// when there are none (`thread.rs`).
    pub fn parts_changed(&self, context: DraftContext, parts: Vec<String>) {
        let key = self.parts_key(context.clone());
        if parts.is_empty() {
            crate::browser::web_storage::remove(&key);
        } else {
            crate::browser::web_storage::set_json(&key, &parts);
        }
        self.writing(context).parts.set(parts);
    }

    /// The person typed in the box of `context`; `unchanged` is text that is
    /// no draft (an edit's original content).
    pub fn typed(&self, context: DraftContext, text: String, unchanged: Option<&str>) {
        let draft = self.draft(context.clone());
        if unchanged == Some(text.as_str()) {
            draft.discard();
        } else {
            draft.typed(&text);
        }
        self.writing(context).text.set(text);
    }

    /// For the whole visit, another tab's change to a draft shows in every
    /// state of it this tab holds, shown now or not: a draft typed or
    /// discarded elsewhere is what this tab's boxes show when they next
    /// appear, so neither tab's text silently replaces the other's, and
    /// typing here never brings back a draft discarded there. A removed
    /// draft empties its box, but an edit's, which keeps the post's text.
    /// A thread's other parts likewise (`thread.rs`). Called once, by
    /// [`Store::new`].
    pub(super) fn follow_drafts_elsewhere(&self) {
        let store = self.clone();
        // The event's own value is not used: it can be older than what this
        // tab wrote since; the draft is read as it is kept now.
        crate::browser::web_storage::on_change_elsewhere(move |name, _| {
            if !name.starts_with("perch.") {
                return;
            }
            // Not under the lock: a signal set here may run code that asks
            // the store for a draft's state.
            let held: Vec<(String, Writing)> =
                lock(&store.inner.writings).iter().map(|(key, w)| (key.clone(), w.clone())).collect();
            for (key, writing) in held {
                let context = writing.context.clone();
                if store.parts_key(context.clone()).name() == name {
                    writing.parts.set(store.kept_parts(context));
                    continue;
                }
                if key != name {
                    continue;
                }
                let here = writing.text.get_untracked();
                let keep = matches!(context, DraftContext::Edit(_));
                match store.draft(context).after_change_elsewhere(&here, keep) {
                    Some(now) if now != here => writing.text.set(now),
                    _ => {}
                }
            }
        });
    }

    /// Sends the text of a new post or reply. When the server confirms,
    /// only what was sent leaves the box and the draft; what was typed
    /// meanwhile stays. On failure everything stays, with the reason.
    pub fn send_post(&self, context: DraftContext) {
        let writing = self.writing(context.clone());
        let content = writing.text.get_untracked();
        if writing.busy.get_untracked() || validate_content(&content).is_err() {
            return;
        }
        let parent = match &context {
            DraftContext::Reply(parent) => Some(parent.clone()),
            DraftContext::New | DraftContext::Edit(_) => None,
        };
        let body = NewPost { content, locked: writing.locked.get_untracked(), parent };
        writing.busy.set(true);
        writing.error.set(None);
        let what = format!("send:{}", self.draft(context.clone()).key_name());
        let (key, tried_since) = self.key_for(&what, &serde_json::to_string(&body).unwrap_or_default());
        let (store, draft) = (self.clone(), self.draft(context));
        // A reply to a waiting post, or written offline or behind other
        // waiting actions: it waits in the outbox.
        // Held for Undo send (a setting) too.
        let hold = outbox::undo_send();
        if hold || body.parent.as_deref().is_some_and(|p| p.starts_with(outbox::LOCAL)) || self.must_wait() {
            lock(&self.inner.keys).remove(&what);
            self.run(async move { store.post_waits(body, key, tried_since, hold, draft, writing).await });
            return;
        }
        let api = self.api_as_me();
        self.run(async move {
            let made = match tried_since {
                // Boxed: one state machine of its own, not inlined here.
                Some(since) => {
                    let look: std::pin::Pin<Box<dyn Future<Output = Option<Post>> + '_>> =
                        Box::pin(store.already_made(&api, &body, since));
                    look.await
                }
                None => None,
            };
            let result = match made {
                Some(post) => Ok(post),
                None => api.send_post(&body, &key).await,
            };
            store.answered(&what, &result);
            if let Err(e @ (ApiError::Network(_) | ApiError::Server { .. })) = &result {
                // Not refused, not done (as far as anyone knows): it waits.
                let tried = matches!(e, ApiError::Network(_)).then(outbox::now_ms);
                lock(&store.inner.keys).remove(&what);
                store.post_waits(body, key, tried, false, draft, writing).await;
                return;
            }
            match result {
                Ok(post) => {
                    store.post_sent(post);
                    let left = draft.sent(&body.content, &writing.text.get_untracked());
                    if left.is_empty() {
                        writing.locked.set(false);
                    }
                    writing.text.set(left);
                }
                Err(e) => writing.error.set(Some(e)),
            }
            writing.busy.set(false);
        });
    }

    /// Whether the edit of the account's `post` is open on its card. A kept
    /// edit whose text is the post's content already is no draft (its save
    /// reached the server, and the page was closed before the answer): it
    /// is thrown away rather than opened again.
    pub fn edit_open(&self, post: &Post) -> ArcRwSignal<bool> {
        let context = DraftContext::Edit(post.uuid.clone());
        let writing = self.writing(context.clone());
        // Only an open edit has a kept draft to look at: most cards read
        // no storage here.
        if writing.open.get_untracked() && !writing.busy.get_untracked() {
            let draft = self.draft(context);
            if draft.restore() == post.content {
                draft.discard();
                writing.open.set(false);
            }
        }
        writing.open
    }

    /// Opens the edit of the account's post `uuid`, with the kept draft if
    /// there is one, else the post as it is.
    pub fn open_edit(&self, uuid: &str) {
        let context = DraftContext::Edit(uuid.to_owned());
        let kept = self.draft(context.clone()).restore();
        let Some(post) = self.post_untracked(uuid) else { return };
        let writing = self.writing(context);
        writing.text.set(if kept.is_empty() { post.content } else { kept });
        if !writing.busy.get_untracked() {
            writing.locked.set(post.locked);
        }
        writing.error.set(None);
        writing.open.set(true);
    }

    /// Closes an edit and throws its draft away (Cancel).
    pub fn cancel_edit(&self, uuid: &str) {
        let context = DraftContext::Edit(uuid.to_owned());
        self.draft(context.clone()).discard();
        self.writing(context).open.set(false);
    }

    /// Saves the edit of post `uuid`. Tells `then`, once the server has
    /// answered, whether the edit closed: it stays open when the text
    /// changed meanwhile or the save failed (with the reason, the text kept).
    pub fn save_edit(&self, uuid: &str, then: Then<bool>) {
        let context = DraftContext::Edit(uuid.to_owned());
        let writing = self.writing(context.clone());
        let content = writing.text.get_untracked();
        if !writing.busy.get_untracked() && validate_content(&content).is_ok() {
            let update = PostUpdate { content: Some(content), locked: Some(writing.locked.get_untracked()) };
            writing.busy.set(true);
            writing.error.set(None);
            let what = format!("edit:{uuid}");
            let (key, _) = self.key_for(&what, &serde_json::to_string(&update).unwrap_or_default());
            let (store, draft, uuid) = (self.clone(), self.draft(context), uuid.to_owned());
            let wait_now = self.must_wait();
            self.run(async move {
                let result = match wait_now {
                    true => Err(ApiError::Network(String::new())),
                    false => store.api_as_me().update_post(&uuid, &update, &key).await,
                };
                store.answered(&what, &result);
                if let Err(e @ (ApiError::Network(_) | ApiError::Server { .. })) = &result {
                    // It waits in the outbox; the card shows the new text, marked.
                    let tried = (!wait_now && matches!(e, ApiError::Network(_))).then(outbox::now_ms);
                    lock(&store.inner.keys).remove(&what);
                    if store.edit_waits(&uuid, &update, tried).await {
                        writing.busy.set(false);
                        then(true);
                        draft.discard();
                        writing.open.set(false);
                        store.send_waiting(false);
                        return;
                    }
                }
                match result {
                    Ok(post) => {
                        store.post_edited(post);
                        // Typed while saving: the box stays open with it.
                        let unchanged = update.content.as_deref() == Some(&writing.text.get_untracked());
                        writing.busy.set(false);
                        // Told while the form is still there: closing it
                        // takes the form (and its page's guard) away.
                        then(unchanged);
                        if unchanged {
                            draft.discard();
                            writing.open.set(false);
                        }
                    }
                    Err(e) => {
                        writing.error.set(Some(e));
                        writing.busy.set(false);
                        then(false);
                    }
                }
            });
        }
    }

    /// Deletes the account's post `uuid`; tells `then` once the server has
    /// (`Ok(true)`), or once the deletion waits in the outbox (`Ok(false)`:
    /// offline, or no answer; the card stays, marked, until it is sent).
    pub fn delete_post(&self, uuid: &str, then: Then<Result<bool, ApiError>>) {
        let what = format!("delete:{uuid}");
        let (key, tried) = self.key_for(&what, "");
        let (store, uuid) = (self.clone(), uuid.to_owned());
        let wait_now = self.must_wait();
        self.run(async move {
            let result = match wait_now {
                true => Err(ApiError::Network(String::new())),
                false => store.api_as_me().delete_post(&uuid, &key).await,
            };
            store.answered(&what, &result);
            match result {
                Ok(_) => {
                    // Told while the card is still there: the deletion
                    // takes it (and its guard) away.
                    then(Ok(true));
                    store.post_deleted(&uuid);
                }
                Err(e @ (ApiError::Network(_) | ApiError::Server { .. })) => {
                    lock(&store.inner.keys).remove(&what);
                    let mut waiting = outbox::Waiting::new(outbox::Action::Delete { uuid });
                    waiting.key = key;
                    let lost = !wait_now && matches!(e, ApiError::Network(_));
                    waiting.tried = if lost { Some(outbox::now_ms()) } else { tried };
                    if store.wait_with(waiting).await {
                        then(Ok(false));
                    } else {
                        then(Err(e));
                    }
                }
                Err(e) => then(Err(e)),
            }
        });
    }

    /// The post `body` waits in the outbox with its `key`: once it is kept
    /// there, what was sent leaves the box and the draft, as after a send.
    /// An outbox that is full keeps it in the box, with the reason.
    async fn post_waits(
        &self,
        body: NewPost,
        key: String,
        tried: Option<i64>,
        hold: bool,
        draft: Draft<LocalStorage>,
        writing: Writing,
    ) {
        let content = body.content.clone();
        let mut waiting = outbox::Waiting::new(outbox::Action::Post {
            id: format!("{}{key}", outbox::LOCAL),
            content: body.content,
            locked: body.locked,
            parent: body.parent,
            part: None,
        });
        waiting.key = key;
        waiting.tried = tried;
        if hold {
            waiting.after = outbox::now_ms() + outbox::UNDO_MS;
        }
        if self.wait_with(waiting).await {
            let left = draft.sent(&content, &writing.text.get_untracked());
            if left.is_empty() {
                writing.locked.set(false);
            }
            writing.text.set(left);
        } else {
            writing.error.set(Some(ApiError::Network(String::new())));
        }
        writing.busy.set(false);
    }

    /// The edit of post `uuid` waits in the outbox; an edit of it already
    /// waiting is changed instead, so one request goes.
    async fn edit_waits(&self, uuid: &str, update: &PostUpdate, tried: Option<i64>) -> bool {
        let (content, locked) = (update.content.clone().unwrap_or_default(), update.locked.unwrap_or(false));
        let (before, was_locked) = self.post_untracked(uuid).map(|p| (p.content, p.locked)).unwrap_or_default();
        let uuid = uuid.to_owned();
        self.change_outbox(move |list| {
            let same = |w: &outbox::Waiting| matches!(&w.action, outbox::Action::Edit { uuid: u, .. } if *u == uuid);
            let full = list.len() >= outbox::WAITING_KEPT;
            match list.iter_mut().find(|w| same(w)) {
                Some(w) => {
                    if let outbox::Action::Edit { content: c, locked: l, .. } = &mut w.action {
                        (*c, *l) = (content, locked);
                    }
                    // Another request: another key.
                    (w.key, w.tried, w.tries, w.after, w.refused) = (outbox::new_key(), None, 0, 0, None);
                    true
                }
                None if !full => {
                    let mut w =
                        outbox::Waiting::new(outbox::Action::Edit { uuid, content, locked, before, was_locked });
                    w.tried = tried;
                    list.push(w);
                    true
                }
                None => false,
            }
        })
        .await
        .unwrap_or(false)
    }

    /// The Idempotency-Key for the write `what` with `request`: the one its
    /// last try used when that try got no answer (the network failed: the
    /// server may have done it), so sending again is done once; else a new
    /// one. A changed request is another write, with another key.
    /// Also when a try of the same request got no answer before, and since
    /// when (browser time, milliseconds).
    fn key_for(&self, what: &str, request: &str) -> (String, Option<i64>) {
        let mut keys = lock(&self.inner.keys);
        if let Some((kept_request, key, since)) = keys.get(what) {
            if kept_request == request {
                return (key.clone(), Some(*since));
            }
        }
        let key = outbox::new_key();
        keys.insert(what.to_owned(), (request.to_owned(), key.clone(), js_sys::Date::now() as i64));
        (key, None)
    }

    /// The post `body` describes, when the account's first page shows it
    /// made since `since` (a minute's leeway for the clocks): a server that
    /// ignores Idempotency-Key may have made it on a try whose answer was
    /// lost, and sending again would make it twice.
    pub(super) async fn already_made(&self, api: &crate::api::Api, body: &NewPost, since: i64) -> Option<Post> {
        let me = self.me()?;
        let page = api.user_posts(&me, 1).await.ok()?;
        page.posts.into_iter().find(|p| {
            p.content == body.content
                && p.parent.uuid() == body.parent.as_deref()
                && p.created_at.is_some_and(|at| at.millis() >= since - 60_000)
        })
    }

    /// The write `what` was answered (done or refused): its key is not
    /// needed again. A failure with no answer keeps it.
    fn answered<T>(&self, what: &str, result: &Result<T, ApiError>) {
        if !matches!(result, Err(ApiError::Network(_))) {
            lock(&self.inner.keys).remove(what);
        }
    }

    /// Runs a write to its end, whatever page asked for it: the task is
    /// not the page's, and it touches only the store.
    fn run(&self, work: impl Future<Output = ()> + 'static) {
        leptos::task::spawn_local(work);
    }
}
