//! The post card in real Chromium: content from the server is text, links
//! and mentions become links, times read relative, and odd shapes that other
//! servers send still reach the screen.

use leptos::prelude::*;
use leptos_router::components::Router;
use perch::account::session::Session;
use perch::components::post_card::PostCard;
use perch::store::Store;
use perch_model::Post;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts one card for `json` (a post as a server sends it) and returns its article.
async fn card(json: &str) -> web_sys::Element {
    card_as(json, false).await
}

/// The card, as a thread's focused post when `focused`.
async fn card_as(json: &str, focused: bool) -> web_sys::Element {
    let post: Post = serde_json::from_str(json).expect("tolerant reading");
    let uuid = post.uuid.clone();
    let session = Session::restore();
    let config = common::config("/api/v1");
    let api = perch::api::Api::new(&config, session);
    let store = Store::new(session, api.clone());
    store.put_post(post);
    let handle = leptos::mount::mount_to(common::container(), move || {
        provide_context(api.clone());
        provide_context(store.clone());
        provide_context(session);
        view! { <Router><PostCard uuid=uuid.clone() focused/></Router> }
    });
    handle.forget();
    leptos::task::tick().await;
    document().query_selector("#under-test article").unwrap().expect("an article")
}

/// The name of a card's reply count: its words ("3 replies") are its
/// `aria-label`, the count alone shows.
fn replies_named(card: &web_sys::Element) -> Option<String> {
    card.query_selector(".reply-count").unwrap().expect("a reply count").get_attribute("aria-label")
}

fn now_secs() -> i64 {
    (js_sys::Date::now() / 1000.0) as i64
}

#[wasm_bindgen_test]
async fn markup_in_content_is_shown_as_text() {
    let evil = r#"<script>window.pwned=1</script><img src=x onerror="window.pwned=2"> <b>bold</b>"#;
    let json =
        serde_json::json!({"uuid": "p1", "content": evil, "author": {"uuid": "u1", "username": "eve"}}).to_string();
    let article = card(&json).await;
    let content = article.query_selector(".post-content").unwrap().unwrap();
    assert_eq!(content.text_content().unwrap(), evil, "every character visible as typed");
    assert_eq!(content.children().length(), 0, "no element was made from the content");
    assert!(article.query_selector("script, img[onerror], b").unwrap().is_none());
    assert!(js_sys::Reflect::get(&window(), &"pwned".into()).unwrap().is_undefined());
}

#[wasm_bindgen_test]
async fn links_and_mentions_become_safe_links() {
    let json = serde_json::json!({
        "uuid": "p2", "content": "map at https://example.org/maps/delta. ask @tomas, not javascript:alert(1)",
        "author": {"uuid": "u1", "username": "mira", "display_name": "Mira"}
    })
    .to_string();
    let article = card(&json).await;
    let links = article.query_selector_all(".post-content a").unwrap();
    assert_eq!(links.length(), 2);
    let link: web_sys::Element = links.item(0).unwrap().unchecked_into();
    assert_eq!(link.get_attribute("href").as_deref(), Some("https://example.org/maps/delta"));
    assert_eq!(link.get_attribute("rel").as_deref(), Some("noopener noreferrer nofollow"));
    let mention: web_sys::Element = links.item(1).unwrap().unchecked_into();
    assert_eq!(mention.get_attribute("href").as_deref(), Some("/user/@tomas"));
    assert_eq!(mention.text_content().as_deref(), Some("@tomas"));
    assert!(article.text_content().unwrap().contains("not javascript:alert(1)"));
}

#[wasm_bindgen_test]
async fn times_are_relative_with_the_local_date_as_title() {
    let json = serde_json::json!({
        "uuid": "p3", "content": "x", "author": {"uuid": "u1", "username": "a"},
        "created_at": now_secs() - 5 * 60
    })
    .to_string();
    let article = card(&json).await;
    let time = article.query_selector("time").unwrap().unwrap();
    assert_eq!(time.text_content().as_deref(), Some("5m"));
    assert!(time.get_attribute("datetime").unwrap().ends_with('Z'));
    // The reader's own date (Intl), not a UTC string; the Playwright test
    // `times.spec.ts` checks the time zone and language.
    let title = time.get_attribute("title").unwrap();
    let year = js_sys::Date::new_0().get_full_year().to_string();
    assert!(title.contains(&year) && !title.contains("UTC"), "{title}");
    assert_eq!(time.get_attribute("aria-label").as_deref(), Some("5 minutes ago"));
}

