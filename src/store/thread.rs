//! A thread of several posts, written in one composer and sent as one. The
//! first part is the draft's text (`writing.rs`); the parts after it are
//! `Writing::parts`, kept beside the draft (`Key::ThreadParts`) so a reload
//! keeps them, and followed in other tabs with the draft. A text pasted
//! over the limit can be split into parts at sentence ends
//! (`text::thread::split`).
//!
//! Sending puts every part in the outbox at once, in order, each a reply
//! to the part before with its own Idempotency-Key (`outbox::Part` says
//! where each belongs), and the outbox sends them: a part waits until the
//! one before it is sent, so a part refused or not answered stops the
//! rest, which wait with it, shown as one thread with Retry and Discard.
//! Undo send holds every part and takes them all back into the composer.

use super::outbox::{self, Action, Part, Waiting, LOCAL};
use super::Store;
use crate::account::drafts::{Draft, LocalStorage};
use crate::api::ApiError;
use crate::browser::web_storage::{self, DraftContext, Key};
use leptos::prelude::*;
use perch_model::{validate_content, MAX_CONTENT_CHARS};

impl Store {
    pub(super) fn parts_key(&self, context: DraftContext) -> Key {
        Key::ThreadParts { account: self.me().unwrap_or_default(), context }
    }

    /// The parts after the first kept for `context` (none when there are
    /// none, or what was kept does not read).
    pub(super) fn kept_parts(&self, context: DraftContext) -> Vec<String> {
        web_storage::get_json(&self.parts_key(context)).unwrap_or_default()
    }

    /// Cuts the first part's text, too long for one post, into parts at
    /// sentence ends; the parts after it stay after them.
    pub fn split_into_thread(&self, context: DraftContext) {
        let writing = self.writing(context.clone());
        let mut cut = crate::text::thread::split(&writing.text.get_untracked(), MAX_CONTENT_CHARS);
        if cut.len() < 2 {
            return;
        }
        let first = cut.remove(0);
        cut.extend(writing.parts.get_untracked());
        self.typed(context.clone(), first, None);
        self.parts_changed(context, cut);
    }

    /// Sends the thread written in `context`: every part into the outbox,
    /// in order (module docs); the composer empties once they are kept.
    pub fn send_thread(&self, context: DraftContext) {
        let writing = self.writing(context.clone());
        let mut texts = vec![writing.text.get_untracked()];
        texts.extend(writing.parts.get_untracked());
        if writing.busy.get_untracked() || texts.iter().any(|t| validate_content(t).is_err()) {
            return;
        }
        let under = match &context {
            DraftContext::Reply(parent) => Some(parent.clone()),
            DraftContext::New | DraftContext::Edit(_) => None,
        };
        let (now, hold) = (outbox::now_ms(), outbox::undo_send());
        let parts = thread_of(&texts, writing.locked.get_untracked(), under, now, hold, outbox::new_key);
        writing.busy.set(true);
        writing.error.set(None);
        let store = self.clone();
        let draft = Draft::new(LocalStorage, &self.me().unwrap_or_default(), context.clone());
        leptos::task::spawn_local(async move {
            let count = parts.len();
            let kept = store
                .change_outbox(move |list| {
                    let room = list.len() + count <= outbox::WAITING_KEPT;
                    if room {
                        list.extend(parts);
                    }
                    room
                })
                .await
                .unwrap_or(false);
            if kept {
                draft.discard();
                writing.text.set(String::new());
                writing.locked.set(false);
                store.parts_changed(context, Vec::new());
                store.send_waiting(false);
            } else {
                writing.error.set(Some(ApiError::Network(String::new())));
            }
            writing.busy.set(false);
        });
    }

    /// A new, empty part at the end of the thread in `context`.
    pub fn add_part(&self, context: DraftContext) {
        let mut parts = self.writing(context.clone()).parts.get_untracked();
        parts.push(String::new());
        self.parts_changed(context, parts);
    }

    /// Undo send of the held thread whose first waiting part is `key`:
    /// every part leaves the outbox and goes back into its composer, each
    /// in its box, before what is written there now.
    pub fn undo_thread(&self, key: &str) {
        let found = self.outbox.with_untracked(|l| l.iter().find(|w| w.key == key).cloned());
        if let Some((context, texts)) = found.and_then(|w| self.thread_taken_back(&w)) {
            self.thread_back(context, texts);
        }
        self.discard_waiting(key);
    }

