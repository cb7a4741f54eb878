//! Every key Perch keeps in the browser's storage, and the one way to read
//! and write them. Nothing else in the app names a `perch.*` key or touches
//! `localStorage`/`sessionStorage` directly. A browser that refuses storage
//! (some private modes) simply keeps nothing.
//!
//! **Nothing is written for an account that is not signed in here.** A key
//! that belongs to an account ([`Key::account`]) is written only while that
//! account is kept as signed in (the current one or one of the others), as
//! storage says at the moment of writing: a timer, a debounce, an unload
//! handler or a save in flight that runs after the account's sign-out (in
//! this tab or another) writes nothing. `index.html` keeps the same rule
//! for IndexedDB (`signedIn`).

/// What is kept, and under which name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// The signed-in session: tokens, scopes, the account (`session.rs`).
    Session,
    /// The other accounts signed in on this browser, kept while one is
    /// current (`session.rs`).
    OtherAccounts,
    /// The OAuth flow waiting for its callback, in `sessionStorage` (`oauth.rs`).
    OAuthPending,
    /// "off" when keyboard shortcuts are turned off (`shortcuts.rs`).
    Shortcuts,
    /// The interface's language as the reader chose it (`i18n/language.rs`;
    /// `index.html` reads it too, before the wasm).
    Language,
    /// What the account likes and follows, as toggles taught it (`store/relations.rs`).
    Relations { account: String },
    /// Where the account was reading its home timeline (`timeline/reading.rs`).
    Reading { account: String },
    /// The account's lists of people, kept here only (`store/lists.rs`).
    Lists { account: String },
    /// Where the account was reading one of its lists (`timeline/reading.rs`).
    ListReading { account: String, list: String },
    /// What the account is writing in one place (`drafts.rs`).
    Draft { account: String, context: DraftContext },
    /// The parts after the first of a thread the account is writing in one
    /// place, as a JSON list (`store/thread.rs`).
    ThreadParts { account: String, context: DraftContext },
    /// How many of the account's actions wait in the outbox, and when that
    /// last changed: other tabs read the outbox again (`store/outbox.rs`).
    Outbox { account: String },
    /// The outboxes the person discarded whose IndexedDB drop may not have
    /// finished, with when (`store/outbox/kept.rs`).
    OutboxDiscarded,
    /// "on" when new posts are held 5 s with Undo (`store/outbox.rs`).
    UndoSend,
    /// What the account's activity checks found and keep comparing with
    /// (`store/activity/`).
    Activity { account: String },
    /// How many of the account's activities are unread: a number, small,
    /// so the header reads it without the rest (`store/activity/`).
    Unread { account: String },
    /// The people and words the account mutes, kept here only (`store/mutes.rs`).
    Mutes { account: String },
    /// The posts the account bookmarked, with their text, kept here only
    /// (`store/bookmarks.rs`).
    Bookmarks { account: String },
    /// Which replies of a thread the reader expanded or collapsed, for the
    /// tab (`routes/thread_tree.rs`).
    Tree { thread: String },
    /// The timelines of the account that hide replies (`timeline/replies.rs`).
    RepliesHidden { account: String },
}

/// Where a draft is being written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraftContext {
    /// A new top-level post.
    New,
    /// A reply to this post.
    Reply(String),
    /// A change to this post of the account's.
    Edit(String),
}

impl Key {
    /// The name in storage. These names are what earlier versions wrote:
    /// changing one forgets what people had kept.
    pub fn name(&self) -> String {
        match self {
            Key::Session => "perch.session".into(),
            Key::OtherAccounts => "perch.accounts".into(),
            Key::OAuthPending => "perch.oauth.pending".into(),
            Key::Shortcuts => "perch.shortcuts".into(),
            Key::Language => "perch.language".into(),
            Key::Relations { account } => format!("perch.known.{account}"),
            Key::Reading { account } => format!("perch.home.{account}"),
            Key::Lists { account } => format!("perch.lists.{account}"),
            Key::ListReading { account, list } => format!("perch.home.{account}.list.{list}"),
            Key::Draft { account, context } => match context {
                DraftContext::New => format!("perch.draft.{account}.new"),
                DraftContext::Reply(parent) => format!("perch.draft.{account}.reply.{parent}"),
                DraftContext::Edit(post) => format!("perch.draft.{account}.edit.{post}"),
            },
            Key::ThreadParts { account, context } => match context {
                DraftContext::New => format!("perch.parts.{account}.new"),
                DraftContext::Reply(parent) => format!("perch.parts.{account}.reply.{parent}"),
                DraftContext::Edit(post) => format!("perch.parts.{account}.edit.{post}"),
            },
            Key::Outbox { account } => format!("perch.outbox.{account}"),
            Key::UndoSend => "perch.undo_send".into(),
            Key::OutboxDiscarded => "perch.outbox.discarded".into(),
            Key::Activity { account } => format!("perch.activity.{account}"),
            Key::Unread { account } => format!("perch.unread.{account}"),
            Key::Mutes { account } => format!("perch.mutes.{account}"),
            Key::Bookmarks { account } => format!("perch.bookmarks.{account}"),
            Key::Tree { thread } => format!("perch.tree.{thread}"),
            Key::RepliesHidden { account } => format!("perch.replies_hidden.{account}"),
        }
    }

