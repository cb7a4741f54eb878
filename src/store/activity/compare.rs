//! What one look at the server changes in what is kept: plain logic, no
//! browser, tested here. The first look only records a baseline (a new
//! account gets no flood of old activity); each later one compares the
//! account's posts' reply and like counts and its followers with the last
//! look, and turns what grew into activities.

use perch_model::{Parent, Post, User, UserRef};
use serde::{Deserialize, Serialize};

/// The version of [`Kept`]'s shape: another is read as nothing kept.
pub const VERSION: u32 = 1;
/// Posts of the account remembered (their counts), newest first.
const POSTS_REMEMBERED: usize = 90;
/// Mentions remembered as already shown.
const MENTIONS_REMEMBERED: usize = 200;
/// Replies read for one post in one check, at most: the last two pages.
pub const REPLY_PAGES_AT_MOST: u32 = 2;
/// A page of the interface.
const PAGE: u64 = 15;

/// What is kept per account between looks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Kept {
    pub version: u32,
    /// When the first look was taken (0: not yet). Posts written after it
    /// count from zero replies and likes. Times are whole milliseconds:
    /// floats would bring their formatting code into the module (15 KB).
    pub since_ms: i64,
    /// The account's posts as last seen: (uuid, replies, likes, written).
    pub posts: Vec<(String, u64, u64, i64)>,
    /// The account's followers as last seen (uuids), when the token may read them.
    pub followers: Option<Vec<String>>,
    /// The token may not read followers (`user.followers.get` missing).
    pub followers_refused: bool,
    /// The `ETag` of each address read, for a conditional read next time.
    pub tags: Vec<(String, String)>,
    /// What happened, newest first.
    pub items: Vec<Item>,
    /// Mentions already turned into items.
    pub mentions: Vec<String>,
    /// When a check last succeeded.
    pub read_ms: i64,
    /// When the Activity page was last opened: items noticed after it are unread.
    pub opened_ms: i64,
    /// Checks since the last full one.
    pub since_full: u32,
}

/// One activity. Kept externally tagged (`{"Reply": {…}}`): an internally
/// tagged enum buffers each value before reading it, which instantiates
/// serde's whole buffering path for posts and users again (about 100 KB of
/// wasm before compression, measured).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Item {
    /// Someone replied to a post of the account's (`reply.parent` is that post).
    Reply { noticed_ms: i64, reply: Post },
    /// These people started following the account.
    Followed { noticed_ms: i64, users: Vec<User> },
    /// A post of the account's got `more` likes.
    Liked { noticed_ms: i64, post: String, excerpt: String, more: u64 },
    /// Someone the account follows named it in a post that is not a reply to it.
    Mention { noticed_ms: i64, post: Post },
}

impl Item {
    pub fn noticed_ms(&self) -> i64 {
        match self {
            Item::Reply { noticed_ms, .. }
            | Item::Followed { noticed_ms, .. }
            | Item::Liked { noticed_ms, .. }
            | Item::Mention { noticed_ms, .. } => *noticed_ms,
        }
    }

    /// A stable id, for the page's list.
    pub fn id(&self) -> String {
        match self {
            Item::Reply { reply, .. } => format!("r-{}", reply.uuid),
            Item::Followed { noticed_ms, .. } => format!("f-{noticed_ms}"),
            Item::Liked { noticed_ms, post, .. } => format!("l-{post}-{noticed_ms}"),
            Item::Mention { post, .. } => format!("m-{}", post.uuid),
        }
    }
}

/// The first line of a post, for a one-line quote.
pub fn excerpt(content: &str) -> String {
    let line = content.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let mut out: String = line.chars().take(80).collect();
    if line.chars().count() > 80 {
        out.push('…');
    }
    out
}

impl Kept {
    /// Whether the first look was taken.
    pub fn looked(&self) -> bool {
        self.since_ms > 0
    }

    /// The kept `ETag` of `path`.
    pub fn tag(&self, path: &str) -> Option<&str> {
        self.tags.iter().find(|(p, _)| p == path).map(|(_, t)| t.as_str())
    }

