//! Loading `config.json` from beside `index.html` at start-up, so one static
//! build serves any server, and the page shown when that fails.

use crate::browser::navigation::Title;
use crate::i18n::{t, Text};
use leptos::prelude::*;
use perch_model::{ClientConfig, CLIENT_CONFIG_FILE};

/// Fetches and checks the configuration; the error says what to fix.
/// `index.html` has already asked for it (`window.perchConfig`, one request
/// for the page's script and the app); when that is missing or failed, it
/// is fetched here.
pub async fn load() -> Result<ClientConfig, Text> {
    if let Some((status, text)) = asked_early().await {
        if !(200..300).contains(&status) {
            return Err(t::config_status(status.to_string()));
        }
        return parse(&text);
    }
    // Relative to the document's <base>, which trunk sets to the public URL.
    let response =
        super::http::send("GET", CLIENT_CONFIG_FILE, Default::default()).await.map_err(t::config_unreachable)?;
    if !response.ok() {
        return Err(t::config_status(response.status.to_string()));
    }
    parse(&response.text)
}

/// The answer to `index.html`'s request (`{status, text}`), taken once: a
/// later load asks again.
async fn asked_early() -> Option<(u16, String)> {
    use wasm_bindgen::JsCast;
    let window = window();
    let promise = js_sys::Reflect::get(&window, &"perchConfig".into()).ok()?.dyn_into::<js_sys::Promise>().ok()?;
    let _ = js_sys::Reflect::delete_property(&window, &"perchConfig".into());
    let answer = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let field = |name: &str| js_sys::Reflect::get(&answer, &name.into()).ok();
    let status = field("status")?.as_f64()? as u16;
    Some((status, field("text")?.as_string()?))
}

/// Parses and checks the text of `config.json`.
pub fn parse(text: &str) -> Result<ClientConfig, Text> {
    let config: ClientConfig = serde_json::from_str(text).map_err(|e| t::config_invalid(e.to_string()))?;
    config.check().map_err(|e| t::config_invalid(e.to_string()))?;
    Ok(config)
}

/// Shown instead of the app when the configuration cannot be used.
#[component]
pub fn ConfigProblem(problem: Text) -> impl IntoView {
    view! {
        <Title text=t::cannot_start()/>
        <main id="main" class="page config-problem">
            <h1>{t::cannot_start()}</h1>
            <p class="error" role="alert">{problem}</p>
            <p>{t::config_help()}</p>
            <pre>{r#"{ "api_base": "https://your.server/api/v1", "application_id": "your-app-id" }"#}</pre>
            <button type="button" on:click=|_| { let _ = window().location().reload(); }>{t::try_again()}</button>
        </main>
    }
}

/// The configuration the pages read through `use_context`.
pub fn use_config() -> ClientConfig {
    leptos::prelude::expect_context::<ClientConfig>()
}
