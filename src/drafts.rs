//! Drafts: what a person is writing, kept per context (a new post, or a
//! reply to one post) as they type, across reloads and closed tabs, and
//! removed only once the server has confirmed the post. Plain Rust over a
//! small key-value trait, so the rules are tested natively.

use crate::storage::Key;

/// Where drafts are kept: `localStorage` in the browser.
pub trait DraftStore {
    fn get(&self, key: &Key) -> Option<String>;
    fn set(&self, key: &Key, value: &str);
    fn remove(&self, key: &Key);
}

/// The draft of one context.
pub struct Draft<S: DraftStore> {
    store: S,
    key: Key,
}

impl<S: DraftStore> Draft<S> {
    /// The draft of a new post (`parent` = `None`) or of a reply to `parent`.
    pub fn for_context(store: S, parent: Option<&str>) -> Self {
        let key = match parent {
            Some(uuid) => Key::DraftReply { parent: uuid.to_owned() },
            None => Key::DraftNew,
        };
        Draft { store, key }
    }

    /// The text to start with: what was left here before, or nothing.
    pub fn restore(&self) -> String {
        self.store.get(&self.key).unwrap_or_default()
    }

    /// The person typed: keep the text (an emptied box leaves no draft).
    pub fn typed(&self, text: &str) {
        if text.is_empty() {
            self.store.remove(&self.key);
        } else {
            self.store.set(&self.key, text);
        }
    }

    /// A send ended: a post the server confirmed ends the draft; after a
    /// failure the draft stays, to be sent again.
    pub fn send_finished(&self, confirmed: bool) {
        if confirmed {
            self.store.remove(&self.key);
        }
    }
}

/// The browser's `localStorage`; without one (private modes can refuse it)
/// drafts are simply not kept.
#[derive(Clone, Copy)]
pub struct LocalStorage;

impl DraftStore for LocalStorage {
    fn get(&self, key: &Key) -> Option<String> {
        crate::storage::get(key)
    }

    fn set(&self, key: &Key, value: &str) {
        crate::storage::set(key, value);
    }

    fn remove(&self, key: &Key) {
        crate::storage::remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::rc::Rc;

    #[derive(Clone, Default)]
    struct Memory(Rc<RefCell<HashMap<String, String>>>);

    impl DraftStore for Memory {
        fn get(&self, key: &Key) -> Option<String> {
            self.0.borrow().get(&key.name()).cloned()
        }
        fn set(&self, key: &Key, value: &str) {
            self.0.borrow_mut().insert(key.name(), value.into());
        }
        fn remove(&self, key: &Key) {
            self.0.borrow_mut().remove(&key.name());
        }
    }

    #[test]
    fn each_context_keeps_its_own_draft() {
        let memory = Memory::default();
        Draft::for_context(memory.clone(), None).typed("a new post");
        Draft::for_context(memory.clone(), Some("p1")).typed("a reply to p1");
        Draft::for_context(memory.clone(), Some("p2")).typed("a reply to p2");
        assert_eq!(Draft::for_context(memory.clone(), None).restore(), "a new post");
        assert_eq!(Draft::for_context(memory.clone(), Some("p1")).restore(), "a reply to p1");
        assert_eq!(Draft::for_context(memory.clone(), Some("p3")).restore(), "");
    }

    #[test]
    fn a_draft_lives_until_the_server_confirms() {
        let memory = Memory::default();
        let draft = Draft::for_context(memory.clone(), None);
        draft.typed("half");
        draft.typed("half-written");
        // A reload: a new Draft over the same store finds it.
        assert_eq!(Draft::for_context(memory.clone(), None).restore(), "half-written");
        // A failed send keeps it, also across a reload.
        draft.send_finished(false);
        assert_eq!(Draft::for_context(memory.clone(), None).restore(), "half-written");
        // Only the server's confirmation removes it.
        draft.send_finished(true);
        assert_eq!(Draft::for_context(memory.clone(), None).restore(), "");
    }

    #[test]
    fn emptying_the_box_leaves_no_draft() {
        let memory = Memory::default();
        let draft = Draft::for_context(memory.clone(), Some("p1"));
        draft.typed("x");
        draft.typed("");
        assert!(memory.0.borrow().is_empty());
    }
}
