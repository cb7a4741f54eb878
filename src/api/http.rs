//! One HTTP exchange through the browser's `fetch`, read to the end: the
//! status, the `Retry-After` seconds and the body as text. The API client
//! (`mod.rs`), `config.json`'s loading and the catalogs of words
//! (`i18n/language.rs`) are its callers; what the body means is theirs to
//! read.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A response, read whole.
pub struct Reply {
    pub status: u16,
    pub retry_after: Option<u64>,
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
}

/// Sends `method url` with what `extra` holds. `Err` says why nothing came
/// back (the network, the abort), in the browser's words.
pub async fn send(method: &str, url: &str, extra: Extra<'_>) -> Result<Reply, String> {
    let Extra { token, body, key, abort } = extra;
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    let headers = web_sys::Headers::new().map_err(describe)?;
    if let Some(token) = token {
        headers.set("Authorization", &format!("Bearer {token}")).map_err(describe)?;
    }
    // No key (a page without `crypto.randomUUID`, outside a secure
    // context) sends none, rather than one the server refuses.
    if let Some(key) = key.filter(|k| !k.is_empty()) {
        headers.set("Idempotency-Key", key).map_err(describe)?;
    }
    if let Some(body) = body {
        headers.set("Content-Type", "application/json").map_err(describe)?;
        init.set_body(&JsValue::from_str(body));
    }
    init.set_headers(&headers);
    init.set_signal(abort);
    let answer = async {
        let response: web_sys::Response =
            JsFuture::from(leptos::prelude::window().fetch_with_str_and_init(url, &init)).await?.unchecked_into();
        let retry_after = response.headers().get("retry-after").ok().flatten().and_then(|v| v.trim().parse().ok());
        let text = JsFuture::from(response.text()?).await?.as_string().unwrap_or_default();
        Ok::<_, JsValue>(Reply { status: response.status(), retry_after, text })
    };
    answer.await.map_err(describe)
}

/// A failure from the browser, in its own words.
fn describe(e: JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(error) => error.message().into(),
        None => e.as_string().unwrap_or_default(),
    }
}
