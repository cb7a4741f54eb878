//! Drafts: what a person is writing, kept per account and per context (a
//! new post, a reply to one post, an edit of one post) as they type, across
//! reloads and closed tabs, and removed only once the server has confirmed
//! exactly that text. Two tabs on one context share one draft: what one
//! types shows up in the other (the composer follows storage events). Plain
//! Rust over a small key-value trait, so the rules are tested natively.

use crate::browser::web_storage::{DraftContext, Key, SENT_DRAFT as SENT};

/// Where drafts are kept: `localStorage` in the browser.
pub trait KeyValue {
    fn get(&self, key: &Key) -> Option<String>;
    fn set(&self, key: &Key, value: &str);
    fn remove(&self, key: &Key);
    /// The time now, in ms since 1970: when a draft was last typed in.
    fn now(&self) -> u64;
}

/// The draft of one context.
pub struct Draft<S: KeyValue> {
    store: S,
    key: Key,
}

impl<S: KeyValue> Draft<S> {
    /// The draft `account` is writing in `context`.
    pub fn new(store: S, account: &str, context: DraftContext) -> Self {
        Draft { store, key: Key::Draft { account: account.to_owned(), context } }
    }

    /// The name it is kept under, to recognise another tab's change.
    pub fn key_name(&self) -> String {
        self.key.name()
    }

    /// The text to start with: what was left here before, or nothing.
    pub fn restore(&self) -> String {
        match self.kept() {
            Kept::Text(text, _) => text,
            Kept::Sent(_) | Kept::Nothing => String::new(),
        }
    }

    /// The text left here and when it was last typed in (`None` for a
    /// draft kept by an earlier version), if there is one.
    pub fn left(&self) -> Option<(String, Option<u64>)> {
        match self.kept() {
            Kept::Text(text, at) => Some((text, at)),
            Kept::Sent(_) | Kept::Nothing => None,
        }
    }

    /// What is kept now, as every tab reads it (a storage event's own value
    /// can be older than what this tab wrote since).
    fn kept(&self) -> Kept {
        match self.store.get(&self.key) {
            None => Kept::Nothing,
            Some(value) => match value.strip_prefix(SENT) {
                Some(sent) => Kept::Sent(sent.to_owned()),
                None => match value.strip_prefix(AT).and_then(|v| v.split_once(AT)) {
                    Some((at, text)) => Kept::Text(text.to_owned(), at.parse().ok()),
                    None => Kept::Text(value, None),
                },
            },
        }
    }

    /// The person typed: keep the text (an emptied box leaves no draft).
    pub fn typed(&self, text: &str) {
        if text.is_empty() {
            self.store.remove(&self.key);
        } else {
            self.store.set(&self.key, &format!("{AT}{}{AT}{text}", self.store.now()));
        }
    }

    /// The person threw the draft away (Cancel on an edit).
    pub fn discard(&self) {
        self.store.remove(&self.key);
    }

    /// The server confirmed `sent`: the draft keeps whatever was typed
    /// after it was sent, and ends only if nothing was. Returns the text
    /// the box should hold now.
    pub fn sent(&self, sent: &str, in_the_box: &str) -> String {
        let left = left_after_send(in_the_box, sent);
        let kept = self.restore();
        if kept == sent || kept == in_the_box {
            if left.is_empty() {
                // Not removed: marked as sent, with what was sent, so a tab
                // whose newer text this tab had not seen yet keeps it
                // ([`Draft::after_change_elsewhere`]).
                self.store.set(&self.key, &format!("{SENT}{sent}"));
            } else {
                self.typed(&left);
            }
        }
        left
    }

    /// Another tab changed this draft: the text this tab's box should hold
    /// now, given `here` (what it holds), or `None` to leave it as it is.
    /// Kept text wins (the last tab to type). A draft another tab sent
    /// empties the box only of what was sent: text typed here that the
    /// sender had not seen yet (its word came late, as it does between
    /// tabs on a busy machine) stays, and is kept again for every tab. A
    /// removed draft (emptied or discarded by the person) empties it,
    /// unless `keep_when_removed`.
    pub fn after_change_elsewhere(&self, here: &str, keep_when_removed: bool) -> Option<String> {
        match self.kept() {
            Kept::Text(text, _) => Some(text),
            Kept::Sent(_) | Kept::Nothing if keep_when_removed => None,
            Kept::Nothing => Some(String::new()),
            Kept::Sent(_) if here.is_empty() => None,
            Kept::Sent(sent) => {
                let left = left_after_send(here, &sent);
                if !left.is_empty() {
                    self.typed(&left);
                }
                Some(left)
            }
        }
    }
}

/// What a draft's key holds before its text: when it was last typed in,
/// between two NULs, which no post may contain (as [`SENT`]).
const AT: char = '\0';

