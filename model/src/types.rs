//! The resources and the request and response bodies of the eleven
//! operations, the error body and the OAuth bodies.
//!
//! Reading is tolerant (see the contract's "Tolerant reading"): missing fields
//! take defaults, `null` where a string, list or number belongs reads as
//! empty, unknown fields are ignored. Writing is always the canonical form.

use crate::scope::Scope;
use crate::time::Timestamp;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// Reads `null` as the type's default.
fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// For fields that are either absent (outer `None`) or present and possibly
/// `null` (`Some(None)`), such as a user's email fields.
mod present_or_absent {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer, T: Serialize>(v: &Option<Option<T>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(inner) => inner.serialize(s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
        Option::<T>::deserialize(d).map(Some)
    }
}

/// The application a post was sent from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct Application {
    #[serde(deserialize_with = "null_as_default")]
    pub uuid: String,
    #[serde(deserialize_with = "null_as_default")]
    pub name: String,
    pub website: Option<String>,
}

/// A badge: written as a string, read from a string or an object with a `name`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Badge(pub String);

impl Serialize for Badge {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Badge {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Named {
            name: String,
        }
        match one_of::<D, Named>(d, "a badge: a string or an object with a `name`")? {
            Found::Uuid(name) | Found::Object(Named { name }) => Ok(Badge(name)),
            Found::Null => Err(de::Error::custom("a badge is a string or an object with a `name`")),
        }
    }
}

/// A user, as every operation returns it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct User {
    #[serde(deserialize_with = "null_as_default")]
    pub uuid: String,
    #[serde(deserialize_with = "null_as_default")]
    pub username: String,
    #[serde(deserialize_with = "null_as_default")]
    pub display_name: String,
    pub avatar: Option<String>,
    /// Absent for other users; `Some(None)` (written as `null`) for the token
    /// owner without scope `user.email`.
    #[serde(skip_serializing_if = "Option::is_none", with = "present_or_absent")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub email: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none", with = "present_or_absent")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<bool>))]
    pub email_verified: Option<Option<bool>>,
    #[serde(deserialize_with = "null_as_default")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub badge: Vec<Badge>,
    #[serde(deserialize_with = "null_as_default")]
    pub bio: String,
    /// The number of followers (the seed's name).
    #[serde(deserialize_with = "null_as_default")]
    pub follow_count: u64,
    #[serde(deserialize_with = "null_as_default")]
    pub following_count: u64,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub joined: Option<Timestamp>,
    /// Extension: whether the token owner follows this user, when the server says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub followed: Option<bool>,
}

impl User {
    /// The name a person reads: the display name, or the username when the
    /// display name is empty.
    pub fn shown_name(&self) -> &str {
        if self.display_name.is_empty() {
            &self.username
        } else {
            &self.display_name
        }
    }
}

/// What a post replies to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Parent {
    /// The parent post, one level deep (its own `parent` is a uuid or null).
    Post(Box<Post>),
    /// Only the parent's uuid: an embedded parent's parent, or a deleted parent.
    Uuid(String),
    /// A top-level post.
    #[default]
    None,
}

impl Parent {
    /// The uuid of the post replied to, if this is a reply.
    pub fn uuid(&self) -> Option<&str> {
        match self {
            Parent::Post(p) => Some(&p.uuid),
            Parent::Uuid(u) => Some(u),
            Parent::None => None,
        }
    }

    pub fn is_reply(&self) -> bool {
        !matches!(self, Parent::None)
    }

    pub fn post(&self) -> Option<&Post> {
        match self {
            Parent::Post(p) => Some(p),
            _ => None,
        }
    }
}

/// A post or a reply.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct Post {
    #[serde(deserialize_with = "null_as_default")]
    pub uuid: String,
    /// `null` for a top-level post; for a reply the parent post, one level
    /// deep (its own `parent` a uuid string or null); the uuid string alone
    /// when the parent was deleted.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub parent: Parent,
    #[serde(deserialize_with = "null_as_default")]
    pub author: User,
    #[serde(deserialize_with = "null_as_default")]
    pub content: String,
    pub from: Option<Application>,
    #[serde(deserialize_with = "null_as_default")]
    pub locked: bool,
    #[serde(deserialize_with = "null_as_default")]
    pub reply_count: u64,
    #[serde(deserialize_with = "null_as_default")]
    pub like_count: u64,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime))]
    pub created_at: Option<Timestamp>,
    /// Extension: whether the token owner has liked this post, when the server says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub liked: Option<bool>,
}

