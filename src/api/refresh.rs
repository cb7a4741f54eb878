//! One refresh of an account's tokens across every tab. The server retires
//! a refresh token on use, and one that follows best practice revokes the
//! whole family when a retired one comes back: two tabs must never send the
//! same refresh token twice, whatever the timing (issue 45).
//!
//! - The refresh runs under the account's Web Lock (`browser/tab_lock.rs`):
//!   read the pair, refresh, keep the new pair, let go.
//! - The new pair is kept in IndexedDB (`perch-tokens`, written before the
//!   lock is let go) beside Web Storage: a tab's copy of Web Storage may
//!   lag another tab's write on a busy machine, IndexedDB's does not. A tab
//!   that waited reads the pair that replaced its own there and sends
//!   nothing.
//! - The refresh is the account's, not the page's: it runs in a task of its
//!   own, so a request that gave up on it (its page went) does not drop the
//!   answer, with the new pair the server already made.
//! - A holder that hangs is taken over after [`WAIT_MS`]; a refresh that
//!   gets no answer gives up after [`ANSWER_MS`]; a closed tab lets go at
//!   once. The server's grace for a just-retired token is a safety net, not
//!   the design.

use super::tokens::Held;
use super::{parse, Api, ApiError};
use crate::browser::indexed_db::{call, Db};
use perch_model::{RefreshRequest, TokenSet};
use wasm_bindgen::JsValue;

/// The longest a tab waits for another tab's refresh before taking over.
pub const WAIT_MS: u32 = 30_000;
/// The longest a refresh request waits for its answer.
pub const ANSWER_MS: u32 = 20_000;

impl Api {
    /// Refreshes the current account's tokens, which were `before`'s when
    /// the caller saw them: once across this tab and every other, the
    /// others taking the new pair.
    pub(super) async fn refresh_now(&self, before: &Held) -> Result<(), ApiError> {
        let _one_at_a_time = self.refreshing.lock().await;
        // The answer comes back through a promise the task settles.
        let outcome = std::rc::Rc::new(std::cell::RefCell::new(None));
        let mut settle = None;
        let settled = js_sys::Promise::new(&mut |resolve, _| settle = Some(resolve));
        let (api, before, out) = (self.clone(), before.clone(), outcome.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let lock = format!("perch-refresh-{}", before.account);
            let result =
                crate::browser::tab_lock::exclusive_within(&lock, WAIT_MS, api.refresh_unless_done(&before)).await;
            *out.borrow_mut() = Some(result);
            if let Some(settle) = settle {
                let _ = settle.call0(&JsValue::NULL);
            }
        });
        let _ = wasm_bindgen_futures::JsFuture::from(settled).await;
        let result = outcome.borrow_mut().take();
        result.unwrap_or_else(|| Err(ApiError::Network("the token refresh did not run".into())))
    }

    /// Under the lock: the tokens are new already (another request or tab
    /// refreshed them), or they are refreshed now.
    async fn refresh_unless_done(&self, before: &Held) -> Result<(), ApiError> {
        let current = self.tokens.held();
        if current.as_ref().is_some_and(|h| h.token != before.token) || self.tokens.take_newer() {
            return Ok(());
        }
        let Some((current, refresh_token)) = current.and_then(|h| h.refresh_token.clone().map(|r| (h, r))) else {
            return Err(ApiError::Unauthorized("no refresh token".into()));
        };
        // Another tab refreshed this very token: its pair, not a second refresh.
        if let Some(tokens) = last_refresh(&current.account, &refresh_token).await {
            self.tokens.refreshed(&current, tokens);
            return Ok(());
        }
        match self.refresh_text(&refresh_token).await {
            Ok(text) => {
                let tokens: TokenSet = parse(&text)?;
                keep_refresh(&current.account, &refresh_token, &text).await;
                self.tokens.refreshed(&current, tokens);
                Ok(())
            }
            Err(_) if self.tokens.take_newer() => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Trades `refresh_token` for a new pair (the server retires it), giving
    /// up after [`ANSWER_MS`] without an answer; the answer as the server
    /// wrote it.
    async fn refresh_text(&self, refresh_token: &str) -> Result<String, ApiError> {
        let body =
            serde_json::to_string(&RefreshRequest { refresh_token: refresh_token.to_owned() }).unwrap_or_default();
        let signal: Option<web_sys::AbortSignal> =
            crate::browser::tab_lock::timeout_signal(ANSWER_MS).map(wasm_bindgen::JsCast::unchecked_into);
        self.post_root_text("/api/oauth/refreshtoken", body, signal.as_ref()).await
    }
}

/// The pair that replaced `refresh_token` for `account`, if a tab kept one.
/// Kept as the refresh token used, a line break, and the server's answer
/// as it came (read with the answer's own reader: no writer of token sets
/// in the app).
async fn last_refresh(account: &str, refresh_token: &str) -> Option<TokenSet> {
    let text = call(Db::Tokens, "get", &[account.into()]).await.ok()?.as_string()?;
    // Another script of the origin could have written it: read, not trusted.
    let (from, answer) = text.split_once('\n')?;
    let tokens: TokenSet = parse(answer).ok()?;
    (from == refresh_token && !tokens.token.is_empty()).then_some(tokens)
}

/// Keeps `answer` as what replaced `from` for `account`, before the lock is
/// let go (a write refused, or IndexedDB missing, leaves Web Storage alone
/// to tell the other tabs, as before).
async fn keep_refresh(account: &str, from: &str, answer: &str) {
    let text = format!("{from}\n{answer}");
    let _ = call(Db::Tokens, "put", &[account.into(), JsValue::from_str(&text)]).await;
}

/// Forgets `account`'s last refresh (its sign-out here), before the page
/// is left (`browser/leaving.rs`): no token of a signed-out account stays.
pub fn forget(account: &str) {
    let account = JsValue::from_str(account);
    crate::browser::leaving::finish_first(async move {
        let _ = call(Db::Tokens, "drop", &[account]).await;
    });
}
