//! Every key Perch keeps in the browser's storage, and the one way to read
//! and write them. Nothing else in the app names a `perch.*` key or touches
//! `localStorage`/`sessionStorage` directly. A browser that refuses storage
//! (some private modes) simply keeps nothing.

/// What is kept, and under which name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// The signed-in session: tokens, scopes, the owner (`session.rs`).
    Session,
    /// The OAuth flow waiting for its callback, in `sessionStorage` (`oauth.rs`).
    OAuthPending,
    /// "off" when keyboard shortcuts are turned off (`shortcuts.rs`).
    Shortcuts,
    /// What the account likes and follows, as toggles taught it (`store/relations.rs`).
    Relations { account: String },
    /// Where the account was reading its home timeline (`timeline/reading.rs`).
    Reading { account: String },
    /// The draft of a new post (`drafts.rs`).
    DraftNew,
    /// The draft of a reply to one post (`drafts.rs`).
    DraftReply { parent: String },
}

impl Key {
    /// The name in storage. These names are what earlier versions wrote:
    /// changing one forgets what people had kept.
    pub fn name(&self) -> String {
        match self {
            Key::Session => "perch.session".into(),
            Key::OAuthPending => "perch.oauth.pending".into(),
            Key::Shortcuts => "perch.shortcuts".into(),
            Key::Relations { account } => format!("perch.known.{account}"),
            Key::Reading { account } => format!("perch.home.{account}"),
            Key::DraftNew => "perch.draft.new".into(),
            Key::DraftReply { parent } => format!("perch.draft.reply.{parent}"),
        }
    }

    /// Kept for the tab only (`sessionStorage`) rather than across visits.
    fn tab_only(&self) -> bool {
        matches!(self, Key::OAuthPending)
    }
}

fn area(key: &Key) -> Option<web_sys::Storage> {
    let window = web_sys::window()?;
    if key.tab_only() {
        window.session_storage().ok().flatten()
    } else {
        window.local_storage().ok().flatten()
    }
}

pub fn get(key: &Key) -> Option<String> {
    area(key)?.get_item(&key.name()).ok().flatten()
}

/// Keeps `value`; `false` when the browser refused (no storage, or full).
pub fn set(key: &Key, value: &str) -> bool {
    area(key).is_some_and(|area| area.set_item(&key.name(), value).is_ok())
}

pub fn remove(key: &Key) {
    if let Some(area) = area(key) {
        let _ = area.remove_item(&key.name());
    }
}

/// A kept JSON value, or `None` when absent or unreadable.
pub fn get_json<T: serde::de::DeserializeOwned>(key: &Key) -> Option<T> {
    serde_json::from_str(&get(key)?).ok()
}

pub fn set_json<T: serde::Serialize>(key: &Key, value: &T) -> bool {
    serde_json::to_string(value).is_ok_and(|text| set(key, &text))
}

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn names_stay_what_earlier_versions_wrote() {
        assert_eq!(Key::Session.name(), "perch.session");
        assert_eq!(Key::OAuthPending.name(), "perch.oauth.pending");
        assert_eq!(Key::Shortcuts.name(), "perch.shortcuts");
        assert_eq!(Key::Relations { account: "u1".into() }.name(), "perch.known.u1");
        assert_eq!(Key::Reading { account: "u1".into() }.name(), "perch.home.u1");
        assert_eq!(Key::DraftNew.name(), "perch.draft.new");
        assert_eq!(Key::DraftReply { parent: "p1".into() }.name(), "perch.draft.reply.p1");
    }
}