/// An element of a followers or following list: a user, or only a uuid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum UserRef {
    User(Box<User>),
    Uuid(String),
}

impl UserRef {
    pub fn uuid(&self) -> &str {
        match self {
            UserRef::User(u) => &u.uuid,
            UserRef::Uuid(u) => u,
        }
    }

    pub fn user(&self) -> Option<&User> {
        match self {
            UserRef::User(u) => Some(u),
            UserRef::Uuid(_) => None,
        }
    }
}

impl Default for UserRef {
    fn default() -> Self {
        UserRef::Uuid(String::new())
    }
}

// `Parent` and `UserRef` are read by hand rather than with
// `#[serde(untagged)]`: untagged buffers the value and reads the post or
// user a second way, which compiles a second reader of `Post` and `User`
// into the web app (about 2 KB brotli, `docs/size.md`). Here an object is
// read by the same reader as a post or user anywhere else.

/// Reads a value that is `null`, a uuid string or an object (`what`,
/// for the error).
struct OneOf<T>(std::marker::PhantomData<T>, &'static str);

/// What [`OneOf`] found.
enum Found<T> {
    Null,
    Uuid(String),
    Object(T),
}

impl<'de, T: Deserialize<'de>> de::Visitor<'de> for OneOf<T> {
    type Value = Found<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.1)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Found<T>, E> {
        Ok(Found::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Found<T>, E> {
        Ok(Found::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Found<T>, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Found<T>, E> {
        Ok(Found::Uuid(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Found<T>, E> {
        Ok(Found::Uuid(v))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Found<T>, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Found::Object)
    }
}

fn one_of<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D, what: &'static str) -> Result<Found<T>, D::Error> {
    d.deserialize_any(OneOf(std::marker::PhantomData, what))
}

impl<'de> Deserialize<'de> for Parent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match one_of::<D, Post>(d, "null, a post's uuid or a post")? {
            Found::Null => Parent::None,
            Found::Uuid(uuid) => Parent::Uuid(uuid),
            Found::Object(post) => Parent::Post(Box::new(post)),
        })
    }
}

impl<'de> Deserialize<'de> for UserRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match one_of::<D, User>(d, "a user's uuid or a user")? {
            // Read as "no user", as a `null` string reads as "" elsewhere.
            Found::Null => Ok(UserRef::default()),
            Found::Uuid(uuid) => Ok(UserRef::Uuid(uuid)),
            Found::Object(user) => Ok(UserRef::User(Box::new(user))),
        }
    }
}

/// Body of Send Post (operation 3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NewPost {
    /// 1 to 500 characters (Unicode scalar values), not only whitespace and
    /// invisible characters, no NUL (`content.rs`).
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 500,
            pattern = r"^[^\u0000]*[^\s\u0000\u200B-\u200D\u2060\uFEFF][^\u0000]*$"
        )
    )]
    pub content: String,
    #[serde(default)]
    pub locked: bool,
    /// The uuid of the post replied to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(min_length = 1))]
    pub parent: Option<String>,
}

/// Body of Update Post (operation 4): at least one field present.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PostUpdate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// 1 to 500 characters (Unicode scalar values), not only whitespace and
    /// invisible characters, no NUL (`content.rs`).
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 500,
            pattern = r"^[^\u0000]*[^\s\u0000\u200B-\u200D\u2060\uFEFF][^\u0000]*$",
            nullable = false
        )
    )]
    #[serde(deserialize_with = "present")]
    pub content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    #[serde(deserialize_with = "present")]
    pub locked: Option<bool>,
}

/// A field that may be left out but, when present, must hold a value: an
/// explicit `null` is refused rather than read as "no change".
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

impl PostUpdate {
    pub fn is_empty(&self) -> bool {
        self.content.is_none() && self.locked.is_none()
    }
}