/// What a draft's key holds.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kept {
    Nothing,
    /// Text being written, and when it was last typed in.
    Text(String, Option<u64>),
    /// A tab sent this text and the draft ended there.
    Sent(String),
}

/// What stays in a box after `sent` was confirmed: nothing if the box still
/// holds exactly that; what was typed after it if the person only added to
/// the end; else all of it, since only the text that was sent may go.
pub fn left_after_send(in_the_box: &str, sent: &str) -> String {
    if in_the_box == sent {
        String::new()
    } else if let Some(added) = in_the_box.strip_prefix(sent) {
        added.trim_start().to_owned()
    } else {
        in_the_box.to_owned()
    }
}

/// The browser's `localStorage`; without one (private modes can refuse it)
/// drafts are simply not kept.
#[derive(Clone, Copy)]
pub struct LocalStorage;

impl KeyValue for LocalStorage {
    fn get(&self, key: &Key) -> Option<String> {
        crate::browser::web_storage::get(key)
    }

    fn set(&self, key: &Key, value: &str) {
        let before = unsent(crate::browser::web_storage::get(key).as_deref());
        crate::browser::web_storage::set(key, value);
        if before != unsent(Some(value)) {
            touched();
        }
    }

    fn remove(&self, key: &Key) {
        let before = unsent(crate::browser::web_storage::get(key).as_deref());
        crate::browser::web_storage::remove(key);
        if before {
            touched();
        }
    }

    fn now(&self) -> u64 {
        js_sys::Date::now() as u64
    }
}

/// Whether a kept value is a draft still unsent.
fn unsent(value: Option<&str>) -> bool {
    value.is_some_and(|v| !v.starts_with(SENT))
}

thread_local! {
    static TOUCHED: leptos::prelude::ArcRwSignal<u64> = leptos::prelude::ArcRwSignal::new(0);
}

fn touched() {
    use leptos::prelude::Update;
    TOUCHED.with(|t| t.update(|n| *n += 1));
}

