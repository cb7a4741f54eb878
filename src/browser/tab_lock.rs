//! A lock shared by every tab of the app's origin (the Web Locks API,
//! `navigator.locks`), for work only one tab may do at a time: refreshing
//! an account's tokens, whose refresh token the server retires on use
//! (`api/refresh.rs`); changing and sending the outbox (`store/outbox/`).
//! Where the API is missing (an old browser, a page not served securely),
//! the work runs under the tab's own lock alone, as it did before.

use js_sys::{Function, Object, Promise, Reflect};
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
struct Release {
    held: Rc<RefCell<Option<Function>>>,
    /// The grant's callback, which must live as long as the lock is held.
    _on_grant: Box<dyn std::any::Any>,
}

impl Drop for Release {
    fn drop(&mut self) {
        let held = self.held.borrow_mut().take();
        if let Some(release) = held {
            let _ = release.call0(&JsValue::NULL);
        }
    }
}

/// How a lock is asked for.
enum Ask {
    /// Waiting as long as it takes.
    Wait,
    /// Waiting at most this many milliseconds.
    Within(u32),
    /// Taken from whoever holds it (`steal`): their hold ends now.
    Steal,
}

/// `AbortSignal.timeout(ms)`, where the browser has it.
pub fn timeout_signal(ms: u32) -> Option<JsValue> {
    let class = Reflect::get(&js_sys::global(), &"AbortSignal".into()).ok()?;
    let timeout = Reflect::get(&class, &"timeout".into()).ok()?.dyn_into::<Function>().ok()?;
    timeout.call1(&class, &ms.into()).ok()
}

/// Asks for the lock `name`: `Some` once it is this tab's (held until
/// the answer is dropped), `None` when the request failed (a wait that
/// ran out, a browser that refused it).
async fn ask(locks: &JsValue, request: &Function, name: &str, how: Ask) -> Option<Release> {
    let mut tell = None;
    let settled = Promise::new(&mut |resolve, _| tell = Some(resolve));
    let tell = tell?;
    let held = Rc::new(RefCell::new(None::<Function>));
    let on_grant = {
        let (held, tell) = (held.clone(), tell.clone());
        Closure::once(move |_lock: JsValue| -> Promise {
            // Held from here until released; then `settled` is told.
            let hold = Promise::new(&mut |resolve, _| *held.borrow_mut() = Some(resolve));
            let _ = tell.call0(&JsValue::NULL);
            hold
        })
    };
    let options = Object::new();
    match how {
        Ask::Wait => {}
        Ask::Within(ms) => {
            if let Some(signal) = timeout_signal(ms) {
                let _ = Reflect::set(&options, &"signal".into(), &signal);
            }
        }
        Ask::Steal => {
            let _ = Reflect::set(&options, &"steal".into(), &JsValue::TRUE);
        }
    }
    let asked = request.call3(locks, &name.into(), &options, on_grant.as_ref().unchecked_ref()).ok()?;
    // A refused request (a wait that ran out) settles `settled` too, with
    // nothing held.
    if let Some(catch) = Reflect::get(&asked, &"catch".into()).ok().and_then(|f| f.dyn_into::<Function>().ok()) {
        let _ = catch.call1(&asked, &tell);
    }
    let _ = JsFuture::from(settled).await;
    let granted = held.borrow().is_some();
    granted.then(|| Release { held, _on_grant: Box::new(on_grant) })
}

/// Runs `work` while this tab holds the lock `name`, which no other tab of
/// the origin holds meanwhile; other tabs asking wait their turn.
pub async fn exclusive<T>(name: &str, work: impl Future<Output = T>) -> T {
    let Some((locks, request)) = lock_request() else { return work.await };
    // Held until dropped, however the work ends; a request that failed runs
    // the work unlocked, as a browser without the API would.
    let release = ask(&locks, &request, name, Ask::Wait).await;
    let done = work.await;
    drop(release);
    done
}

/// As [`exclusive`], but a holder that has not let go within `wait_ms`
/// (a tab whose work hangs) is taken over: its hold ends and this work
/// runs. A tab that closes lets go of its locks at once, without waiting.
pub async fn exclusive_within<T>(name: &str, wait_ms: u32, work: impl Future<Output = T>) -> T {
    let Some((locks, request)) = lock_request() else { return work.await };
    let release = match ask(&locks, &request, name, Ask::Within(wait_ms)).await {
        Some(held) => Some(held),
        None => ask(&locks, &request, name, Ask::Steal).await,
    };
    let done = work.await;
    drop(release);
    done
}
