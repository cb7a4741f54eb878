//! A read `index.html` started before the wasm (`window.perchEarly`, issue
//! 48) in real Chromium: the API client takes its answer for a read of the
//! same path made as the same account, and never one made as another
//! account or one made long ago (it asks the server itself then: here, no
//! server, so it fails).

use perch::account::session::{Session, Signed};
use perch_model::{Post, User};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

#[allow(dead_code)]
mod common;

wasm_bindgen_test_configure!(run_in_browser);

/// The client of a session signed in as `me`, with the read of
/// `/post/p1` started by the page as `made_as`, `age_ms` ago.
fn client_with_early_read(me: &str, made_as: &str, age_ms: f64) -> perch::api::Api {
    common::english();
    let user = User { uuid: me.into(), username: me.into(), ..User::default() };
    let signed = Signed {
        token: "t".into(),
        token_expires_at: None,
        refresh_token: None,
        refresh_token_expires_at: None,
        scopes: vec![],
        scopes_known: false,
        user,
        ended: false,
    };
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.set_item("perch.session", &serde_json::to_string(&signed).unwrap()).unwrap();
    let post = Post { uuid: "p1".into(), content: "read early".into(), ..Post::default() };
    let answer = js_sys::Object::new();
    let set = |k: &str, v: JsValue| js_sys::Reflect::set(&answer, &k.into(), &v).unwrap();
    set("account", made_as.into());
    set("at", (js_sys::Date::now() - age_ms).into());
    set("status", 200.into());
    set("etag", JsValue::NULL);
    set("text", serde_json::to_string(&post).unwrap().into());
    let early = js_sys::Object::new();
    js_sys::Reflect::set(&early, &"/post/p1".into(), &js_sys::Promise::resolve(&answer)).unwrap();
    js_sys::Reflect::set(&web_sys::window().unwrap(), &"perchEarly".into(), &early).unwrap();
    // No server answers here: a read that is not taken fails.
    let config = common::config("http://127.0.0.1:9/api/v1");
    let session = Session::restore();
    perch::api::Api::new(&config, session)
}

#[wasm_bindgen_test]
async fn the_answer_read_early_as_this_account_is_taken_once() {
    let api = client_with_early_read("me", "me", 0.0);
    assert_eq!(api.get_post("p1").await.map(|p| p.content), Ok("read early".to_string()));
    // Taken: the next read asks the server.
    assert!(api.get_post("p1").await.is_err());
}

#[wasm_bindgen_test]
async fn an_answer_read_early_as_another_account_is_never_taken() {
    let api = client_with_early_read("me", "someone-else", 0.0);
    assert!(api.get_post("p1").await.is_err());
}

#[wasm_bindgen_test]
async fn an_answer_read_early_long_ago_is_not_taken() {
    // The page held what it needed then, and reads this path a minute later.
    let api = client_with_early_read("me", "me", 60_000.0);
    assert!(api.get_post("p1").await.is_err());
}
