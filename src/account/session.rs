//! Who is signed in: the token set, its scopes and the account's user object,
//! kept in `localStorage` so a reload stays signed in. One `Session` is
//! provided at the top of the app; every page reads it from context.
//! The token is never put in a URL or logged.
//!
//! Several accounts can be signed in; one is current for the whole browser.
//! The others wait in `perch.accounts` with their tokens, most recently
//! current first. Signing in while signed in adds an account; switching
//! makes another one current and loads Home afresh, so nothing of the one
//! before stays on screen or in memory.
//!
//! Tabs share one session. A refresh, sign-in, switch or sign-out in
//! another tab arrives as a `storage` event (`follow_other_tabs`); a tab
//! never writes back a session older than the one kept (`save_over`).
//!
//! The session gives the API client its tokens (`api::tokens::Tokens`)
//! and, when an account ends here, announces it ([`Session::when_account_ends`]):
//! the local copy, the outbox and Web Storage (drafts among it) each forget
//! their part in answer. The session calls none of them.

use crate::api::tokens::{Held, Tokens};
use crate::api::Api;
use crate::browser::web_storage::{self, Key};
use crate::i18n::{t, Text};
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
    /// The server refused these tokens (revoked elsewhere, the refresh
    /// refused): the account stays listed, with its drafts, marked
    /// "signed out, sign in again", until it signs in again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ended: bool,
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
            ended: false,
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
            ended: false,
        }
    }
}

/// The tokens a sign-in brings ([`Session::enter`]).
pub enum Entering {
    /// An access token the person pasted (`perch-server token`).
    Pasted(String),
    /// The tokens the OAuth flow issued.
    Issued(TokenSet),
}

/// At most this many accounts are signed in at once on one browser.
pub const MAX_ACCOUNTS: usize = 10;

/// What hears that an account ended here: its uuid, and whether its
/// drafts and waiting actions are kept for its next sign-in.
type AccountEnded = Box<dyn Fn(&str, bool)>;

