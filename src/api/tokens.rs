//! What the API client asks of whoever keeps the sign-in, and tells it.
//! The client owns this trait and the session (`account/session.rs`)
//! implements it, so the client never imports the account room: it asks
//! for the current account's tokens, hands over refreshed ones, and says
//! when the server refused a token (401) or found scopes missing (403).

use perch_model::{Scope, Timestamp, TokenSet};

/// The current account's tokens, as a request needs them.
#[derive(Clone, Debug, PartialEq)]
pub struct Held {
    /// The account's uuid.
    pub account: String,
    pub token: String,
    pub expires_at: Option<Timestamp>,
    pub refresh_token: Option<String>,
}

/// The keeper of the sign-in, as the API client sees it.
pub trait Tokens: Send + Sync + 'static {
    /// The current account's tokens, if an account is current.
    fn held(&self) -> Option<Held>;
    /// The tokens of `account`, signed in here but not current (its sign-in
    /// not ended): for reading that account's own activity
    /// ([`crate::api::Api::as_other_account`]).
    fn held_other(&self, account: &str) -> Option<Held>;
    /// Keeps `tokens`, refreshed from `before`'s, unless the account or
    /// its tokens changed meanwhile (another tab's word is newer).
    fn refreshed(&self, before: &Held, tokens: TokenSet);
    /// Takes tokens another tab kept for the same account, when they are
    /// newer than the ones held here; `true` if it took them.
    fn take_newer(&self) -> bool;
    /// The server refused `token` (401): the account's sign-in ended.
    fn refused(&self, token: &str);
    /// The server says the token lacks these scopes (403).
    fn lacks(&self, missing: &[Scope]);
}
