//! The lock shared by tabs (`navigator.locks`) in real Chromium: work under
//! one name runs one at a time, in the order asked, even when the first
//! holder waits in the middle of its work, as a token refresh waits for the
//! server.

use perch::browser::tab_lock::{exclusive, exclusive_within};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Waits `ms` milliseconds (a timer, so other work may run meanwhile).
async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

#[wasm_bindgen_test]
async fn work_under_one_name_runs_one_at_a_time() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let step = |log: &Rc<RefCell<Vec<&'static str>>>, what| log.borrow_mut().push(what);
    let first = {
        let log = log.clone();
        exclusive("perch-test-lock", async move {
            step(&log, "first starts");
            sleep(100).await;
            step(&log, "first ends");
        })
    };
    let second = {
        let log = log.clone();
        exclusive("perch-test-lock", async move {
            step(&log, "second starts");
            step(&log, "second ends");
        })
    };
    futures::join!(first, second);
    assert_eq!(*log.borrow(), ["first starts", "first ends", "second starts", "second ends"]);
}

#[wasm_bindgen_test]
async fn a_lock_abandoned_with_its_work_is_let_go() {
    // The first holder's work is dropped half-way (its page went): the next
    // one still gets the lock.
    let abandoned = Box::pin(exclusive("perch-test-abandoned", async { sleep(10_000).await }));
    // Whichever ends first, the other is dropped with the answer.
    let _ = futures::future::select(abandoned, Box::pin(sleep(50))).await;
    let ran = Rc::new(RefCell::new(false));
    let flag = ran.clone();
    let next = Box::pin(exclusive("perch-test-abandoned", async move { *flag.borrow_mut() = true }));
    let _ = futures::future::select(next, Box::pin(sleep(2_000))).await;
    assert!(*ran.borrow(), "the lock was let go when its work was dropped");
}

#[wasm_bindgen_test]
async fn a_holder_that_hangs_is_taken_over_after_the_bounded_wait_and_not_before() {
    // The first holder's work hangs (a request that never answers): a second
    // asking with a bounded wait runs once the wait ran out, not for ever after.
    let log = Rc::new(RefCell::new(Vec::new()));
    let hung = {
        let log = log.clone();
        Box::pin(exclusive("perch-test-hung", async move {
            log.borrow_mut().push("hung starts");
            sleep(20_000).await;
        }))
    };
    let patient = {
        let log = log.clone();
        Box::pin(exclusive_within("perch-test-hung", 400, async move { log.borrow_mut().push("taken over") }))
    };
    let early = {
        let log = log.clone();
        async move {
            sleep(150).await;
            log.borrow_mut().push("150 ms");
        }
    };
    let both = futures::future::join(patient, early);
    let _ = futures::future::select(futures::future::select(hung, Box::pin(both)), Box::pin(sleep(5_000))).await;
    assert_eq!(*log.borrow(), ["hung starts", "150 ms", "taken over"]);
}

#[wasm_bindgen_test]
async fn a_bounded_wait_for_a_free_lock_runs_at_once_and_in_turn() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let first = {
        let log = log.clone();
        exclusive_within("perch-test-bounded", 5_000, async move {
            log.borrow_mut().push("first starts");
            sleep(100).await;
            log.borrow_mut().push("first ends");
        })
    };
    let second = {
        let log = log.clone();
        exclusive_within("perch-test-bounded", 5_000, async move { log.borrow_mut().push("second") })
    };
    futures::join!(first, second);
    assert_eq!(*log.borrow(), ["first starts", "first ends", "second"]);
}
