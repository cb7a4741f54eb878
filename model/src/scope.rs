//! Scopes and the seed's section 5 as data.
//!
//! The server enforces access from [`Operation::required`], and the app
//! decides what to offer from the same table, so the two cannot disagree.

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// One of the fifteen scope names of the interface, spelled exactly as there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    PostGet,
    PostSend,
    PostEdit,
    PostDelete,
    PostLike,
    ReplyGet,
    ReplyPost,
    ReplyEdit,
    ReplyDelete,
    ReplyLike,
    UserGet,
    UserEmail,
    UserFollow,
    UserFollowingGet,
    UserFollowersGet,
}

impl Scope {
    pub const ALL: [Scope; 15] = [
        Scope::PostGet,
        Scope::PostSend,
        Scope::PostEdit,
        Scope::PostDelete,
        Scope::PostLike,
        Scope::ReplyGet,
        Scope::ReplyPost,
        Scope::ReplyEdit,
        Scope::ReplyDelete,
        Scope::ReplyLike,
        Scope::UserGet,
        Scope::UserEmail,
        Scope::UserFollow,
        Scope::UserFollowingGet,
        Scope::UserFollowersGet,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::PostGet => "post.get",
            Scope::PostSend => "post.send",
            Scope::PostEdit => "post.edit",
            Scope::PostDelete => "post.delete",
            Scope::PostLike => "post.like",
            Scope::ReplyGet => "reply.get",
            Scope::ReplyPost => "reply.post",
            Scope::ReplyEdit => "reply.edit",
            Scope::ReplyDelete => "reply.delete",
            Scope::ReplyLike => "reply.like",
            Scope::UserGet => "user.get",
            Scope::UserEmail => "user.email",
            Scope::UserFollow => "user.follow",
            Scope::UserFollowingGet => "user.following.get",
            Scope::UserFollowersGet => "user.followers.get",
        }
    }

    /// Parses a comma-separated list such as `post.get,reply.get`.
    /// Blank items and surrounding spaces are ignored; duplicates are kept once.
    pub fn parse_list(text: &str) -> Result<Vec<Scope>, UnknownScope> {
        let mut out: Vec<Scope> = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let scope = item.parse()?;
            if !out.contains(&scope) {
                out.push(scope);
            }
        }
        Ok(out)
    }

    /// Writes a list as `a,b,c`.
    pub fn join(scopes: &[Scope]) -> String {
        scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(",")
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A scope name that is not one of the fifteen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownScope(pub String);

impl fmt::Display for UnknownScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown scope {:?}", self.0)
    }
}

impl std::error::Error for UnknownScope {}

impl FromStr for Scope {
    type Err = UnknownScope;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Scope::ALL.into_iter().find(|scope| scope.as_str() == s).ok_or_else(|| UnknownScope(s.to_owned()))
    }
}

impl Serialize for Scope {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Scope {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(de::Error::custom)
    }
}

/// Whether an operation acts on a top-level post or on a reply; the seed's
/// slash picks the first scope set for posts and the second for replies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    Post,
    Reply,
}

impl Subject {
    /// A post with a parent is a reply.
    pub fn of(has_parent: bool) -> Self {
        if has_parent {
            Subject::Reply
        } else {
            Subject::Post
        }
    }
}

/// The eleven operations of the interface, numbered as in the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    GetPost,
    GetPostReplies,
    SendPost,
    UpdatePost,
    DeletePost,
    LikePost,
    GetUser,
    GetUserPosts,
    FollowUser,
    GetFollowing,
    GetFollowers,
}

impl Operation {
    pub const ALL: [Operation; 11] = [
        Operation::GetPost,
        Operation::GetPostReplies,
        Operation::SendPost,
        Operation::UpdatePost,
        Operation::DeletePost,
        Operation::LikePost,
        Operation::GetUser,
        Operation::GetUserPosts,
        Operation::FollowUser,
        Operation::GetFollowing,
        Operation::GetFollowers,
    ];

