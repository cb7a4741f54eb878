//! The browser's half of the OAuth code flow with PKCE (S256) and `state`:
//! starting it (the verifier and state wait in `sessionStorage`) and
//! finishing it on `/oauth/callback`.

use crate::account::session::{Entering, Session};
use crate::api::Api;
use crate::browser::web_storage::{self, Key};
use crate::i18n::{t, Text};
use crate::nav::AppPath;
use perch_model::{ClientConfig, CodeExchange, Scope};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Where the server's sign-in page sends the browser back.
pub const CALLBACK_PATH: &str = "/oauth/callback";
/// What the callback needs from the start of the flow. `base` (the
/// interface's address) lets `index.html` exchange the code before it has
/// read `config.json` (issue 68).
#[derive(Serialize, Deserialize)]
struct Pending {
    verifier: String,
    state: String,
    return_to: String,
    #[serde(default)]
    base: String,
}

/// `n` random bytes from the browser's CSPRNG, base64url.
fn random(n: usize) -> Result<String, Text> {
    let crypto = web_sys::window().and_then(|w| w.crypto().ok()).ok_or_else(|| Text::from(t::oauth_no_crypto()))?;
    let mut bytes = vec![0u8; n];
    crypto.get_random_values_with_u8_array(&mut bytes).map_err(|_| Text::from(t::oauth_no_random()))?;
    Ok(base64url(&bytes))
}