    /// Keeps `tag` as `path`'s (`None`: forgets it).
    pub fn set_tag(&mut self, path: &str, tag: Option<String>) {
        self.tags.retain(|(p, _)| p != path);
        if let Some(tag) = tag {
            self.tags.push((path.to_owned(), tag));
        }
    }

    /// Items noticed since the page was last opened.
    pub fn unread(&self) -> u32 {
        self.items.iter().filter(|i| i.noticed_ms() > self.opened_ms).count() as u32
    }

    /// Compares the account's posts (`me` wrote them; other authors are
    /// skipped) with the last look: a post whose likes grew becomes an
    /// item; each whose replies grew is returned with its old count, for its
    /// replies to be read. Records the new counts.
    pub fn compare_posts(&mut self, posts: &[Post], me: &str, now: i64) -> Vec<(String, u64, u64)> {
        let mut grown = Vec::new();
        for post in posts.iter().filter(|p| p.author.uuid == me) {
            let written = post.created_at.map_or(0, |t| t.millis());
            let known = self.posts.iter().position(|(uuid, ..)| *uuid == post.uuid);
            let before = match known.map(|i| self.posts.swap_remove(i)) {
                Some((_, replies, likes, _)) => Some((replies, likes)),
                // Written since the first look: everything on it is new.
                None if self.looked() && written > self.since_ms => Some((0, 0)),
                None => None,
            };
            if let Some((replies, likes)) = before {
                if post.like_count > likes {
                    self.items.push(Item::Liked {
                        noticed_ms: now,
                        post: post.uuid.clone(),
                        excerpt: excerpt(&post.content),
                        more: post.like_count - likes,
                    });
                }
                if post.reply_count > replies {
                    grown.push((post.uuid.clone(), replies, post.reply_count));
                }
            }
            self.posts.push((post.uuid.clone(), post.reply_count, post.like_count, written));
        }
        // The oldest go first (a few dozen: no sort needed).
        while self.posts.len() > POSTS_REMEMBERED {
            let oldest = self.posts.iter().enumerate().min_by_key(|(_, p)| p.3).map_or(0, |(i, _)| i);
            self.posts.swap_remove(oldest);
        }
        grown
    }

    /// New replies to the account's post, from the pages read for it:
    /// those not by the account and not already listed.
    pub fn add_replies(&mut self, replies: Vec<Post>, me: &str, now: i64) {
        for reply in replies {
            let listed = self.items.iter().any(|i| matches!(i, Item::Reply { reply: r, .. } if r.uuid == reply.uuid));
            if reply.author.uuid != me && !listed {
                self.items.push(Item::Reply { noticed_ms: now, reply });
            }
        }
    }

    /// Compares the followers with the last look: the new ones are one
    /// item ("Ana and 2 others followed you"). Uuid-only entries are kept
    /// and named by uuid alone.
    pub fn compare_followers(&mut self, followers: Vec<UserRef>, now: i64) {
        let known = self.followers.take();
        let mut new = Vec::new();
        if let Some(known) = &known {
            for f in &followers {
                if !known.iter().any(|k| k == f.uuid()) {
                    new.push(match f {
                        UserRef::User(u) => (**u).clone(),
                        UserRef::Uuid(uuid) => User { uuid: uuid.clone(), ..User::default() },
                    });
                }
            }
        }
        if !new.is_empty() {
            self.items.push(Item::Followed { noticed_ms: now, users: new });
        }
        self.followers = Some(followers.iter().map(|f| f.uuid().to_owned()).collect());
        self.followers_refused = false;
    }