thread_local! {
    /// Who hears that an account ended ([`Session::when_account_ends`]), for
    /// the visit: the app has one session.
    static ENDED: std::cell::RefCell<Vec<AccountEnded>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[derive(Clone, Copy)]
pub struct Session {
    /// The current account.
    signed: RwSignal<Option<Signed>>,
    /// The other accounts signed in here, most recently current first.
    others: RwSignal<Vec<Signed>>,
}

impl Session {
    /// No one signed in, and nothing read from Web Storage: the first
    /// screen as it is rendered at build time (`routes::prerender`).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn nobody() -> Self {
        Session { signed: RwSignal::new(None), others: RwSignal::new(Vec::new()) }
    }

    /// The session saved by an earlier visit, if any. From now on, nothing
    /// is written for an account that is not signed in here
    /// (`web_storage::signed_in_here`).
    pub fn restore() -> Self {
        web_storage::answer_signed_in_with(signed_in_here);
        let signed = web_storage::get_json::<Signed>(&Key::Session);
        let others = kept_others(signed.as_ref());
        Session { signed: RwSignal::new(signed), others: RwSignal::new(others) }
    }

    /// Calls `forget(account, keep_drafts)` whenever an account is signed
    /// out here, before the reload that follows: each part of the app that
    /// keeps something for an account forgets it in answer (its drafts and
    /// waiting actions stay only if `keep_drafts`).
    pub fn when_account_ends(&self, forget: impl Fn(&str, bool) + 'static) {
        ENDED.with(|all| all.borrow_mut().push(Box::new(forget)));
    }

    /// Tells everyone who asked that `account` ended.
    fn announce_ended(&self, account: &str, keep_drafts: bool) {
        ENDED.with(|all| all.borrow().iter().for_each(|forget| forget(account, keep_drafts)));
    }

    /// Signs the current account out: asks the server to revoke its tokens,
    /// then ends it here ([`Session::end`]).
    pub fn sign_out(&self, api: &Api, keep_drafts: bool) {
        if let Some(signed) = self.signed_untracked() {
            api.revoke(signed.refresh_token.unwrap_or(signed.token));
        }
        self.end(keep_drafts);
    }

    /// Signs out of every account signed in here, as [`Session::sign_out`].
    pub fn sign_out_all(&self, api: &Api, keep_drafts: bool) {
        for signed in self.all_untracked() {
            api.revoke(signed.refresh_token.unwrap_or(signed.token));
        }
        self.end_all(keep_drafts);
    }

    /// The other accounts signed in on this browser (reactive).
    pub fn others(&self) -> Vec<Signed> {
        self.others.get()
    }

    /// Every account signed in here, the others first, the current last.
    pub fn all_untracked(&self) -> Vec<Signed> {
        let mut all = self.others.get_untracked();
        all.extend(self.signed.get_untracked());
        all
    }

    /// Whether one more account may be added.
    pub fn can_add(&self) -> bool {
        self.others.with(Vec::len) + 1 < MAX_ACCOUNTS
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
    pub fn refusal(&self, op: Operation, subject: Subject) -> Option<Refusal> {
        let missing = op.missing(subject, &self.scopes());
        (!missing.is_empty()).then_some(Refusal { missing })
    }

    /// Makes `signed` the current account. Signing in while another
    /// account is current adds this one: the other is kept, and `true` says
    /// so (the caller then loads the page afresh, leaving nothing of the
    /// other account in memory).
    pub fn sign_in(&self, signed: Signed) -> bool {
        let before = self.signed.get_untracked().filter(|b| b.user.uuid != signed.user.uuid);
        let added = before.is_some();
        let mut others = self.others.get_untracked();
        others.splice(0..0, before);
        tidy(&mut others, Some(&signed));
        save_others(&others);
        self.others.set(others);
        save(Some(&signed));
        self.signed.set(Some(signed));
        added
    }

    /// The one way into the session, for a pasted token and for the
    /// tokens the OAuth flow issued, once the server said who owns them
    /// (`Api::user_of_token`): signs that account in ([`Session::sign_in`]).
    /// `true`: it was added beside another account, and the next page must
    /// be loaded afresh, so nothing of the one before stays in memory.
    pub fn enter(&self, tokens: Entering, user: User) -> bool {
        self.sign_in(match tokens {
            Entering::Pasted(token) => Signed::from_pasted_token(token, user),
            Entering::Issued(set) => Signed::from_tokens(set, user),
        })
    }

    /// Makes the kept account `uuid` current in every tab, and opens Home
    /// where that account left it, loaded afresh.
    pub fn switch_to(&self, uuid: &str) {
        let mut others = self.others.get_untracked();
        let Some(at) = others.iter().position(|s| s.user.uuid == uuid) else { return };
        let next = others.remove(at);
        others.splice(0..0, self.signed.get_untracked());
        tidy(&mut others, Some(&next));
        save_others(&others);
        save(Some(&next));
        let _ = window().location().assign(&crate::nav::AppPath::Home.href());
    }

    /// Replaces the tokens after a refresh that started from `before`'s
    /// tokens, keeping the rest.
    fn refreshed(&self, before: &Held, tokens: TokenSet) {
        let Some(current) = self.signed.get_untracked().filter(|s| s.user.uuid == before.account) else { return };
        let after = Signed::from_tokens(tokens, current.user);
        // Kept here, or already kept by the tab that refreshed.
        let kept_already = || web_storage::get_json::<Signed>(&Key::Session).is_some_and(|k| k.token == after.token);
        if save_over(&before.token, &after) || kept_already() {
            self.signed.set(Some(after));
        }
    }

    /// Learns from a 401 that the server refuses `token`, when it is still
    /// the current account's (not one another tab has replaced since):
    /// the account is marked ended, here and in every tab.
    pub fn refused(&self, token: &str) {
        let Some(mut signed) = self.signed.get_untracked().filter(|s| s.token == token && !s.ended) else { return };
        signed.ended = true;
        if save_over(token, &signed) {
            self.signed.set(Some(signed));
        }
    }

    /// Whether the current account's sign-in was refused by the server.
    /// Whether the current account's sign-in ended, read in place.
    pub fn ended_untracked(&self) -> bool {
        self.signed.with_untracked(|s| s.as_ref().is_some_and(|s| s.ended))
    }

    pub fn ended(&self) -> bool {
        self.signed.with(|s| s.as_ref().is_some_and(|s| s.ended))
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

    /// Signs the current account out in every tab: forgets its tokens and
    /// everything kept for it; the account current before it, if any,
    /// becomes current. Reloads, so nothing of it stays in memory either.
    /// Its drafts stay only if `keep_drafts`, for its next sign-in.
    /// Returns what was signed out, for revoking.
    pub fn end(&self, keep_drafts: bool) -> Option<Signed> {
        let signed = self.signed.get_untracked();
        let mut others = self.others.get_untracked();
        let next = (!others.is_empty()).then(|| others.remove(0));
        save_others(&others);
        save(next.as_ref());
        if let Some(signed) = &signed {
            self.announce_ended(&signed.user.uuid, keep_drafts);
        }
        reload();
        signed
    }

    /// Signs every account out, as [`Session::end`] does one.
    pub fn end_all(&self, keep_drafts: bool) {
        let all = self.all_untracked();
        save_others(&[]);
        save(None);
        for signed in &all {
            self.announce_ended(&signed.user.uuid, keep_drafts);
        }
        reload();
    }

    /// Follows what other tabs do to the session, for as long as the app runs:
    /// their refreshes are taken; a sign-out, or another account signing in,
    /// reloads this tab, which then shows what is true.
    pub fn follow_other_tabs(&self) {
        let session = *self;
        let (name, others_name) = (Key::Session.name(), Key::OtherAccounts.name());
        web_storage::on_change_elsewhere(move |changed, value| {
            if changed == others_name {
                let mut others = value.and_then(|v| serde_json::from_str::<Vec<Signed>>(&v).ok()).unwrap_or_default();
                tidy(&mut others, session.signed.get_untracked().as_ref());
                session.others.set(others);
                return;
            }
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

/// The session keeps the tokens the API client asks for.
impl Tokens for Session {
    fn held(&self) -> Option<Held> {
        self.signed.with_untracked(|s| {
            s.as_ref().map(|s| Held {
                account: s.user.uuid.clone(),
                token: s.token.clone(),
                expires_at: s.token_expires_at,
                refresh_token: s.refresh_token.clone(),
            })
        })
    }

    fn held_other(&self, account: &str) -> Option<Held> {
        self.others.with_untracked(|others| {
            others.iter().find(|s| s.user.uuid == account && !s.ended).map(|s| Held {
                account: s.user.uuid.clone(),
                token: s.token.clone(),
                expires_at: s.token_expires_at,
                refresh_token: s.refresh_token.clone(),
            })
        })
    }

    fn refreshed(&self, before: &Held, tokens: TokenSet) {
        Session::refreshed(self, before, tokens)
    }

    fn take_newer(&self) -> bool {
        self.take_newer_from_storage()
    }

    fn refused(&self, token: &str) {
        Session::refused(self, token)
    }

    fn lacks(&self, missing: &[Scope]) {
        Session::lacks(self, missing)
    }
}

/// The other accounts kept, as [`tidy`] leaves them.
fn kept_others(current: Option<&Signed>) -> Vec<Signed> {
    let mut others = web_storage::get_json::<Vec<Signed>>(&Key::OtherAccounts).unwrap_or_default();
    tidy(&mut others, current);
    others
}

/// What is kept may be another tab's or an older version's word: one entry
/// per account, never the current one, none without a user, and no more
/// than [`MAX_ACCOUNTS`] in all.
fn tidy(others: &mut Vec<Signed>, current: Option<&Signed>) {
    let mut seen: Vec<String> = current.map(|c| c.user.uuid.clone()).into_iter().collect();
    others.retain(|s| {
        let new = !s.user.uuid.is_empty() && !seen.contains(&s.user.uuid);
        seen.push(s.user.uuid.clone());
        new
    });
    others.truncate(MAX_ACCOUNTS - 1);
}

fn save_others(others: &[Signed]) {
    if others.is_empty() {
        web_storage::remove(&Key::OtherAccounts);
    } else {
        web_storage::set_json(&Key::OtherAccounts, &others);
    }
}

/// Reloads, once what the accounts' end started (IndexedDB drops) is done.
fn reload() {
    crate::browser::leaving::reload();
}

/// Whether `account` is kept as signed in here now, current or not.
fn signed_in_here(account: &str) -> bool {
    current_in_storage().is_some_and(|uuid| uuid == account)
        || web_storage::get_json::<Vec<Signed>>(&Key::OtherAccounts)
            .is_some_and(|others| others.iter().any(|s| s.user.uuid == account))
}

/// The uuid of the account current in this browser as kept, which another
/// tab may have changed since this one started.
pub fn current_in_storage() -> Option<String> {
    web_storage::get_json::<Signed>(&Key::Session).map(|s| s.user.uuid)
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

/// An action the sign-in does not allow: the scopes it lacks.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub missing: Vec<Scope>,
}

impl Refusal {
    /// Why, in words.
    pub fn text(&self) -> Text {
        refusal_text(&self.missing)
    }
}

/// The words of a refusal for these missing scopes.
pub fn refusal_text(missing: &[Scope]) -> Text {
    t::refused_lacks(Scope::join(missing))
}

pub fn use_session() -> Session {
    expect_context::<Session>()
}

#[cfg(test)]
mod tests {
    use super::{refusal_text, tidy, Signed, MAX_ACCOUNTS};
    use perch_model::{Operation, Scope, Subject, User};

    fn account(uuid: &str) -> Signed {
        Signed::from_pasted_token(format!("t-{uuid}"), User { uuid: uuid.into(), ..User::default() })
    }

    #[test]
    fn kept_accounts_are_one_per_user_never_the_current_one_and_bounded() {
        // What another tab or an older version kept is not trusted as it is.
        let mut others: Vec<Signed> = ["b", "current", "c", "b", ""].into_iter().map(account).collect();
        tidy(&mut others, Some(&account("current")));
        let uuids: Vec<&str> = others.iter().map(|s| s.user.uuid.as_str()).collect();
        assert_eq!(uuids, ["b", "c"]);

        let mut many: Vec<Signed> = (0..25).map(|i| account(&format!("u{i}"))).collect();
        tidy(&mut many, Some(&account("current")));
        assert_eq!(many.len(), MAX_ACCOUNTS - 1, "with the current one, ten in all");
        assert_eq!(many[0].user.uuid, "u0", "the most recently current are kept");
    }

    #[test]
    fn a_refusal_names_exactly_the_missing_scopes() {
        let missing = Operation::LikePost.missing(Subject::Reply, &[Scope::PostLike, Scope::ReplyGet]);
        assert_eq!(refusal_text(&missing), crate::i18n::t::refused_lacks("reply.like"));
    }
}