#[wasm_bindgen_test]
async fn odd_shapes_from_other_servers_reach_the_screen() {
    // parent as a bare uuid, SQL-style time, a badge object, null counts and
    // bio, an unknown field, and no application.
    let json = r#"{
        "uuid": "p4", "parent": "deleted-parent", "content": "still here",
        "author": {"uuid": "u9", "username": "olga", "display_name": null, "badge": [{"name": "verified"}], "bio": null},
        "like_count": null, "reply_count": 3, "created_at": "2020-01-02 03:04:05", "mood": "sunny"
    }"#;
    let article = card(json).await;
    let text = article.text_content().unwrap();
    assert!(text.contains("still here"));
    assert!(text.contains("@olga"), "the username stands in for a missing display name");
    assert!(text.contains("Replying to"), "a bare parent uuid is still a reply");
    assert_eq!(replies_named(&article).as_deref(), Some("3 replies"));
    assert!(text.contains("0 likes"));
    assert!(text.contains("Jan 2, 2020"));
    assert!(!text.contains("via"));
}

#[wasm_bindgen_test]
async fn a_locked_post_from_an_application_says_so() {
    let json = serde_json::json!({
        "uuid": "p5", "content": "closed", "locked": true, "author": {"uuid": "u1", "username": "a"},
        "from": {"uuid": "app", "name": "Perch", "website": null}, "reply_count": 1, "like_count": 1
    })
    .to_string();
    // In a feed, the lock and the application are in the card's "⋯", not
    // on its face; a thread's focused post shows them.
    let in_feed = card(&json).await;
    let text = in_feed.query_selector(".post-meta").unwrap().expect("an action row").text_content().unwrap();
    assert_eq!(replies_named(&in_feed).as_deref(), Some("1 reply"));
    assert!(text.contains("1 like"), "{text}");
    assert!(!text.contains("Locked") && !text.contains("via Perch"), "{text}");
    in_feed.remove();
    let article = card_as(&json, true).await;
    let text = article.text_content().unwrap();
    assert!(text.contains("Locked") && text.contains("via Perch") && text.contains("1 like"));
    assert_eq!(replies_named(&article).as_deref(), Some("1 reply"));
    let lock = article.query_selector(".locked").unwrap().expect("a lock mark");
    assert_eq!(lock.get_attribute("title").as_deref(), Some("Replies are off for this post"), "the mark says why");
    // The card is named by its author: `aria-labelledby` points at an
    // element inside this card (a wrong or shared id would name it wrongly).
    let labelled_by = article.get_attribute("aria-labelledby").expect("the card is named");
    let label = document().get_element_by_id(&labelled_by).expect("the naming element exists");
    assert!(article.contains(Some(&label)), "the card's name comes from inside the card");
    assert_eq!(label.text_content().unwrap().trim(), "a @a");
}

/// A post the store lets go while its card shows it (`store/bound.rs`):
/// the card keeps showing it, however many posts arrive after.
#[wasm_bindgen_test]
async fn a_card_keeps_its_post_when_the_store_lets_it_go() {
    let post = |uuid: &str, content: &str| -> Post {
        serde_json::from_value(
            serde_json::json!({"uuid": uuid, "content": content, "author": {"uuid": "u1", "username": "a"}}),
        )
        .unwrap()
    };
    let session = Session::restore();
    let config = common::config("/api/v1");
    let api = perch::api::Api::new(&config, session);
    let store = Store::new(session, api.clone());
    store.put_post(post("p-shown", "Still on screen."));
    let mounted = store.clone();
    leptos::mount::mount_to(common::container(), move || {
        provide_context(api.clone());
        provide_context(mounted.clone());
        provide_context(session);
        view! { <Router><PostCard uuid="p-shown".to_owned()/></Router> }
    })
    .forget();
    leptos::task::tick().await;
    assert_eq!(store.let_go(), 1, "nothing holds it");
    // Another post arrives: every card looks its post up again.
    store.put_post(post("p-next", "Arrived after."));
    leptos::task::tick().await;
    let article = document().query_selector("#under-test article").unwrap().expect("still a card, not a skeleton");
    assert!(article.text_content().unwrap().contains("Still on screen."));
}
