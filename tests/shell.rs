//! Browser tests of the app shell, in real headless Chromium
//! (`cargo test -p perch --target wasm32-unknown-unknown`).
//! All tests of this binary share one document (whose body also holds the
//! runner's own output), so each mounts into a fresh container of its own.

use leptos::prelude::*;
use perch::config::{parse, ConfigProblem};
use perch::routes::Shell;
use perch_model::ClientConfig;
use wasm_bindgen_test::*;

mod common;

wasm_bindgen_test_configure!(run_in_browser);

fn h1_text() -> String {
    document()
        .query_selector("#under-test main h1")
        .unwrap()
        .map(|h| h.text_content().unwrap_or_default())
        .unwrap_or_default()
}

fn config() -> ClientConfig {
    ClientConfig { api_base: "/api/v1".into(), application_id: "perch-web".into() }
}

/// Routes the shell to `path` and returns the class of the page it shows.
async fn route(path: &str) -> String {
    window().history().unwrap().push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(path)).unwrap();
    let parent = common::container();
    let handle = leptos::mount::mount_to(parent, || view! { <Shell config=config()/> });
    leptos::task::tick().await;
    let class = document()
        .query_selector("#under-test main")
        .unwrap()
        .and_then(|m| m.get_attribute("class"))
        .unwrap_or_default();
    drop(handle);
    class
}

#[wasm_bindgen_test]
async fn every_route_resolves_and_unknown_paths_are_not_found() {
    assert_eq!(route("/").await, "page home");
    assert_eq!(route("/post/0b0c").await, "page thread");
    assert_eq!(route("/user/@ada").await, "page profile");
    assert_eq!(route("/user/5f1e").await, "page profile");
    assert_eq!(route("/user/@ada/followers").await, "page user-list");
    assert_eq!(route("/user/@ada/following").await, "page user-list");
    assert_eq!(route("/signin").await, "page signin");
    assert_eq!(route("/oauth/callback").await, "page callback");
    assert_eq!(route("/no/such/page").await, "page not-found");
    assert_eq!(route("/post/1/2/3").await, "page not-found");
}

#[wasm_bindgen_test]
async fn header_offers_a_skip_link_and_navigation() {
    window().history().unwrap().push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/")).unwrap();
    let _handle = leptos::mount::mount_to(common::container(), || view! { <Shell config=config()/> });
    leptos::task::tick().await;
    let skip = document().query_selector("a.skip-link").unwrap().expect("a skip link");
    assert_eq!(skip.get_attribute("href").as_deref(), Some("#main"));
    assert!(document().get_element_by_id("main").is_some(), "the skip link has a target");
    let nav = document().query_selector("nav[aria-label=Main]").unwrap().expect("main navigation");
    assert!(nav.text_content().unwrap().contains("Home"));
}

#[wasm_bindgen_test]
async fn a_bad_config_explains_itself_as_text() {
    let problem = parse(r#"{"api_base": "<script>alert(1)</script>", "application_id": "x"}"#).unwrap_err();
    assert!(problem.contains("api_base"), "{problem}");
    let _handle =
        leptos::mount::mount_to(common::container(), move || view! { <ConfigProblem problem=problem.clone()/> });
    leptos::task::tick().await;
    let alert = document().query_selector("[role=alert]").unwrap().expect("the problem is announced");
    assert!(alert.text_content().unwrap().contains("<script>alert(1)</script>"), "shown as text");
    assert!(document().query_selector("#under-test script").unwrap().is_none(), "never parsed as markup");
    assert_eq!(h1_text(), "Perch cannot start");
}

#[wasm_bindgen_test]
fn config_parsing_names_the_missing_field() {
    let missing = parse(r#"{"api_base": "/api/v1"}"#).unwrap_err();
    assert!(missing.contains("application_id"), "{missing}");
    assert!(parse("not json").is_err());
    assert_eq!(parse(r#"{"api_base": "/api/v1", "application_id": "a"}"#).unwrap().application_id, "a");
}
