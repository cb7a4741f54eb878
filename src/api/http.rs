//! One HTTP exchange through the browser's `fetch`, read to the end: the
//! status, the `Retry-After` seconds and the body as text. The API client
//! (`mod.rs`) and `config.json`'s loading are its only callers; what the
//! body means is theirs to read.

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

/// Sends `method url` with a Bearer `token` and a JSON `body` when given,
/// cut off when `abort` fires. `Err` says why nothing came back (the
/// network, the abort), in the browser's words.
pub async fn send(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<&str>,
    abort: Option<&web_sys::AbortSignal>,
) -> Result<Reply, String> {
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    let headers = web_sys::Headers::new().map_err(describe)?;
    if let Some(token) = token {
        headers.set("Authorization", &format!("Bearer {token}")).map_err(describe)?;
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
