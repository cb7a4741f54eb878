//! Staying in place: the scroll position of each address is saved when the
//! person follows a link away from it, and given back when they return with
//! Back or Forward to a page the store still has, with focus on the post
//! they had opened from it. Also moves focus to the page heading after a
//! navigation. Scroll positions live here only.

use super::dom;
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where the person was on an address they left.
struct Left {
    scroll_y: f64,
    /// The post whose card a click left it from.
    opened: Option<String>,
}

thread_local! {
    /// Per address (path and query), where the person left it.
    static LEFT: RefCell<HashMap<String, Left>> = RefCell::new(HashMap::new());
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
pub fn install() {
    use wasm_bindgen::prelude::*;
    if let Ok(history) = window().history() {
        let _ = history.set_scroll_restoration(web_sys::ScrollRestoration::Manual);
    }
    // Capture phase: runs before the router handles the click and scrolls.
    let save = Closure::<dyn Fn(web_sys::Event)>::new(move |event: web_sys::Event| {
        NAVIGATED.store(true, Ordering::SeqCst);
        let opened = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| dom::card_around(&el))
            .and_then(|card| dom::uuid_of(&card));
        let scroll_y = window().scroll_y().unwrap_or(0.0);
        LEFT.with(|m| {
            let mut m = m.borrow_mut();
            let kept = m.entry(address()).or_insert(Left { scroll_y, opened: None });
            kept.scroll_y = scroll_y;
            if opened.is_some() {
                kept.opened = opened;
            }
        });
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

/// Whether the page, each time `shown` changes (a page reused for another
/// address, as a thread is for the next thread), was reached with Back or
/// Forward. Read once per change: it forgets the Back it has seen.
pub fn returning_to<T: Clone + PartialEq + Send + Sync + 'static>(shown: Memo<T>) -> Memo<bool> {
    Memo::new(move |_| {
        crate::reactive::depend_on(shown);
        RETURNING.swap(false, Ordering::SeqCst)
    })
}

/// Whether this page was reached with Back or Forward (and forgets it),
/// for a page that is made anew for each address (Home).
pub fn take_returning() -> bool {
    RETURNING.swap(false, Ordering::SeqCst)
}

/// After the next frame, scrolls to where the person left this address,
/// and gives focus back to the post they had opened from it (without
/// scrolling again), so Tab goes on from there.
pub fn restore_scroll() {
    let here = address();
    let Some((y, opened)) = LEFT.with(|m| m.borrow().get(&here).map(|l| (l.scroll_y, l.opened.clone()))) else {
        return;
    };
    request_animation_frame(move || {
        window().scroll_to_with_x_and_y(0.0, y);
        if let Some(card) = opened.and_then(|uuid| dom::card_of(&uuid)) {
            dom::focus_without_scrolling(&card);
        }
    });
}

/// Focus on a kept page shown again (`root`, Home): after Back or
/// Forward, the post the person had opened from it; else, after a
/// navigation, its heading, as a page drawn anew gives it. Never moves
/// the scroll, and never takes focus from something that has it.
pub fn focus_on_return(root: &web_sys::Element, back: bool) {
    use wasm_bindgen::JsCast;
    if document().active_element().is_some_and(|el| el.tag_name() != "BODY") {
        return;
    }
    let opened = back.then(|| LEFT.with(|m| m.borrow().get(&address()).and_then(|l| l.opened.clone()))).flatten();
    let card = opened.and_then(|uuid| dom::card_in(root, &uuid));
    let heading =
        || NAVIGATED.load(Ordering::SeqCst).then(|| root.query_selector("h1.page-heading").ok().flatten()).flatten();
    if let Some(el) = card.or_else(heading).and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
        dom::focus_without_scrolling(&el);
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
            dom::focus_without_scrolling(&h);
        }
    });
    view! { <h1 tabindex="-1" node_ref=heading class="page-heading" dir="auto">{move || text.get()}</h1> }
}

/// The tab's title while this page is shown, kept up to date when `text`
/// changes. (What leptos_meta's `<Title>` did here, without the crate.)
#[component]
pub fn Title(#[prop(into)] text: Signal<String>) -> impl IntoView {
    Effect::new(move |_| {
        let text = text.get();
        let unread = TITLE.with(|t| {
            let mut t = t.borrow_mut();
            t.0 = Some(text.clone());
            t.1
        });
        document().set_title(&with_count(&text, unread));
    });
}

thread_local! {
    /// The page's own title, as its `Title` last set it (`None`: none yet;
    /// `index.html`'s stands), and the unread count shown before it ([`show_unread`]).
    static TITLE: RefCell<(Option<String>, u32)> = const { RefCell::new((None, 0)) };
}

/// `title` as the tab shows it: "(3) Perch" while 3 activities are
/// unread; the page's own title as it is otherwise (Home's may start with
/// its own count of new posts: it stays).
fn with_count(title: &str, unread: u32) -> String {
    if unread == 0 {
        title.to_owned()
    } else {
        format!("({}) {title}", crate::i18n::number(u64::from(unread)))
    }
}

/// Shows how many activities are unread in the tab's title ("(3) Perch")
/// and, in an installed app, on its icon (`navigator.setAppBadge`, where
/// the browser has it), whatever page is open.
pub fn show_unread(unread: u32) {
    let document = document();
    let base = TITLE.with(|t| {
        let mut t = t.borrow_mut();
        t.1 = unread;
        t.0.get_or_insert_with(|| document.title()).clone()
    });
    document.set_title(&with_count(&base, unread));
    let navigator = window().navigator();
    let (method, args) = if unread == 0 { ("clearAppBadge", vec![]) } else { ("setAppBadge", vec![unread]) };
    if let Ok(f) = js_sys::Reflect::get(&navigator, &method.into()) {
        if let Some(f) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&f) {
            let answer = match args.first() {
                Some(n) => f.call1(&navigator, &(*n).into()),
                None => f.call0(&navigator),
            };
            // A refused badge (not installed, no permission) is a rejected promise: caught.
            if let Ok(promise) = answer.and_then(wasm_bindgen::JsCast::dyn_into::<js_sys::Promise>) {
                leptos::task::spawn_local(async move {
                    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
                });
            }
        }
    }
}

#[cfg(test)]
mod title_tests {
    use super::with_count;

    #[test]
    fn the_unread_count_leads_the_page_s_own_title() {
        assert_eq!(with_count("Perch", 3), "(3) Perch");
        assert_eq!(with_count("(12) Home · Perch", 0), "(12) Home · Perch", "Home's own count stays");
        assert_eq!(with_count("(12) Home · Perch", 1), "(1) (12) Home · Perch");
    }
}
