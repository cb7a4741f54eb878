//! Who is signed in: the token set, its scopes and the account's user object,
//! kept in `localStorage` so a reload stays signed in. One `Session` is
//! provided at the top of the app; every page reads it from context.
//! The token is never put in a URL or logged.
//!
//! Tabs share one session. A refresh, sign-in or sign-out in another tab
//! arrives as a `storage` event (`follow_other_tabs`); a tab never writes
//! back a session older than the one kept (`save_over`).

use crate::browser::web_storage::{self, Key};
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
        Session { signed: RwSignal::new(web_storage::get_json::<Signed>(&Key::Session)) }
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

    /// Replaces the tokens after a refresh that started from `before`'s
    /// tokens, keeping the rest.
    pub fn refreshed(&self, before: &Signed, tokens: TokenSet) {
        let after = Signed::from_tokens(tokens, before.user.clone());
        if save_over(&before.token, &after) {
            self.signed.set(Some(after));
        }
    }

    /// Learns from a 403 that the token lacks these scopes.
    pub fn lacks(&self, missing: &[Scope]) {
        let Some(mut signed) = self.signed.get_untracked() else { return };
        let before = signed.scopes.len();
        signed.scopes.retain(|scope| !missing.contains(scope));
        if signed.scopes.len() != before && save_over(&signed.token, &signed) {
            self.signed.set(Some(signed));
        }
    }

    /// Takes what another tab kept, when it is newer than what this tab
    /// holds for the same account (a refresh there). `true` if taken.
    pub fn take_newer_from_storage(&self) -> bool {
        let kept = web_storage::get_json::<Signed>(&Key::Session);
        let here = self.signed.get_untracked();
        match (kept, here) {
            (Some(kept), Some(here)) if kept.user.uuid == here.user.uuid && kept.token != here.token => {
                self.signed.set(Some(kept));
                true
            }
            _ => false,
        }
    }

    /// Ends the session in every tab: forgets the tokens and everything
    /// kept for the account, then reloads, so nothing of it stays in
    /// memory either. Returns what was signed in, for revoking.
    pub fn end(&self) -> Option<Signed> {
        let signed = self.signed.get_untracked();
        save(None);
        if let Some(signed) = &signed {
            web_storage::forget_account(&signed.user.uuid);
        }
        reload();
        signed
    }

    /// Follows what other tabs do to the session, for as long as the app runs:
    /// their refreshes are taken; a sign-out, or another account signing in,
    /// reloads this tab, which then shows what is true.
    pub fn follow_other_tabs(&self) {
        let session = *self;
        let name = Key::Session.name();
        web_storage::on_change_elsewhere(move |changed, value| {
            if changed != name {
                return;
            }
            let kept = value.and_then(|v| serde_json::from_str::<Signed>(&v).ok());
            let here = session.signed.get_untracked();
            match (kept, here) {
                (Some(kept), Some(here)) if kept.user.uuid == here.user.uuid => {
                    if kept != here {
                        session.signed.set(Some(kept));
                    }
                }
                (None, None) => {}
                _ => reload(),
            }
        });
    }
}

fn reload() {
    if let Some(window) = web_sys::window() {
        let _ = window.location().reload();
    }
}

fn save(signed: Option<&Signed>) {
    match signed {
        Some(signed) => {
            web_storage::set_json(&Key::Session, signed);
        }
        None => web_storage::remove(&Key::Session),
    }
}

/// Keeps `after` only if the kept session still holds the token `before`
/// (or nothing was kept, as when storage is refused): another tab may
/// have refreshed or signed out meanwhile, and its word is newer.
fn save_over(before: &str, after: &Signed) -> bool {
    match web_storage::get_json::<Signed>(&Key::Session) {
        Some(kept) if kept.token == before => {
            save(Some(after));
            true
        }
        // Nothing kept in a browser that keeps things: signed out elsewhere.
        None => !web_storage::available(),
        Some(_) => false,
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
