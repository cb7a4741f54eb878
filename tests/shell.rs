//! Browser tests of the app shell, in real headless Chromium
//! (`cargo test -p perch --target wasm32-unknown-unknown`).
//! All tests of this binary share one document (whose body also holds the
//! runner's own output), so each mounts into a fresh container of its own.

use leptos::prelude::*;
use perch::account::session::Signed;
use perch::api::config::{parse, ConfigProblem};
use perch::browser::web_storage::{self, Key};
use perch::routes::Shell;
use perch_model::{ClientConfig, User};
use wasm_bindgen_test::*;

mod common;

/// Waits, a task at a time, until `selector` matches in the document, and
/// gives what it matched: the shell draws its header, then its page, each in
/// a task of its own (issue 37). Fails after a thousand tasks.
async fn drawn(selector: &str) -> web_sys::Element {
    for _ in 0..1000 {
        if let Some(found) = document().query_selector(selector).unwrap() {
            return found;
        }
        let next = js_sys::Promise::new(&mut |resolve, _| {
            leptos::prelude::window().set_timeout_with_callback(&resolve).unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(next).await.unwrap();
    }
    panic!("nothing matched {selector}");
}

wasm_bindgen_test_configure!(run_in_browser);

fn h1_text() -> String {
    document()
        .query_selector("#under-test main h1")
        .unwrap()
        .map(|h| h.text_content().unwrap_or_default())
        .unwrap_or_default()
}

fn config() -> ClientConfig {
    ClientConfig {
        api_base: "/api/v1".into(),
        application_id: "perch-web".into(),
        local_copy_posts: None,
        store_posts: None,
        activity_check_seconds: None,
    }
}

/// What a page shows right after the shell routes to it: the class of its
/// `main`, its heading, and the text of `main`.
#[derive(Debug)]
struct Shown {
    class: String,
    heading: String,
    text: String,
}

/// Loads the shell at `path`, as a direct load of that address would.
async fn route(path: &str) -> Shown {
    window().history().unwrap().push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(path)).unwrap();
    let parent = common::container();
    let handle = leptos::mount::mount_to(parent, || view! { <Shell config=config()/> });
    // The page, not the shape the shell shows until it is drawn.
    let main = Some(drawn("#under-test main:not([aria-busy])").await);
    let shown = Shown {
        class: main.as_ref().and_then(|m| m.get_attribute("class")).unwrap_or_default(),
        heading: h1_text(),
        text: main.and_then(|m| m.text_content()).unwrap_or_default(),
    };
    drop(handle);
    shown
}

/// Every address, with the page class and heading it must show.
const ROUTES: [(&str, &str, &str); 10] = [
    ("/", "page home", "Home"),
    ("/post/0b0c", "page thread", "Post"),
    ("/user/@ada", "page profile", "Profile"),
    ("/user/5f1e", "page profile", "Profile"),
    ("/user/@ada/followers", "page user-list", "Followers of @ada"),
    ("/user/@ada/following", "page user-list", "Followed by @ada"),
    ("/signin", "page signin", "Sign in"),
    ("/oauth/callback", "page callback", "Signing in"),
    ("/no/such/page", "page not-found", "Page not found"),
    ("/post/1/2/3", "page not-found", "Page not found"),
];

async fn every_route_shows_its_own_page() {
    for (path, class, heading) in ROUTES {
        let shown = route(path).await;
        assert_eq!((shown.class.as_str(), shown.heading.as_str()), (class, heading), "{path}: {shown:?}");
    }
}

#[wasm_bindgen_test]
async fn every_route_resolves_signed_out_and_unknown_paths_are_not_found() {
    web_storage::remove(&Key::Session);
    every_route_shows_its_own_page().await;
    let home = route("/").await;
    assert!(home.text.contains("once you have signed in"), "signed out, home asks to sign in: {home:?}");
}

#[wasm_bindgen_test]
async fn every_route_resolves_signed_in() {
    let user = User { uuid: "u-ada".into(), username: "ada".into(), ..User::default() };
    web_storage::set_json(&Key::Session, &Signed::from_pasted_token("not-a-real-token".into(), user));
    every_route_shows_its_own_page().await;
    let home = route("/").await;
    assert!(home.text.contains("New post") && home.text.contains("Timeline"), "signed in, home has both: {home:?}");
    assert!(!home.text.contains("once you have signed in"), "{home:?}");
    web_storage::remove(&Key::Session);
}

#[wasm_bindgen_test]
async fn header_offers_a_skip_link_and_navigation() {
    window().history().unwrap().push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/")).unwrap();
    let _handle = leptos::mount::mount_to(common::container(), || view! { <Shell config=config()/> });
    let skip = drawn("#under-test a.skip-link").await;
    drawn("#under-test main:not([aria-busy])").await;
    assert_eq!(skip.get_attribute("href").as_deref(), Some("#main"));
    assert!(document().get_element_by_id("main").is_some(), "the skip link has a target");
    let nav = document().query_selector("nav[aria-label=Main]").unwrap().expect("main navigation");
    assert!(nav.text_content().unwrap().contains("Home"));
}

#[wasm_bindgen_test]
async fn a_bad_config_explains_itself_as_text() {
    common::english();
    let problem = parse(r#"{"api_base": "<script>alert(1)</script>", "application_id": "x"}"#).unwrap_err();
    assert!(problem.get().contains("api_base"), "{problem:?}");
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
    common::english();
    let missing = parse(r#"{"api_base": "/api/v1"}"#).unwrap_err();
    assert!(missing.get().contains("application_id"), "{missing:?}");
    assert!(parse("not json").is_err());
    assert_eq!(parse(r#"{"api_base": "/api/v1", "application_id": "a"}"#).unwrap().application_id, "a");
}

/// The catalog as served in two parts (src/i18n/mod.rs, "Words by page"):
/// the start's words are read alone, the later ones then join them, and
/// the two make the whole catalog; a later part of another language joins
/// nothing, and a part that lacks a key is refused.
#[wasm_bindgen_test]
fn the_later_words_join_the_start_ones() {
    use perch::i18n::{is_later, language, Entry, Language};
    use wasm_bindgen::JsCast;
    let cut = |source: &str| {
        let whole: js_sys::Object = js_sys::JSON::parse(source).unwrap().unchecked_into();
        let (start, later) = (js_sys::Object::new(), js_sys::Object::new());
        for (i, key) in js_sys::Object::keys(&whole).iter().enumerate() {
            let value = js_sys::Reflect::get(&whole, &key).unwrap();
            js_sys::Reflect::set(if is_later(i) { &later } else { &start }, &key, &value).unwrap();
        }
        (whole, start, later)
    };
    let (whole, start, later) = cut(include_str!("../locales/en.json"));
    let mut catalog = language::read(Language::En, &start).unwrap();
    let absent = catalog.entries.iter().filter(|e| **e == Entry::Absent).count();
    assert!(absent > 50, "the later pages' words are not in the start's part ({absent})");
    assert!(!catalog.has_later());
    let (_, _, german_later) = cut(include_str!("../locales/de.json"));
    assert!(!catalog.add(language::read(Language::De, &german_later).unwrap()), "German words join no English catalog");
    assert!(catalog.add(language::read(Language::En, &later).unwrap()));
    assert!(catalog.has_later());
    assert_eq!(catalog, language::read(Language::En, &whole).unwrap());
    let first_key = js_sys::Object::keys(&later).get(0);
    js_sys::Reflect::delete_property(&later, &first_key).unwrap();
    assert!(language::read(Language::En, &later).is_err(), "a part without one of its keys");
}

/// An effect that depends on a memo without reading it (the account menu's
/// closing on the address, search's paging) runs again when the memo's value
/// changes, even when nothing else has read the memo: `Memo::track` alone
/// leaves such a memo uncomputed, deaf to its sources, and the effect with it.
#[wasm_bindgen_test]
async fn an_effect_on_a_memo_nobody_reads_runs_again_when_the_memo_changes() {
    let address = RwSignal::new("/".to_owned());
    let runs = StoredValue::new(0u32);
    // Mounted for its owner and the executor mounting starts.
    let handle = leptos::mount::mount_to(common::container(), move || {
        let path = Memo::new(move |_| address.get());
        Effect::new(move |_| {
            perch::reactive::depend_on(path);
            runs.update_value(|n| *n += 1);
        });
    });
    let ran = |times: u32| async move {
        for _ in 0..100 {
            if runs.get_value() >= times {
                return;
            }
            leptos::task::tick().await;
        }
    };
    ran(1).await;
    address.set("/settings".to_owned());
    ran(2).await;
    assert_eq!(runs.get_value(), 2, "the effect ran once more for the new address");
    address.set("/settings".to_owned());
    for _ in 0..5 {
        leptos::task::tick().await;
    }
    assert_eq!(runs.get_value(), 2, "an address set again unchanged runs nothing");
    drop(handle);
}
