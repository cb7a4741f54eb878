//! One HTTP exchange through gloo-net (the browser's `fetch`), read to the end: the
//! status, the `Retry-After` seconds and the body as text. The API client
//! (`mod.rs`), `config.json`'s loading and the catalogs of words
//! (`i18n/language.rs`) are its callers; what the body means is theirs to
//! read.

use gloo_net::http::RequestBuilder;

/// A response, read whole.
#[derive(Clone)]
pub struct Reply {
    pub status: u16,
    pub retry_after: Option<u64>,
    /// The answer's `ETag`, for a conditional read later (docs/api.md).
    pub etag: Option<String>,
    pub text: String,
}

impl Reply {
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// What a request carries besides its method and address.
#[derive(Default)]
pub struct Extra<'a> {
    /// A Bearer token.
    pub token: Option<&'a str>,
    /// A JSON body.
    pub body: Option<&'a str>,
    /// An `Idempotency-Key` (docs/api.md): the write is done once however
    /// often it is sent with this key.
    pub key: Option<&'a str>,
    /// Cuts the request off when it fires.
    pub abort: Option<&'a web_sys::AbortSignal>,
    /// An `ETag` the caller keeps: a server that still has it answers 304.
    pub if_none_match: Option<&'a str>,
}

/// Sends `method url` with what `extra` holds, through gloo-net's request
/// builder. `Err` says why nothing came back (the network, the abort), in
/// the browser's words.
pub async fn send(method: &str, url: &str, extra: Extra<'_>) -> Result<Reply, String> {
    let Extra { token, body, key, abort, if_none_match } = extra;
    let method = gloo_net::http::Method::from_bytes(method.as_bytes()).map_err(|e| e.to_string())?;
    let mut request = RequestBuilder::new(url).method(method).abort_signal(abort);
    if let Some(token) = token {
        request = request.header("Authorization", &format!("Bearer {token}"));
    }
    // No key (a page without `crypto.randomUUID`, outside a secure
    // context) sends none, rather than one the server refuses.
    if let Some(key) = key.filter(|k| !k.is_empty()) {
        request = request.header("Idempotency-Key", key);
    }
    if let Some(tag) = if_none_match {
        request = request.header("If-None-Match", tag);
    }
    let request = match body {
        Some(body) => request.header("Content-Type", "application/json").body(body),
        None => request.build(),
    };
    let response = request.map_err(describe)?.send().await.map_err(describe)?;
    let retry_after = response.headers().get("retry-after").and_then(|v| v.trim().parse().ok());
    let etag = response.headers().get("etag");
    let text = response.text().await.map_err(describe)?;
    Ok(Reply { status: response.status(), retry_after, etag, text })
}

/// A failure from the browser (or a request gloo-net could not build), in
/// its own words.
fn describe(e: gloo_net::Error) -> String {
    match e {
        gloo_net::Error::JsError(error) => error.message,
        other => other.to_string(),
    }
}
