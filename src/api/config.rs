//! Loading `config.json` from beside `index.html` at start-up, so one static
//! build serves any server, and the page shown when that fails.

use crate::browser::navigation::Title;
use gloo_net::http::Request;
use leptos::prelude::*;
use perch_model::{ClientConfig, CLIENT_CONFIG_FILE};

/// Fetches and checks the configuration; the error says what to fix.
pub async fn load() -> Result<ClientConfig, String> {
    // Relative to the document's <base>, which trunk sets to the public URL.
    let response = Request::get(CLIENT_CONFIG_FILE)
        .send()
        .await
        .map_err(|e| format!("{CLIENT_CONFIG_FILE} could not be fetched: {e}"))?;
    if !response.ok() {
        return Err(format!("{CLIENT_CONFIG_FILE} could not be fetched: the server answered {}.", response.status()));
    }
    let text = response.text().await.map_err(|e| format!("{CLIENT_CONFIG_FILE} could not be read: {e}"))?;
    parse(&text)
}

/// Parses and checks the text of `config.json`.
pub fn parse(text: &str) -> Result<ClientConfig, String> {
    let config: ClientConfig = serde_json::from_str(text).map_err(|e| {
        format!("{CLIENT_CONFIG_FILE} is not valid: {e}. It needs \"api_base\" and \"application_id\".")
    })?;
    config.check().map_err(|e| format!("{CLIENT_CONFIG_FILE} is not valid: {e}."))?;
    Ok(config)
}

/// Shown instead of the app when the configuration cannot be used.
#[component]
pub fn ConfigProblem(problem: String) -> impl IntoView {
    view! {
        <Title text="Perch cannot start"/>
        <main id="main" class="page config-problem">
            <h1>"Perch cannot start"</h1>
            <p class="error" role="alert">{problem}</p>
            <p>
                "Whoever hosts this copy of Perch needs to put a " <code>"config.json"</code>
                " beside its " <code>"index.html"</code> ", like this:"
            </p>
            <pre>{r#"{ "api_base": "https://your.server/api/v1", "application_id": "your-app-id" }"#}</pre>
            <button type="button" on:click=|_| { let _ = window().location().reload(); }>"Try again"</button>
        </main>
    }
}

/// The configuration the pages read through `use_context`.
pub fn use_config() -> ClientConfig {
    leptos::prelude::expect_context::<ClientConfig>()
}