    /// Posts that name `@username` by someone the account follows, not
    /// replies to the account, written since the first look, each once.
    pub fn add_mentions<'a>(
        &mut self,
        posts: impl IntoIterator<Item = &'a Post>,
        me: &User,
        follows: impl Fn(&str) -> bool,
        now: i64,
    ) {
        let looked = self.looked();
        let found: Vec<&Post> = posts
            .into_iter()
            .filter(|p| p.author.uuid != me.uuid && follows(&p.author.uuid))
            .filter(|p| !matches!(&p.parent, Parent::Post(parent) if parent.author.uuid == me.uuid))
            .filter(|p| p.created_at.is_some_and(|t| t.millis() > self.since_ms))
            .filter(|p| names(&p.content, &me.username))
            .filter(|p| !self.mentions.contains(&p.uuid))
            .collect();
        for post in found {
            self.mentions.push(post.uuid.clone());
            if looked {
                self.items.push(Item::Mention { noticed_ms: now, post: post.clone() });
            }
        }
        let extra = self.mentions.len().saturating_sub(MENTIONS_REMEMBERED);
        self.mentions.drain(..extra);
    }

    /// Ends a look: the first one becomes the baseline; items newest first
    /// (this look's, in the order found, before the earlier ones), at most `kept`.
    pub fn finish(&mut self, now: i64, kept: usize) {
        self.version = VERSION;
        if !self.looked() {
            self.since_ms = now;
            self.items.clear();
        }
        self.read_ms = now;
        // This look's items were pushed after the earlier ones.
        let found = self.items.iter().rev().take_while(|i| i.noticed_ms() >= now).count();
        self.items.rotate_right(found);
        self.items.truncate(kept);
    }
}

/// Whether `content` names `@username` (whole name, any case).
pub fn names(content: &str, username: &str) -> bool {
    crate::text::segments(content)
        .iter()
        .any(|s| matches!(s, crate::text::Segment::Mention(m) if m.eq_ignore_ascii_case(username)))
}

/// The replies pages (1-based, oldest first) that hold replies number
/// `old + 1 ..= new`: at most the last [`REPLY_PAGES_AT_MOST`]; none when
/// nothing grew.
pub fn reply_pages(old: u64, new: u64) -> std::ops::Range<u32> {
    if new <= old {
        return 0..0;
    }
    let last = new.div_ceil(PAGE) as u32;
    let first = (old / PAGE + 1) as u32;
    first.max(last.saturating_sub(REPLY_PAGES_AT_MOST - 1)).max(1)..last + 1
}

