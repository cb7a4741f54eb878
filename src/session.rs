//! Who is signed in: the token set, its scopes and the owner's user object,
//! kept in `localStorage` so a reload stays signed in. One `Session` is
//! provided at the top of the app; every page reads it from context.
//! The token is never put in a URL or logged.

use crate::storage::{self, Key};
use leptos::prelude::*;
use perch_model::{Operation, Scope, Subject, Timestamp, TokenSet, User};
use serde::{Deserialize, Serialize};

/// What is kept across reloads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Signed {
    pub token: String,
    pub token_expires_at: Option<Timestamp>,
    pub refresh_token: Option<String>,
    pub refresh_token_expires_at: Option<Timestamp>,
    /// The scopes the token holds. For a pasted token the server does not
    /// say, so every scope is assumed and 403 answers remove what is missing.
    pub scopes: Vec<Scope>,
    /// Whether `scopes` came from the server (OAuth) or were assumed.
    pub scopes_known: bool,
    pub user: User,
}

impl Signed {
    pub fn from_tokens(tokens: TokenSet, user: User) -> Self {
        Signed {
            token: tokens.token,
            token_expires_at: Some(tokens.token_expires_at),
            refresh_token: Some(tokens.refresh_token),
            refresh_token_expires_at: Some(tokens.refresh_token_expires_at),
            scopes: tokens.scopes,
            scopes_known: true,
            user,
        }
    }

    pub fn from_pasted_token(token: String, user: User) -> Self {
        Signed {
            token,
            token_expires_at: None,
            refresh_token: None,
            refresh_token_expires_at: None,
            scopes: Scope::ALL.to_vec(),
            scopes_known: false,
            user,
        }
    }
}

#[derive(Clone, Copy)]
pub struct Session {
    signed: RwSignal<Option<Signed>>,
}

impl Session {
    /// The session saved by an earlier visit, if any.
    pub fn restore() -> Self {
        Session { signed: RwSignal::new(storage::get_json::<Signed>(&Key::Session)) }
    }

    pub fn signed_untracked(&self) -> Option<Signed> {
        self.signed.get_untracked()
    }

    pub fn is_signed_in(&self) -> bool {
        self.signed.with(Option::is_some)
    }

    pub fn user(&self) -> Option<User> {
        self.signed.with(|s| s.as_ref().map(|s| s.user.clone()))
    }

    pub fn scopes(&self) -> Vec<Scope> {
        self.signed.with(|s| s.as_ref().map(|s| s.scopes.clone()).unwrap_or_default())
    }

    /// Why the token may not do `op` on `subject`, naming the missing
    /// scopes, or `None` when it may as far as the app knows. Every button
    /// and form that is not offered says this, in these words.
    pub fn refusal(&self, op: Operation, subject: Subject) -> Option<String> {
        let missing = op.missing(subject, &self.scopes());
        (!missing.is_empty()).then(|| refusal_text(&missing))
    }

    pub fn sign_in(&self, signed: Signed) {
        save(Some(&signed));
        self.signed.set(Some(signed));
    }

    /// Replaces the tokens after a refresh, keeping the rest.
    pub fn refreshed(&self, tokens: TokenSet) {
        self.signed.update(|s| {
            if let Some(s) = s {
                *s = Signed::from_tokens(tokens, s.user.clone());
                save(Some(s));
            }
        });
    }

    /// Learns from a 403 that the token lacks these scopes.
    pub fn lacks(&self, missing: &[Scope]) {
        if missing.is_empty() {
            return;
        }
        self.signed.update(|s| {
            if let Some(s) = s {
                s.scopes.retain(|scope| !missing.contains(scope));
                save(Some(s));
            }
        });
    }

    pub fn sign_out(&self) {
        save(None);
        self.signed.set(None);
    }
}

fn save(signed: Option<&Signed>) {
    match signed {
        Some(signed) => {
            storage::set_json(&Key::Session, signed);
        }
        None => storage::remove(&Key::Session),
    }
}

/// The words of a refusal for these missing scopes.
pub fn refusal_text(missing: &[Scope]) -> String {
    format!("Your sign-in does not allow this: it lacks {}.", Scope::join(missing))
}

pub fn use_session() -> Session {
    expect_context::<Session>()
}

#[cfg(test)]
mod tests {
    use super::refusal_text;
    use perch_model::{Operation, Scope, Subject};

    #[test]
    fn a_refusal_names_exactly_the_missing_scopes() {
        let missing = Operation::LikePost.missing(Subject::Reply, &[Scope::PostLike, Scope::ReplyGet]);
        assert_eq!(refusal_text(&missing), "Your sign-in does not allow this: it lacks reply.like.");
    }
}
