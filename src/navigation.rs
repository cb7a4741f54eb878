//! Staying in place: the scroll position of each address is saved when the
//! person follows a link away from it, and given back when they return with
//! Back or Forward to a page the store still has, with focus on the post
//! they had opened from it. Also moves focus to the page heading after a
//! navigation.

use crate::store::Store;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    /// Per address, the post whose card a click left it from.
    static OPENED_FROM: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
}

static RETURNING: AtomicBool = AtomicBool::new(false);
/// Set by the first click or Back/Forward: from then on a new page's heading
/// takes focus. The first page of a visit leaves focus where the browser
/// puts it, so the skip link stays the first stop.
static NAVIGATED: AtomicBool = AtomicBool::new(false);

fn address() -> String {
    let location = window().location();
    format!("{}{}", location.pathname().unwrap_or_default(), location.search().unwrap_or_default())
}

/// Installs the listeners for the whole visit; call once, in the shell.
pub fn install(store: Store) {
    use wasm_bindgen::prelude::*;
    if let Ok(history) = window().history() {
        let _ = history.set_scroll_restoration(web_sys::ScrollRestoration::Manual);
    }
    // Capture phase: runs before the router handles the click and scrolls.
    let save = Closure::<dyn Fn(web_sys::Event)>::new(move |event: web_sys::Event| {
        NAVIGATED.store(true, Ordering::SeqCst);
        store.save_scroll(&address(), window().scroll_y().unwrap_or(0.0));
        let card = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("article[data-uuid]").ok().flatten())
            .and_then(|article| article.get_attribute("data-uuid"));
        if let Some(uuid) = card {
            OPENED_FROM.with(|m| m.borrow_mut().insert(address(), uuid));
        }
    })
    .into_js_value();
    let options = web_sys::AddEventListenerOptions::new();
    options.set_capture(true);
    let _ = window().add_event_listener_with_callback_and_add_event_listener_options(
        "click",
        save.unchecked_ref(),
        &options,
    );
    let returning = Closure::<dyn Fn(web_sys::Event)>::new(|_: web_sys::Event| RETURNING.store(true, Ordering::SeqCst))
        .into_js_value();
    let _ = window().add_event_listener_with_callback("popstate", returning.unchecked_ref());
}

/// Whether this page was reached with Back or Forward (and forgets it).
pub fn take_returning() -> bool {
    RETURNING.swap(false, Ordering::SeqCst)
}

/// The card of post `uuid` on the page, found by comparing text (a uuid from
/// the server is never put into a selector).
pub fn card_of(uuid: &str) -> Option<web_sys::HtmlElement> {
    let all = document().query_selector_all("article[data-uuid]").ok()?;
    (0..all.length())
        .filter_map(|i| all.item(i))
        .map(|n| n.unchecked_into::<web_sys::HtmlElement>())
        .find(|el| el.get_attribute("data-uuid").as_deref() == Some(uuid))
}

/// After the next frame, scrolls to where the person left this address,
/// and gives focus back to the post they had opened from it (without
/// scrolling again), so Tab goes on from there.
pub fn restore_scroll(store: &Store) {
    let here = address();
    if let Some(y) = store.scroll(&here) {
        request_animation_frame(move || {
            window().scroll_to_with_x_and_y(0.0, y);
            let Some(uuid) = OPENED_FROM.with(|m| m.borrow().get(&here).cloned()) else { return };
            if let Some(card) = card_of(&uuid) {
                let options = web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = card.focus_with_options(&options);
            }
        });
    }
}

/// An `h1` that takes focus when it appears after a navigation, so screen
/// readers and keyboard users start at the new page's title; never while
/// something else on the page has focus.
#[component]
pub fn PageHeading(#[prop(into)] text: Signal<String>) -> impl IntoView {
    let heading = NodeRef::<leptos::html::H1>::new();
    Effect::new(move |_| {
        let nothing_focused = document().active_element().is_none_or(|el| el.tag_name() == "BODY");
        if let Some(h) = heading.get().filter(|_| nothing_focused && NAVIGATED.load(Ordering::SeqCst)) {
            let _ = h.focus_with_options(&{
                let o = web_sys::FocusOptions::new();
                o.set_prevent_scroll(true);
                o
            });
        }
    });
    view! { <h1 tabindex="-1" node_ref=heading class="page-heading" dir="auto">{move || text.get()}</h1> }
}

/// The tab's title while this page is shown, kept up to date when `text`
/// changes. (What leptos_meta's `<Title>` did here, without the crate.)
#[component]
pub fn Title(#[prop(into)] text: Signal<String>) -> impl IntoView {
    Effect::new(move |_| document().set_title(&text.get()));
}