/// Response of Get Post Replies (operation 2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct RepliesPage {
    pub post: Post,
    #[serde(deserialize_with = "null_as_default")]
    pub replies: Vec<Post>,
}

/// Response of Get User Posts (operation 8). `user` is the user's uuid.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct UserPostsPage {
    /// The user's uuid.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub user: UserRef,
    #[serde(deserialize_with = "null_as_default")]
    pub posts: Vec<Post>,
}

/// What a like toggle did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum LikeAction {
    Liked,
    Unliked,
}

/// Response of Like/Unlike (operation 6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LikeResult {
    pub action: LikeAction,
    #[serde(default)]
    pub uuid: String,
}

/// What a follow toggle did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum FollowAction {
    Followed,
    Unfollowed,
}

/// Response of Follow/Unfollow (operation 9).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FollowResult {
    pub action: FollowAction,
    #[serde(default)]
    pub uuid: String,
}

/// Response of Get Following (operation 10).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct FollowingList {
    #[serde(deserialize_with = "null_as_default")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<User>))]
    pub following: Vec<UserRef>,
}

/// Response of Get Followers (operation 11).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct FollowersList {
    #[serde(deserialize_with = "null_as_default")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<User>))]
    pub followers: Vec<UserRef>,
}

/// Response of `GET /ping`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Ping {
    pub ping: String,
}

/// The body of every error: `code` repeats the status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    pub code: u16,
    #[serde(rename = "_message", default)]
    pub message: String,
}

/// Body of `POST /api/oauth/code`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CodeExchange {
    #[cfg_attr(feature = "openapi", schema(min_length = 1))]
    pub code: String,
    /// RFC 7636: 43 to 128 characters.
    #[cfg_attr(feature = "openapi", schema(min_length = 43, max_length = 128))]
    pub code_verifier: String,
}

/// Body of `POST /api/oauth/refreshtoken`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RefreshRequest {
    #[serde(rename = "refreshToken")]
    #[cfg_attr(feature = "openapi", schema(min_length = 1))]
    pub refresh_token: String,
}

/// Body of `POST /api/oauth/revoke` (beyond the seed, after RFC 7009): an
/// access or a refresh token; its whole family stops working.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RevokeRequest {
    #[cfg_attr(feature = "openapi", schema(min_length = 1))]
    pub token: String,
}

/// The answer of both OAuth token calls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenSet {
    pub token: String,
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub token_expires_at: Timestamp,
    pub refresh_token: String,
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub refresh_token_expires_at: Timestamp,
    /// Written as a list; read from a list or an `a,b,c` string, dropping
    /// names this client does not know.
    #[serde(default, deserialize_with = "scopes_tolerant")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub scopes: Vec<Scope>,
}

fn scopes_tolerant<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Scope>, D::Error> {
    // A list of names, one comma-joined string, or null; read by hand (see
    // `OneOf` for why not `untagged`).
    struct Names;
    impl<'de> de::Visitor<'de> for Names {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("scopes: a list of names, a comma-separated string or null")
        }
        fn visit_unit<E: de::Error>(self) -> Result<Vec<String>, E> {
            Ok(Vec::new())
        }
        fn visit_str<E: de::Error>(self, text: &str) -> Result<Vec<String>, E> {
            Ok(text.split(',').map(|s| s.trim().to_owned()).collect())
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
            let mut names = Vec::new();
            while let Some(name) = seq.next_element::<String>()? {
                names.push(name);
            }
            Ok(names)
        }
    }
    let names = d.deserialize_any(Names)?;
    let mut scopes: Vec<Scope> = Vec::new();
    for scope in names.iter().filter_map(|n| n.parse::<Scope>().ok()) {
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    Ok(scopes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parent_says_whether_its_post_is_a_reply() {
        assert!(!Parent::None.is_reply());
        assert!(Parent::Uuid("p-1".into()).is_reply());
        let post = Post { uuid: "p-2".into(), ..Post::default() };
        assert!(Parent::Post(Box::new(post)).is_reply());
        assert_eq!(Parent::Uuid("p-1".into()).uuid(), Some("p-1"));
        assert_eq!(Parent::None.uuid(), None);
    }
}