    /// A thread's parts' texts, in order, if `w` is a part of one, and
    /// where it was written.
    fn thread_taken_back(&self, w: &Waiting) -> Option<(DraftContext, Vec<String>)> {
        let part = w.part()?;
        let mut parts: Vec<(u32, String)> = self.outbox.with_untracked(|list| {
            list.iter()
                .filter_map(|o| match &o.action {
                    Action::Post { content, part: Some(p), .. } if p.first == part.first => {
                        Some((p.index, content.clone()))
                    }
                    _ => None,
                })
                .collect()
        });
        crate::order::sort_by_key(&mut parts, |(index, _)| *index);
        let context = part.under.clone().map_or(DraftContext::New, DraftContext::Reply);
        Some((context, parts.into_iter().map(|(_, text)| text).collect()))
    }

    /// Puts a thread taken back by Undo into its composer: the first part
    /// before what is in the box now, the others before its other parts.
    fn thread_back(&self, context: DraftContext, mut texts: Vec<String>) {
        if texts.is_empty() {
            return;
        }
        let writing = self.writing(context.clone());
        let first = texts.remove(0);
        let now = writing.text.get_untracked();
        let text = if now.trim().is_empty() { first } else { format!("{first}\n\n{now}") };
        texts.extend(writing.parts.get_untracked());
        self.typed(context.clone(), text, None);
        self.parts_changed(context, texts);
    }
}

/// The outbox's actions for a thread of `texts`: each a reply to the one
/// before (the first to `under`), each with its own key, made at `made`
/// (browser ms) and all held for Undo when `hold`; `new_key` makes the keys.
pub fn thread_of(
    texts: &[String],
    locked: bool,
    under: Option<String>,
    made: i64,
    hold: bool,
    new_key: impl FnMut() -> String,
) -> Vec<Waiting> {
    let keys: Vec<String> = std::iter::repeat_with(new_key).take(texts.len()).collect();
    let first = format!("{LOCAL}{}", keys[0]);
    let mut parent = under.clone();
    let mut out = Vec::with_capacity(texts.len());
    for (i, (text, key)) in texts.iter().zip(keys).enumerate() {
        let id = format!("{LOCAL}{key}");
        let part = Part { first: first.clone(), index: i as u32 + 1, of: texts.len() as u32, under: under.clone() };
        let action = Action::Post {
            id: id.clone(),
            content: text.clone(),
            locked,
            parent: parent.replace(id),
            part: Some(part),
        };
        let after = if hold { made + outbox::UNDO_MS } else { 0 };
        out.push(Waiting { key, action, made, tried: None, tries: 0, after, refused: None });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_replies_to_the_one_before_with_its_own_key_and_is_kept_as_it_was() {
        let texts: Vec<String> = ["one", "two", "three"].map(String::from).to_vec();
        let mut n = 0;
        let parts = thread_of(&texts, true, Some("p".into()), 1_000, true, || {
            n += 1;
            format!("k{n}")
        });
        let parents: Vec<Option<String>> = parts
            .iter()
            .map(|w| match &w.action {
                Action::Post { parent, .. } => parent.clone(),
                _ => None,
            })
            .collect();
        let local = |k: &str| Some(format!("{LOCAL}{k}"));
        assert_eq!(parents, vec![Some("p".into()), local("k1"), local("k2")]);
        assert_eq!(parts.iter().map(|w| w.key.as_str()).collect::<Vec<_>>(), ["k1", "k2", "k3"]);
        assert!(parts.iter().all(|w| w.held() && w.after == 1_000 + outbox::UNDO_MS));
        let third = parts[2].part().unwrap();
        assert_eq!(
            (third.first.as_str(), third.index, third.of, third.under.as_deref()),
            (&*local("k1").unwrap(), 3, 3, Some("p"))
        );
        // Kept and read back, as IndexedDB holds it.
        let kept = serde_json::to_string(&parts).unwrap();
        let read: Vec<Waiting> = serde_json::from_str(&kept).unwrap();
        assert_eq!(read, parts);
        // A new post's thread keeps no parent; a post alone keeps no part.
        let new = thread_of(&texts[..1], false, None, 1_000, false, || "k".into());
        assert_eq!(new[0].part().unwrap().under, None);
        assert!(!new[0].held());
    }
}
