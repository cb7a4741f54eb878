//! Shared by the browser tests: all tests of one binary share one document
//! (whose body also holds the runner's own output), so each mounts into a
//! fresh container of its own.

use leptos::prelude::document;
use wasm_bindgen::JsCast;

/// Removes the previous test's container and makes an empty one.
pub fn container() -> web_sys::HtmlElement {
    english();
    if let Some(old) = document().get_element_by_id("under-test") {
        old.remove();
    }
    let div = document().create_element("div").unwrap();
    div.set_id("under-test");
    document().body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

/// Puts English's words in use, as the app does at start from
/// `locales/en.json` (here built in).
pub fn english() {
    let json = js_sys::JSON::parse(include_str!("../../locales/en.json")).unwrap();
    let catalog = perch::i18n::language::read(perch::i18n::Language::En, &json).unwrap();
    perch::i18n::install(catalog);
}

/// The app's configuration for a server at `api_base`.
#[allow(dead_code)]
pub fn config(api_base: &str) -> perch_model::ClientConfig {
    perch_model::ClientConfig {
        api_base: api_base.into(),
        application_id: "test".into(),
        local_copy_posts: None,
        store_posts: None,
        activity_check_seconds: None,
    }
}