/// Tracks the moment a draft is begun, sent or discarded in this tab or in
/// another (not each keystroke): what counts the drafts reads it to count
/// again. Another tab's changes are listened for once, for the app's life.
pub fn track_drafts_begun_or_ended() {
    use leptos::prelude::Track;
    #[cfg(target_arch = "wasm32")]
    thread_local! {
        /// Whether another tab's changes to drafts are listened for yet.
        static HEARD_ELSEWHERE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    #[cfg(target_arch = "wasm32")]
    if !HEARD_ELSEWHERE.with(|heard| heard.replace(true)) {
        let handle = leptos::prelude::window_event_listener(leptos::ev::storage, |ev: web_sys::StorageEvent| {
            if ev.key().is_some_and(|name| name.starts_with("perch.draft.")) {
                touched();
            }
        });
        // Never removed: it serves every count of the app's life.
        std::mem::forget(handle);
    }
    TOUCHED.with(|t| t.track());
}

/// How many drafts `account` keeps unsent here. Read in a memo, it counts
/// again whenever one is begun, sent or discarded, here or in another tab.
pub fn kept_unsent(account: &str) -> usize {
    track_drafts_begun_or_ended();
    crate::browser::web_storage::count_drafts(account)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::rc::Rc;

    #[derive(Clone, Default)]
    struct Memory(Rc<RefCell<HashMap<String, String>>>);

    impl KeyValue for Memory {
        fn get(&self, key: &Key) -> Option<String> {
            self.0.borrow().get(&key.name()).cloned()
        }
        fn set(&self, key: &Key, value: &str) {
            self.0.borrow_mut().insert(key.name(), value.into());
        }
        fn remove(&self, key: &Key) {
            self.0.borrow_mut().remove(&key.name());
        }
        fn now(&self) -> u64 {
            1_700_000_000_000
        }
    }

    fn draft(memory: &Memory, account: &str, context: DraftContext) -> Draft<Memory> {
        Draft::new(memory.clone(), account, context)
    }

    #[test]
    fn each_account_and_context_keeps_its_own_draft() {
        let memory = Memory::default();
        draft(&memory, "ada", DraftContext::New).typed("a new post");
        draft(&memory, "ada", DraftContext::Reply("p1".into())).typed("a reply to p1");
        draft(&memory, "ada", DraftContext::Edit("p1".into())).typed("p1, edited");
        assert_eq!(draft(&memory, "ada", DraftContext::New).restore(), "a new post");
        assert_eq!(draft(&memory, "ada", DraftContext::Reply("p1".into())).restore(), "a reply to p1");
        assert_eq!(draft(&memory, "ada", DraftContext::Edit("p1".into())).restore(), "p1, edited");
        assert_eq!(draft(&memory, "ada", DraftContext::Reply("p3".into())).restore(), "");
        assert_eq!(draft(&memory, "bob", DraftContext::New).restore(), "", "another account sees none of ada's");
    }

    #[test]
    fn a_draft_lives_until_the_server_confirms() {
        let memory = Memory::default();
        let new = draft(&memory, "ada", DraftContext::New);
        new.typed("half");
        new.typed("half-written");
        // A reload: a new Draft over the same store finds it.
        assert_eq!(draft(&memory, "ada", DraftContext::New).restore(), "half-written");
        // Only the server's confirmation removes it.
        assert_eq!(new.sent("half-written", "half-written"), "");
        assert_eq!(draft(&memory, "ada", DraftContext::New).restore(), "");
    }

    #[test]
    fn text_typed_while_sending_is_kept() {
        let memory = Memory::default();
        let new = draft(&memory, "ada", DraftContext::New);
        new.typed("first");
        // Sent "first"; meanwhile the person added a second thought.
        new.typed("first and a second thought");
        assert_eq!(new.sent("first", "first and a second thought"), "and a second thought");
        assert_eq!(new.restore(), "and a second thought");
        // Sent "one"; meanwhile the box was rewritten: nothing of it goes.
        new.typed("one");
        new.typed("two");
        assert_eq!(new.sent("one", "two"), "two");
        assert_eq!(new.restore(), "two");
    }

    #[test]
    fn a_send_does_not_delete_what_another_tab_wrote_since() {
        let memory = Memory::default();
        let here = draft(&memory, "ada", DraftContext::New);
        here.typed("sent from here");
        // Another tab on the same draft typed something else after this one sent.
        draft(&memory, "ada", DraftContext::New).typed("typed in the other tab");
        assert_eq!(here.sent("sent from here", "sent from here"), "");
        assert_eq!(draft(&memory, "ada", DraftContext::New).restore(), "typed in the other tab");
    }

    #[test]
    fn a_tab_whose_newer_text_the_sender_had_not_seen_keeps_it() {
        let memory = Memory::default();
        let sender = draft(&memory, "ada", DraftContext::New);
        let other = draft(&memory, "ada", DraftContext::New);
        sender.typed("from the first tab");
        // The first tab sends what it has; the second tab's text came after
        // what the sender read, and the sender's word reaches it late.
        assert_eq!(sender.sent("from the first tab", "from the first tab"), "");
        assert_eq!(sender.restore(), "", "a sent draft restores as nothing");
        assert_eq!(other.after_change_elsewhere("from the second tab", false), Some("from the second tab".into()));
        assert_eq!(other.restore(), "from the second tab", "kept again for every tab");
        // The same word where the box held what was sent: it empties.
        sender.typed("one");
        sender.sent("one", "one");
        assert_eq!(other.after_change_elsewhere("one", false), Some(String::new()));
        // What was added after the sent text stays; an empty box stays empty.
        sender.typed("two");
        sender.sent("two", "two");
        assert_eq!(other.after_change_elsewhere("two and more", false), Some("and more".into()));
        assert_eq!(other.restore(), "and more");
        sender.typed("three");
        sender.sent("three", "three");
        assert_eq!(other.after_change_elsewhere("", false), None);
        // Kept text is taken as it is kept now; a removal empties the box,
        // unless it is an edit's, which keeps the post's text.
        sender.typed("four");
        assert_eq!(other.after_change_elsewhere("", false), Some("four".into()));
        sender.discard();
        assert_eq!(other.after_change_elsewhere("four", false), Some(String::new()));
        assert_eq!(other.after_change_elsewhere("the post", true), None);
    }

    #[test]
    fn a_draft_says_when_it_was_last_typed_in_and_one_from_before_still_reads() {
        let memory = Memory::default();
        let new = draft(&memory, "ada", DraftContext::New);
        new.typed("with a time");
        assert_eq!(new.left(), Some(("with a time".to_string(), Some(1_700_000_000_000))));
        assert_eq!(new.restore(), "with a time");
        // Written by an earlier version: the text alone.
        memory.0.borrow_mut().insert("perch.draft.ada.new".into(), "from before".into());
        assert_eq!(new.left(), Some(("from before".to_string(), None)));
        assert_eq!(new.restore(), "from before");
        new.sent("from before", "from before");
        assert_eq!(new.left(), None, "a sent draft is no draft");
    }

    #[test]
    fn emptying_the_box_or_discarding_leaves_no_draft() {
        let memory = Memory::default();
        let reply = draft(&memory, "ada", DraftContext::Reply("p1".into()));
        reply.typed("x");
        reply.typed("");
        assert!(memory.0.borrow().is_empty());
        let edit = draft(&memory, "ada", DraftContext::Edit("p1".into()));
        edit.typed("changed");
        edit.discard();
        assert!(memory.0.borrow().is_empty());
    }
}