/// Of a page `page` of replies (oldest first), those after the first `old`.
pub fn after(page: u32, old: u64, replies: Vec<Post>) -> Vec<Post> {
    let start = u64::from(page.saturating_sub(1)) * PAGE;
    replies.into_iter().enumerate().filter(|(i, _)| start + *i as u64 >= old).map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use perch_model::Timestamp;

    fn user(uuid: &str) -> User {
        User { uuid: uuid.into(), username: uuid.into(), ..User::default() }
    }

    fn post(uuid: &str, author: &str, replies: u64, likes: u64, at: i64) -> Post {
        Post {
            uuid: uuid.into(),
            author: user(author),
            content: format!("post {uuid}"),
            reply_count: replies,
            like_count: likes,
            created_at: Some(Timestamp(at)),
            ..Post::default()
        }
    }

    #[test]
    fn the_first_look_is_a_baseline_with_nothing_to_read() {
        let mut kept = Kept::default();
        let grown = kept.compare_posts(&[post("p1", "me", 5, 9, 100)], "me", 1_000);
        kept.compare_followers(vec![UserRef::User(Box::new(user("ana")))], 1_000);
        kept.finish(1_000, 60);
        assert!(grown.is_empty(), "old replies are not news");
        assert!(kept.items.is_empty());
        assert_eq!(kept.unread(), 0);
        assert!(kept.looked());
        assert_eq!(kept.followers.as_deref(), Some(&["ana".to_owned()][..]));
    }

    #[test]
    fn what_grew_since_the_last_look_becomes_activity() {
        let mut kept = Kept::default();
        kept.compare_posts(&[post("p1", "me", 1, 2, 100), post("x", "other", 0, 0, 100)], "me", 1_000);
        kept.compare_followers(vec![UserRef::Uuid("ana".into())], 1_000);
        kept.finish(1_000, 60);
        // Later: p1 got a reply and 3 likes, a new post got a reply, bob and
        // carl followed.
        let grown = kept.compare_posts(&[post("p2", "me", 1, 0, 1_500), post("p1", "me", 2, 5, 100)], "me", 2_000);
        assert_eq!(grown, vec![("p2".into(), 0, 1), ("p1".into(), 1, 2)]);
        kept.add_replies(vec![post("r1", "bob", 0, 0, 1_600), post("r0", "me", 0, 0, 1_600)], "me", 2_000);
        kept.add_replies(vec![post("r1", "bob", 0, 0, 1_600)], "me", 2_000);
        let follower = |u: &str| UserRef::User(Box::new(user(u)));
        kept.compare_followers(vec![follower("carl"), follower("bob"), UserRef::Uuid("ana".into())], 2_000);
        kept.finish(2_000, 60);
        assert_eq!(kept.unread(), 3, "{:?}", kept.items);
        assert!(matches!(&kept.items[0], Item::Liked { post, more: 3, .. } if post == "p1"));
        assert!(matches!(&kept.items[1], Item::Reply { reply, .. } if reply.uuid == "r1"), "my own reply is not news");
        assert!(matches!(&kept.items[2], Item::Followed { users, .. } if users.len() == 2 && users[0].uuid == "carl"));
        // Opened: read. A follower who left is no news.
        kept.opened_ms = 2_500;
        assert_eq!(kept.unread(), 0);
        kept.compare_followers(vec![follower("carl")], 3_000);
        assert_eq!(kept.unread(), 0);
    }

    #[test]
    fn mentions_are_by_people_followed_not_replies_to_me_and_each_once() {
        let me = user("mira");
        let mut kept = Kept { since_ms: 50, ..Kept::default() };
        let mut reply_to_me = post("r", "bob", 0, 0, 100);
        reply_to_me.parent = Parent::Post(Box::new(post("mine", "mira", 1, 0, 90)));
        let mut hello = post("h", "bob", 0, 0, 100);
        hello.content = "Hello @Mira!".into();
        reply_to_me.content = "@mira yes".into();
        let mut stranger = hello.clone();
        stranger.uuid = "s".into();
        stranger.author = user("eve");
        let mut longer = hello.clone();
        longer.uuid = "l".into();
        longer.content = "Hi @miranda".into();
        let posts = [hello, reply_to_me, stranger, longer];
        let follows = |u: &str| u == "bob";
        kept.add_mentions(&posts, &me, follows, 1_000);
        kept.add_mentions(&posts, &me, follows, 2_000);
        let found: Vec<_> = kept.items.iter().map(Item::id).collect();
        assert_eq!(found, vec!["m-h"]);
    }

    #[test]
    fn only_the_pages_with_new_replies_are_read() {
        assert_eq!(reply_pages(0, 1), 1..2);
        assert_eq!(reply_pages(14, 16), 1..3);
        assert_eq!(reply_pages(15, 16), 2..3);
        assert_eq!(reply_pages(2, 60), 3..5, "at most the last two pages");
        assert!(reply_pages(3, 3).is_empty());
        assert!(reply_pages(5, 2).is_empty(), "deleted replies are no news");
        let page: Vec<Post> = (0..15).map(|i| post(&format!("r{i}"), "bob", 0, 0, 0)).collect();
        let new = after(1, 13, page);
        assert_eq!(new.iter().map(|p| p.uuid.as_str()).collect::<Vec<_>>(), ["r13", "r14"]);
    }

    #[test]
    fn kept_items_are_bounded_newest_first_and_survive_a_round_trip() {
        let mut kept = Kept { since_ms: 1, ..Kept::default() };
        let liked = |at: i64| Item::Liked { noticed_ms: at, post: format!("p{at}"), excerpt: String::new(), more: 1 };
        kept.items = (0..70).rev().map(liked).collect();
        kept.items.push(liked(100));
        kept.items.push(Item::Liked { noticed_ms: 100, post: "second".into(), excerpt: String::new(), more: 2 });
        kept.finish(100, 60);
        assert_eq!(kept.items.len(), 60);
        let order: Vec<_> = kept.items.iter().take(3).map(Item::id).collect();
        assert_eq!(order, ["l-p100-100", "l-second-100", "l-p69-69"], "this look's first, in the order found");
        let text = serde_json::to_string(&kept).unwrap();
        assert_eq!(serde_json::from_str::<Kept>(&text).unwrap(), kept);
        assert_eq!(excerpt("\n  first line  \nsecond"), "first line");
        assert_eq!(excerpt(&"x".repeat(100)).chars().count(), 81);
    }
}
