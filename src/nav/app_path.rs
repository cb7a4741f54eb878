//! Every address of the app, typed: one function builds each path, so no
//! page writes `/user/@…` by hand, and the router's patterns (`mod.rs`) and
//! these stay side by side.

use std::fmt;

/// An address of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AppPath<'a> {
    Home,
    /// A thread, by its post's uuid.
    Thread(&'a str),
    /// A thread with its reply box focused.
    ReplyTo(&'a str),
    /// A profile by username.
    Profile(&'a str),
    /// A profile by uuid alone (it moves to the `@name` address).
    ProfileByUuid(&'a str),
    Followers(&'a str),
    Following(&'a str),
    SignIn,
    /// What waits to be sent (`routes/outbox.rs`).
    Outbox,
    /// What happened to the account's posts and followers (`routes/activity.rs`).
    Activity,
    /// Every setting in one place (`routes/settings.rs`).
    Settings,
    /// The posts the account bookmarked (`routes/bookmarks.rs`).
    Bookmarks,
    /// Every unsent draft of the account (`routes/drafts.rs`).
    Drafts,
    /// Search over what this browser holds (`routes/search.rs`).
    Search,
    /// The account's lists (`routes/lists.rs`), and one of them by its id.
    Lists,
    List(&'a str),
}

impl<'a> AppPath<'a> {
    /// Where a draft was written, to continue it: the home page's box, the
    /// reply box of its thread, the thread of the post it edits.
    pub fn continuing(draft: &'a crate::browser::web_storage::DraftContext) -> Self {
        use crate::browser::web_storage::DraftContext;
        match draft {
            DraftContext::New => AppPath::Home,
            DraftContext::Reply(post) => AppPath::ReplyTo(post),
            DraftContext::Edit(post) => AppPath::Thread(post),
        }
    }

    /// The path, with the uuid or name encoded as one path segment.
    pub fn href(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for AppPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seg = |s: &str| segment(s);
        match self {
            AppPath::Home => f.write_str("/"),
            AppPath::Thread(uuid) => write!(f, "/post/{}", seg(uuid)),
            AppPath::ReplyTo(uuid) => write!(f, "/post/{}#reply", seg(uuid)),
            AppPath::Profile(name) => write!(f, "/user/@{}", seg(name)),
            AppPath::ProfileByUuid(uuid) => write!(f, "/user/{}", seg(uuid)),
            AppPath::Followers(name) => write!(f, "/user/@{}/followers", seg(name)),
            AppPath::Following(name) => write!(f, "/user/@{}/following", seg(name)),
            AppPath::SignIn => f.write_str("/signin"),
            AppPath::Outbox => f.write_str("/outbox"),
            AppPath::Activity => f.write_str("/activity"),
            AppPath::Settings => f.write_str("/settings"),
            AppPath::Bookmarks => f.write_str("/bookmarks"),
            AppPath::Drafts => f.write_str("/drafts"),
            AppPath::Search => f.write_str("/search"),
            AppPath::Lists => f.write_str("/lists"),
            AppPath::List(id) => write!(f, "/lists/{}", seg(id)),
        }
    }
}

/// `s` as one path segment: characters that would end or change the
/// segment (`/`, `?`, `#`, `%`, spaces, controls) are percent-encoded.
fn segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || "-._~@!$&'()*+,;=:".contains(c) || !c.is_ascii() && !c.is_control() {
            out.push(c);
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.extend(['%', HEX[usize::from(b >> 4)] as char, HEX[usize::from(b & 15)] as char]);
            }
        }
    }
    out
}

/// The address being shown, path and query, as a `next=` can name it.
/// (The router's `search` has no `?`: it is put back here.)
pub fn here(pathname: &str, search: &str) -> String {
    let search = search.trim_start_matches('?');
    if search.is_empty() {
        pathname.to_owned()
    } else {
        format!("{pathname}?{search}")
    }
}

#[cfg(test)]
mod tests {
    use super::{here, AppPath};

    #[test]
    fn paths_are_built_as_the_router_reads_them() {
        assert_eq!(AppPath::Home.href(), "/");
        assert_eq!(AppPath::Thread("p1").href(), "/post/p1");
        assert_eq!(AppPath::ReplyTo("p1").href(), "/post/p1#reply");
        assert_eq!(AppPath::Profile("mira").href(), "/user/@mira");
        assert_eq!(AppPath::ProfileByUuid("u1").href(), "/user/u1");
        assert_eq!(AppPath::Followers("mira").href(), "/user/@mira/followers");
        assert_eq!(AppPath::Following("mira").href(), "/user/@mira/following");
        assert_eq!(AppPath::SignIn.href(), "/signin");
        assert_eq!(AppPath::Outbox.href(), "/outbox");
        assert_eq!(AppPath::Bookmarks.href(), "/bookmarks");
        assert_eq!(AppPath::Drafts.href(), "/drafts");
        assert_eq!(AppPath::Lists.href(), "/lists");
        assert_eq!(AppPath::List("a1/b").href(), "/lists/a1%2Fb");
    }

    #[test]
    fn a_hostile_name_stays_one_segment() {
        assert_eq!(AppPath::Profile("a/../signin?x#y").href(), "/user/@a%2F..%2Fsignin%3Fx%23y");
        assert_eq!(AppPath::Thread("a b%").href(), "/post/a%20b%25");
    }

    #[test]
    fn the_query_is_kept_with_its_question_mark() {
        assert_eq!(here("/user/@leila/following", "from=x"), "/user/@leila/following?from=x");
        assert_eq!(here("/user/@leila/following", "?from=x"), "/user/@leila/following?from=x");
        assert_eq!(here("/post/p1", ""), "/post/p1");
    }
}