/// Base64url without padding (RFC 4648 §5).
pub fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, b)| acc | (*b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// BASE64URL(SHA-256(verifier)), with the browser's SubtleCrypto.
async fn challenge(verifier: &str) -> Result<String, Text> {
    let subtle = web_sys::window()
        .and_then(|w| w.crypto().ok())
        .map(|c| c.subtle())
        .ok_or_else(|| Text::from(t::oauth_needs_secure_page()))?;
    let data = verifier.as_bytes().to_vec();
    let promise =
        subtle.digest_with_str_and_u8_array("SHA-256", &data).map_err(|_| Text::from(t::oauth_needs_secure_page()))?;
    let digest = JsFuture::from(promise).await.map_err(|_| Text::from(t::oauth_no_hash()))?;
    let bytes = js_sys::Uint8Array::new(&digest.unchecked_into::<js_sys::ArrayBuffer>()).to_vec();
    Ok(base64url(&bytes))
}

fn enc(s: &str) -> String {
    js_sys::encode_uri_component(s).as_string().unwrap_or_default()
}

/// This app's callback address.
pub fn redirect_uri() -> String {
    format!("{}{CALLBACK_PATH}", leptos::prelude::window().location().origin().unwrap_or_default())
}

/// Sends the browser to the server's sign-in page, asking for `scopes`
/// (every scope the app can use, from the sign-in page; what the account
/// holds plus what it lacks, to allow one more); after sign-in the person
/// comes back to `return_to`.
pub async fn start(api: &Api, config: &ClientConfig, return_to: String, scopes: &[Scope]) -> Result<(), Text> {
    let verifier = random(32)?;
    let state = random(16)?;
    let code_challenge = challenge(&verifier).await?;
    let pending = Pending { verifier, state: state.clone(), return_to, base: api.base().to_owned() };
    if !web_storage::set_json(&Key::OAuthPending, &pending) {
        return Err(t::oauth_no_storage().into());
    }
    let url = format!(
        "{}/oauth/authorise?application_id={}&redirect_uri={}&scopes={}&state={}&code_challenge={}&code_challenge_method=S256",
        api.root(),
        enc(&config.application_id),
        enc(&redirect_uri()),
        enc(&Scope::join(scopes)),
        enc(&state),
        enc(&code_challenge),
    );
    leptos::prelude::window().location().assign(&url).map_err(|_| Text::from(t::oauth_not_opened()))
}

/// Where to go once signed in, and whether the account was added beside
/// another (then nothing the app held for that one may stay: the page is
/// loaded afresh).
pub struct Finished {
    pub return_to: String,
    pub added: bool,
}

/// Finishes the flow from the callback's query: checks `state`, exchanges
/// the code, learns who signed in.
pub async fn finish(api: &Api, session: Session, search: &str) -> Result<Finished, Text> {
    let params = web_sys::UrlSearchParams::new_with_str(search).map_err(|_| Text::from(t::oauth_unreadable()))?;
    let pending: Option<Pending> = web_storage::get_json(&Key::OAuthPending);
    web_storage::remove(&Key::OAuthPending);
    if params.get("error").as_deref() == Some("access_denied") {
        return Err(t::oauth_denied().into());
    }
    let pending = pending.ok_or_else(|| Text::from(t::oauth_not_from_here()))?;
    if params.get("state").as_deref() != Some(pending.state.as_str()) {
        return Err(t::oauth_mismatch().into());
    }
    let code = params.get("code").ok_or_else(|| Text::from(t::oauth_no_code()))?;
    // index.html may have exchanged it already, beside the wasm.
    let (tokens, user) = match api.take_early_sign_in(&code).await {
        Some(early) => (early.tokens, early.user),
        None => (api.exchange_code(&CodeExchange { code, code_verifier: pending.verifier }).await, None),
    };
    let tokens = tokens.map_err(|e| e.explain())?;
    let user = match user {
        Some(user) => user,
        None => api.user_of_token(&tokens.token).await.map_err(|e| e.explain())?,
    };
    let added = session.enter(Entering::Issued(tokens), user);
    Ok(Finished { return_to: return_path(Some(&pending.return_to)), added })
}

/// Where to go after signing in, from a `next` that came with the address
/// (anyone can write one into a link): a path of this app, never another
/// site (`//host`, `https:`, `/\host`) and never the sign-in pages
/// themselves; otherwise the home page.
pub fn return_path(next: Option<&str>) -> String {
    let Some(next) = next.filter(|n| n.len() <= 2048) else { return "/".into() };
    let path = next.split(['?', '#']).next().unwrap_or("");
    let own = next.starts_with('/')
        && !next.contains('\\')
        && !next.chars().any(char::is_control)
        && plain_path(path)
        && path != "/signin"
        && path != CALLBACK_PATH;
    if own {
        next.to_owned()
    } else {
        "/".into()
    }
}

/// Whether `path` names itself plainly: no empty segment (`//host` or
/// `/.//host`, which a browser may read as another site), no dot segment
/// (`/./`, `/../`, which move the path before the router sees it), and no
/// slash, backslash or dot hidden in percent-encoding. Only `/` itself
/// ends in an empty segment.
fn plain_path(path: &str) -> bool {
    if path == "/" {
        return true;
    }
    let lower = path.to_ascii_lowercase();
    if ["%2f", "%5c", "%2e", "%00"].iter().any(|hidden| lower.contains(hidden)) {
        return false;
    }
    path.split('/').skip(1).all(|segment| !matches!(segment, "" | "." | ".."))
}

/// The sign-in page for one more account, while one is signed in.
pub fn add_account_href() -> String {
    format!("{}?add", AppPath::SignIn)
}

/// The sign-in page's address, returning to `here` afterwards.
pub fn signin_href(here: &str) -> String {
    let next = return_path(Some(here));
    if next == "/" {
        AppPath::SignIn.href()
    } else {
        format!("{}?next={}", AppPath::SignIn, js_sys::encode_uri_component(&next))
    }
}

#[cfg(test)]
mod return_tests {
    use super::return_path;

    #[test]
    fn only_paths_of_this_app_are_returned_to() {
        assert_eq!(return_path(Some("/post/abc")), "/post/abc");
        assert_eq!(return_path(Some("/user/@sam/followers?x=1#top")), "/user/@sam/followers?x=1#top");
        for hostile in [
            "https://evil.example/",
            "//evil.example/x",
            "/\\evil.example",
            "javascript:alert(1)",
            "post/abc",
            "/signin",
            "/signin?next=/post/x",
            "/oauth/callback?code=x",
            "/a\nb",
            "",
            "/.//evil.example",
            "/..//evil.example",
            "/./evil.example",
            "/post/../signin",
            "/post//x",
            "/%2e%2e/%2fevil.example",
            "/%2F%2Fevil.example",
            "/%5cevil.example",
        ] {
            assert_eq!(return_path(Some(hostile)), "/", "{hostile:?}");
        }
        assert_eq!(return_path(None), "/");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64url_matches_rfc_4648_vectors() {
        use super::base64url;
        assert_eq!(base64url(b""), "");
        assert_eq!(base64url(b"f"), "Zg");
        assert_eq!(base64url(b"fo"), "Zm8");
        assert_eq!(base64url(b"foo"), "Zm9v");
        assert_eq!(base64url(b"foob"), "Zm9vYg");
        assert_eq!(base64url(b"fooba"), "Zm9vYmE");
        assert_eq!(base64url(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
    }
}