    /// The name the seed gives the operation in section 5.
    pub fn name(self) -> &'static str {
        match self {
            Operation::GetPost => "Get Post",
            Operation::GetPostReplies => "Get Post Replies",
            Operation::SendPost => "Send Post",
            Operation::UpdatePost => "Update Post",
            Operation::DeletePost => "Delete Post",
            Operation::LikePost => "Like/Unlike",
            Operation::GetUser => "Get User",
            Operation::GetUserPosts => "Get User Posts",
            Operation::FollowUser => "Follow/Unfollow",
            Operation::GetFollowing => "Get Following",
            Operation::GetFollowers => "Get Followers",
        }
    }

    /// The scopes a token needs for this operation on `subject`. Operations on
    /// users ignore the subject. Get User's `user.email` is not listed: it
    /// decides only whether the owner's email fields are filled.
    pub fn required(self, subject: Subject) -> &'static [Scope] {
        use Scope::*;
        use Subject::*;
        match (self, subject) {
            (Operation::GetPost, Post) => &[PostGet],
            (Operation::GetPost, Reply) => &[ReplyGet],
            (Operation::GetPostReplies, _) => &[PostGet, ReplyGet],
            (Operation::SendPost, Post) => &[PostGet, PostSend],
            (Operation::SendPost, Reply) => &[ReplyGet, ReplyPost],
            (Operation::UpdatePost, Post) => &[PostGet, PostEdit],
            (Operation::UpdatePost, Reply) => &[ReplyGet, ReplyEdit],
            (Operation::DeletePost, Post) => &[PostGet, PostDelete],
            (Operation::DeletePost, Reply) => &[ReplyGet, ReplyDelete],
            (Operation::LikePost, Post) => &[PostGet, PostLike],
            (Operation::LikePost, Reply) => &[ReplyGet, ReplyLike],
            (Operation::GetUser, _) => &[UserGet],
            (Operation::GetUserPosts, _) => &[UserGet, PostGet],
            (Operation::FollowUser, _) => &[UserGet, UserFollow],
            (Operation::GetFollowing, _) => &[UserGet, UserFollowingGet],
            (Operation::GetFollowers, _) => &[UserGet, UserFollowersGet],
        }
    }

    /// The scopes of [`Operation::required`] that `held` lacks, in table order.
    pub fn missing(self, subject: Subject, held: &[Scope]) -> Vec<Scope> {
        self.required(subject).iter().copied().filter(|s| !held.contains(s)).collect()
    }

    /// Whether a token holding `held` may perform this operation on `subject`.
    pub fn allowed(self, subject: Subject, held: &[Scope]) -> bool {
        self.missing(subject, held).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED_NAMES: [&str; 15] = [
        "post.get",
        "post.send",
        "post.edit",
        "post.delete",
        "post.like",
        "reply.get",
        "reply.post",
        "reply.edit",
        "reply.delete",
        "reply.like",
        "user.get",
        "user.email",
        "user.follow",
        "user.following.get",
        "user.followers.get",
    ];

    #[test]
    fn the_fifteen_names_parse_and_print_exactly() {
        for name in SEED_NAMES {
            let scope: Scope = name.parse().unwrap();
            assert_eq!(scope.to_string(), name);
            assert_eq!(serde_json::to_string(&scope).unwrap(), format!("\"{name}\""));
        }
        let distinct: std::collections::BTreeSet<_> = Scope::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(distinct.len(), 15);
        for near_miss in ["post.post", "reply.send", "Post.get", "user.followers", ""] {
            assert!(near_miss.parse::<Scope>().is_err(), "{near_miss:?}");
        }
    }

    #[test]
    fn lists_parse_with_spaces_blanks_and_duplicates() {
        assert_eq!(
            Scope::parse_list(" post.get, reply.get,,post.get ").unwrap(),
            vec![Scope::PostGet, Scope::ReplyGet]
        );
        assert_eq!(Scope::parse_list("").unwrap(), vec![]);
        assert_eq!(Scope::parse_list("post.get,nope"), Err(UnknownScope("nope".into())));
        assert_eq!(UnknownScope("nope".into()).to_string(), "unknown scope \"nope\"");
        assert_eq!(Scope::join(&[Scope::UserGet, Scope::UserEmail]), "user.get,user.email");
        assert_eq!(Scope::parse_list(&Scope::join(&Scope::ALL)).unwrap(), Scope::ALL.to_vec());
    }

    /// Section 5 of the seed, as printed there.
    #[test]
    fn the_table_matches_section_5_of_the_seed() {
        let seed = [
            ("Get Post", "post.get", "reply.get"),
            ("Get Post Replies", "post.get,reply.get", "post.get,reply.get"),
            ("Send Post", "post.get,post.send", "reply.get,reply.post"),
            ("Update Post", "post.get,post.edit", "reply.get,reply.edit"),
            ("Delete Post", "post.get,post.delete", "reply.get,reply.delete"),
            ("Like/Unlike", "post.get,post.like", "reply.get,reply.like"),
            ("Get User", "user.get", "user.get"),
            ("Get User Posts", "user.get,post.get", "user.get,post.get"),
            ("Follow/Unfollow", "user.get,user.follow", "user.get,user.follow"),
            ("Get Following", "user.get,user.following.get", "user.get,user.following.get"),
            ("Get Followers", "user.get,user.followers.get", "user.get,user.followers.get"),
        ];
        // Every operation is there, under the name the seed gives it.
        assert_eq!(Operation::ALL.len(), seed.len());
        for (name, post, reply) in seed {
            let op = Operation::ALL.iter().copied().find(|op| op.name() == name);
            let op = op.unwrap_or_else(|| panic!("no operation is named {name:?}"));
            assert_eq!(Scope::join(op.required(Subject::Post)), post, "{name}");
            assert_eq!(Scope::join(op.required(Subject::Reply)), reply, "{name}");
        }
    }

    #[test]
    fn missing_names_exactly_what_a_token_lacks() {
        let held = [Scope::PostGet, Scope::ReplyGet, Scope::ReplyPost];
        assert!(Operation::SendPost.allowed(Subject::Reply, &held));
        assert_eq!(Operation::SendPost.missing(Subject::Post, &held), vec![Scope::PostSend]);
        assert_eq!(Operation::LikePost.missing(Subject::Reply, &held), vec![Scope::ReplyLike]);
        assert_eq!(Operation::GetFollowers.missing(Subject::Post, &[]), vec![Scope::UserGet, Scope::UserFollowersGet]);
        assert!(Operation::GetPostReplies.allowed(Subject::Post, &held));
        assert!(!Operation::GetPostReplies.allowed(Subject::Post, &[Scope::PostGet]));
    }
}
