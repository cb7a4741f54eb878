//! Who is signed in: the token set, its scopes and the owner's user object,
//! kept in `localStorage` so a reload stays signed in. One `Session` is
//! provided at the top of the app; every page reads it from context.
//! The token is never put in a URL or logged.

use leptos::prelude::*;
use perch_model::{Operation, Scope, Subject, Timestamp, TokenSet, User};
use serde::{Deserialize, Serialize};

const STORAGE_KEY: &str = "perch.session";

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

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

impl Session {
    /// The session saved by an earlier visit, if any.
    pub fn restore() -> Self {
        let saved = storage()
            .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
            .and_then(|text| serde_json::from_str::<Signed>(&text).ok());
        Session { signed: RwSignal::new(saved) }
    }

    pub fn signed(&self) -> Option<Signed> {
        self.signed.get()
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

    /// Whether the token may do `op` on `subject`, as far as the app knows.
    pub fn allows(&self, op: Operation, subject: Subject) -> bool {
        op.allowed(subject, &self.scopes())
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

    pub fn update_user(&self, user: User) {
        self.signed.update(|s| {
            if let Some(s) = s {
                s.user = user;
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
    let Some(storage) = storage() else { return };
    match signed.and_then(|s| serde_json::to_string(s).ok()) {
        Some(text) => {
            let _ = storage.set_item(STORAGE_KEY, &text);
        }
        None => {
            let _ = storage.remove_item(STORAGE_KEY);
        }
    }
}

pub fn use_session() -> Session {
    expect_context::<Session>()
}
