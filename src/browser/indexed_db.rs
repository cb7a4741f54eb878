//! The app's IndexedDB, as `index.html` opens it: two stores of one JSON
//! text per account (`window.perchCopy` and `window.perchOutbox`), and a
//! database of each account's last token refresh (`window.perchTokens`,
//! `api/refresh.rs`), whose
//! few lines of IndexedDB live in `index.html` so that the current
//! account's records are read at once, beside the wasm. This module only
//! calls them; what the texts mean is the store's (`store/copy/`,
//! `store/outbox/`).

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// The app's IndexedDB stores, each one JSON text per account, behind
/// `index.html`'s `window.perchCopy` and `window.perchOutbox`.
#[derive(Clone, Copy)]
pub enum Db {
    /// The local copy (`store/copy/`).
    Copies,
    /// The actions waiting to be sent (`store/outbox/`).
    Outbox,
    /// Each account's last token refresh (`api/refresh.rs`).
    Tokens,
}

/// `index.html`'s object for `db`; `None` without IndexedDB.
pub fn idb(db: Db) -> Option<JsValue> {
    let name = match db {
        Db::Copies => "perchCopy",
        Db::Outbox => "perchOutbox",
        Db::Tokens => "perchTokens",
    };
    let object = js_sys::Reflect::get(&window(), &name.into()).ok()?;
    object.is_object().then_some(object)
}

/// Calls `db[method](args)` and waits for its promise.
pub async fn call(db: Db, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let object = idb(db).ok_or(JsValue::NULL)?;
    let function: js_sys::Function = js_sys::Reflect::get(&object, &method.into())?.dyn_into()?;
    let promise = function.apply(&object, &args.iter().collect::<js_sys::Array>())?;
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&promise)).await
}

/// What `index.html` read from `db` for the account current at start, if
/// anything: `(account, text)` as it was kept, not read yet.
pub async fn read_at_start(db: Db) -> Option<(String, String)> {
    let object = idb(db)?;
    let promise = js_sys::Reflect::get(&object, &"read".into()).ok()?.dyn_into::<js_sys::Promise>().ok()?;
    let found = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let account = js_sys::Reflect::get(&found, &"account".into()).ok()?.as_string()?;
    let text = js_sys::Reflect::get(&found, &"text".into()).ok()?.as_string()?;
    Some((account, text))
}
