//! A lock shared by every tab of the app's origin (the Web Locks API,
//! `navigator.locks`), for work only one tab may do at a time: refreshing
//! the session's tokens, whose refresh token the server retires on use;
//! changing and sending the outbox (`store/outbox.rs`).
//! Where the API is missing (an old browser, a page not served securely),
//! the work runs under the tab's own lock alone, as it did before.

use js_sys::{Function, Promise, Reflect};
use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// `navigator.locks.request`, bound to `navigator.locks`, when the browser has it.
fn lock_request() -> Option<(JsValue, Function)> {
    let locks = Reflect::get(&leptos::prelude::window().navigator(), &"locks".into()).ok()?;
    if locks.is_undefined() || locks.is_null() {
        return None;
    }
    let request = Reflect::get(&locks, &"request".into()).ok()?.dyn_into::<Function>().ok()?;
    Some((locks, request))
}

/// Lets the lock go when dropped: after the work, or with it when the
/// request that waited for it is abandoned (its page went), so no tab is
/// left waiting for ever. A lock granted after that is let go at once (the
/// grant's callback has been dropped, and a callback that throws frees it).
struct Release(Rc<RefCell<Option<Function>>>);

impl Drop for Release {
    fn drop(&mut self) {
        let held = self.0.borrow_mut().take();
        if let Some(release) = held {
            let _ = release.call0(&JsValue::NULL);
        }
    }
}

/// Runs `work` while this tab holds the lock `name`, which no other tab of
/// the origin holds meanwhile; other tabs asking wait their turn.
pub async fn exclusive<T>(name: &str, work: impl Future<Output = T>) -> T {
    let Some((locks, request)) = lock_request() else { return work.await };
    // `granted` settles once the lock is this tab's (or the request failed:
    // the work then runs unlocked); the lock is held until `release` is
    // called, however the work ends.
    let mut tell_granted = None;
    let granted = Promise::new(&mut |resolve, _| tell_granted = Some(resolve));
    let Some(tell_granted) = tell_granted else { return work.await };
    let release = Release(Rc::default());
    let on_grant = {
        let (release, tell_granted) = (release.0.clone(), tell_granted.clone());
        Closure::once(move |_lock: JsValue| -> Promise {
            let _ = tell_granted.call0(&JsValue::NULL);
            Promise::new(&mut |resolve, _| *release.borrow_mut() = Some(resolve))
        })
    };
    if let Ok(asked) = request.call2(&locks, &name.into(), on_grant.as_ref().unchecked_ref()) {
        // A refused request settles `granted` too (`asked.catch(resolve)`).
        if let Some(catch) = Reflect::get(&asked, &"catch".into()).ok().and_then(|f| f.dyn_into::<Function>().ok()) {
            let _ = catch.call1(&asked, &tell_granted);
        }
        let _ = JsFuture::from(granted).await;
    }
    let done = work.await;
    drop(release);
    drop(on_grant);
    done
}