    /// The account this key belongs to, if it belongs to one.
    pub fn account(&self) -> Option<&str> {
        match self {
            Key::Relations { account }
            | Key::Reading { account }
            | Key::Lists { account }
            | Key::ListReading { account, .. }
            | Key::Draft { account, .. }
            | Key::ThreadParts { account, .. }
            | Key::Outbox { account }
            | Key::Activity { account }
            | Key::Unread { account }
            | Key::Mutes { account }
            | Key::Bookmarks { account }
            | Key::RepliesHidden { account } => Some(account),
            _ => None,
        }
    }

    /// Kept for the tab only (`sessionStorage`) rather than across visits.
    fn tab_only(&self) -> bool {
        matches!(self, Key::OAuthPending | Key::Tree { .. })
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

/// Whether this browser keeps anything across visits at all.
pub fn available() -> bool {
    area(&Key::Session).is_some()
}

pub fn get(key: &Key) -> Option<String> {
    area(key)?.get_item(&key.name()).ok().flatten()
}

/// Keeps `value`; `false` when the browser refused (no storage, or full),
/// or when the key's account is not signed in here now.
pub fn set(key: &Key, value: &str) -> bool {
    if key.account().is_some_and(|account| !signed_in_here(account)) {
        return false;
    }
    area(key).is_some_and(|area| area.set_item(&key.name(), value).is_ok())
}

/// Whether `account` is signed in on this browser, as storage says now
/// (the current account or one of the others, whatever this tab
/// believes). The session answers: it owns those keys' shape and installs
/// its answer at start ([`answer_signed_in_with`]); until then every
/// account counts as signed in.
pub fn signed_in_here(account: &str) -> bool {
    SIGNED_IN.get().is_none_or(|signed_in| signed_in(account))
}

static SIGNED_IN: std::sync::OnceLock<fn(&str) -> bool> = std::sync::OnceLock::new();

/// Installs the answer of [`signed_in_here`], once for the visit.
pub fn answer_signed_in_with(signed_in: fn(&str) -> bool) {
    let _ = SIGNED_IN.set(signed_in);
}

pub fn remove(key: &Key) {
    if let Some(area) = area(key) {
        let _ = area.remove_item(&key.name());
    }
}

/// Removes everything kept for `account`: its drafts, waiting actions,
/// mutes, bookmarks and lists (unless `keep_drafts`: the person chose to find them at their
/// next sign-in),
/// what it likes and follows, where it was reading, its activity. At sign-out, so the
/// next person on this browser finds nothing of it.
pub fn forget_account(account: &str, keep_drafts: bool) {
    let drafts = drafts_prefix(account);
    let parts = format!("perch.parts.{account}.");
    let relations = Key::Relations { account: account.to_owned() }.name();
    let reading = Key::Reading { account: account.to_owned() }.name();
    let outbox = Key::Outbox { account: account.to_owned() }.name();
    let activity = Key::Activity { account: account.to_owned() }.name();
    let unread = Key::Unread { account: account.to_owned() }.name();
    let mutes = Key::Mutes { account: account.to_owned() }.name();
    let bookmarks = Key::Bookmarks { account: account.to_owned() }.name();
    let lists = Key::Lists { account: account.to_owned() }.name();
    let replies_hidden = Key::RepliesHidden { account: account.to_owned() }.name();
    let list_readings = format!("{reading}.list.");
    remove_where(|name| {
        (!keep_drafts
            && (name.starts_with(&drafts)
                || name.starts_with(&parts)
                || [&outbox, &mutes, &bookmarks, &lists, &replies_hidden].contains(&&name.to_owned())))
            || [&relations, &reading, &activity, &unread].contains(&&name.to_owned())
            || name.starts_with(&list_readings)
    });
}

fn drafts_prefix(account: &str) -> String {
    format!("perch.draft.{account}.")
}

/// How many drafts `account` has kept, unsent.
pub fn count_drafts(account: &str) -> usize {
    let prefix = drafts_prefix(account);
    let sent = |name: &str| {
        area(&Key::Session).and_then(|a| a.get_item(name).ok().flatten()).is_some_and(|v| v.starts_with(SENT_DRAFT))
    };
    names().filter(|name| name.starts_with(&prefix) && !sent(name)).count()
}

/// Where `account` has unsent drafts: each context once, in no order.
pub fn draft_contexts(account: &str) -> Vec<DraftContext> {
    let prefix = drafts_prefix(account);
    let area = area(&Key::Session);
    let unsent = |name: &str| {
        area.as_ref().and_then(|a| a.get_item(name).ok().flatten()).is_some_and(|v| !v.starts_with(SENT_DRAFT))
    };
    names()
        .filter_map(|name| {
            let context = match name.strip_prefix(&prefix)? {
                "new" => DraftContext::New,
                rest => match rest.split_once('.')? {
                    ("reply", post) if !post.is_empty() => DraftContext::Reply(post.to_owned()),
                    ("edit", post) if !post.is_empty() => DraftContext::Edit(post.to_owned()),
                    _ => return None,
                },
            };
            unsent(&name).then_some(context)
        })
        .collect()
}

/// What a draft's key holds once a tab sent it (`account/drafts.rs`), then
/// the text sent: a NUL, which no post may contain
/// (`perch_model::validate_content`), so no draft is ever taken for it.
pub const SENT_DRAFT: &str = "\0sent\0";

/// Drops the marks of sent drafts (at a start: a mark left since an earlier
/// visit has reached every tab and is no one's draft).
pub fn drop_sent_drafts() {
    remove_where_kept(|name, value| {
        name.starts_with("perch.draft.") && value().is_some_and(|v| v.starts_with(SENT_DRAFT))
    });
}

/// Every name kept in `localStorage`.
fn names() -> impl Iterator<Item = String> {
    let area = area(&Key::Session);
    let count = area.as_ref().and_then(|a| a.length().ok()).unwrap_or(0);
    (0..count).filter_map(move |i| area.as_ref()?.key(i).ok().flatten())
}

/// Removes the drafts earlier versions kept for nobody in particular
/// (`perch.draft.new`, `perch.draft.reply.<uuid>`): whose they are cannot
/// be known, and showing one to the wrong person is worse than losing it.
pub fn forget_unowned_drafts() {
    remove_where(|name| name == "perch.draft.new" || name.starts_with("perch.draft.reply."));
}

/// Removes every `localStorage` entry whose name matches.
fn remove_where(matches: impl Fn(&str) -> bool) {
    remove_where_kept(|name, _| matches(name));
}

/// Removes every `localStorage` entry whose name and value match (the
/// value is read only for a name `matches` is asked about).
fn remove_where_kept(matches: impl Fn(&str, &dyn Fn() -> Option<String>) -> bool) {
    let Some(area) = area(&Key::Session) else { return };
    let names: Vec<String> = names().filter(|n| matches(n, &|| area.get_item(n).ok().flatten())).collect();
    for name in names {
        let _ = area.remove_item(&name);
    }
}

/// Calls `changed(key, new value)` whenever another tab changes what is
/// kept (`None`: removed), until the current reactive owner is cleaned up.
/// The value is another tab's word: parse it as untrusted.
pub fn on_change_elsewhere(changed: impl Fn(&str, Option<String>) + 'static) {
    use leptos::prelude::on_cleanup;
    let changed = send_wrapper::SendWrapper::new(changed);
    let handle = leptos::prelude::window_event_listener(leptos::ev::storage, move |ev: web_sys::StorageEvent| {
        if let Some(name) = ev.key() {
            changed(&name, ev.new_value());
        }
    });
    let handle = send_wrapper::SendWrapper::new(handle);
    on_cleanup(move || handle.take().remove());
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
    use super::{DraftContext, Key};

    #[test]
    fn names_stay_what_earlier_versions_wrote() {
        assert_eq!(Key::Session.name(), "perch.session");
        assert_eq!(Key::OtherAccounts.name(), "perch.accounts");
        assert_eq!(Key::OAuthPending.name(), "perch.oauth.pending");
        assert_eq!(Key::Shortcuts.name(), "perch.shortcuts");
        assert_eq!(Key::Relations { account: "u1".into() }.name(), "perch.known.u1");
        assert_eq!(Key::Reading { account: "u1".into() }.name(), "perch.home.u1");
        let draft = |context| Key::Draft { account: "u1".into(), context }.name();
        assert_eq!(draft(DraftContext::New), "perch.draft.u1.new");
        assert_eq!(draft(DraftContext::Reply("p1".into())), "perch.draft.u1.reply.p1");
        assert_eq!(draft(DraftContext::Edit("p1".into())), "perch.draft.u1.edit.p1");
        assert_eq!(Key::Activity { account: "u1".into() }.name(), "perch.activity.u1");
        assert_eq!(Key::Unread { account: "u1".into() }.name(), "perch.unread.u1");
        assert_eq!(Key::Unread { account: "u1".into() }.account(), Some("u1"), "written only while signed in");
        assert_eq!(Key::Mutes { account: "u1".into() }.name(), "perch.mutes.u1");
        assert_eq!(Key::Bookmarks { account: "u1".into() }.name(), "perch.bookmarks.u1");
        assert_eq!(Key::Bookmarks { account: "u1".into() }.account(), Some("u1"));
    }
}
