//! One home for the page's DOM as the app touches it outside its views:
//! the ids elements are given ([`DomId`]), finding a post's card, and
//! giving focus without scrolling. A uuid from the server is never put
//! into a selector: cards are found by comparing their `data-uuid`.

use leptos::prelude::*;
use std::fmt;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// Every id the app gives an element that code looks up again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomId<'a> {
    /// The box of a new post, and its counter.
    PostText,
    PostCount,
    /// The reply box under a thread's post, and its counter.
    ReplyText,
    ReplyCount,
    /// A card's author link, which names the card.
    CardHeading(&'a str),
    /// The edit box of the account's post, and its counter.
    EditText(&'a str),
    EditCount(&'a str),
    /// Undo after a bookmark was removed on `/bookmarks`.
    BookmarkUndo,
    /// Undo after a draft was discarded on `/drafts`.
    DraftUndo,
    /// Part `n` (from 2) of a thread written in the composer whose first
    /// box is the first id.
    ThreadPart(&'a str, usize),
    /// Undo after a list was deleted on `/lists`.
    ListUndo,
    /// A list's link on `/lists`, its rename box, its Move up (`true`) or
    /// down button.
    ListLink(&'a str),
    ListName(&'a str),
    ListMove(&'a str, bool),
}

impl fmt::Display for DomId<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DomId::PostText => f.write_str("post-text"),
            DomId::ReplyText => f.write_str("reply-text"),
            DomId::PostCount => f.write_str("post-text-count"),
            DomId::ReplyCount => f.write_str("reply-text-count"),
            DomId::EditCount(uuid) => write!(f, "edit-{uuid}-count"),
            DomId::CardHeading(uuid) => write!(f, "post-{uuid}"),
            DomId::EditText(uuid) => write!(f, "edit-{uuid}"),
            DomId::BookmarkUndo => f.write_str("bookmark-undo"),
            DomId::DraftUndo => f.write_str("draft-undo"),
            DomId::ThreadPart(field, n) => write!(f, "{field}-part-{n}"),
            DomId::ListUndo => f.write_str("list-undo"),
            DomId::ListLink(id) => write!(f, "list-{id}"),
            DomId::ListName(id) => write!(f, "list-{id}-name"),
            DomId::ListMove(id, up) => write!(f, "list-{id}-{}", if *up { "up" } else { "down" }),
        }
    }
}

/// The class of a kept page while another page shows (`routes/kept.rs`):
/// it stays in the document, hidden, and no lookup here sees into it.
pub const AWAY: &str = "away";

/// What a post's card is: the selector every lookup of cards uses (not
/// one of a kept page hidden, [`AWAY`]).
const CARD: &str = "main article.post[data-uuid]:not(.away *)";

/// The cards on the page, in reading order.
pub fn cards() -> Vec<HtmlElement> {
    all(CARD)
}

/// The cards of the page's feed, in reading order.
pub fn feed_cards() -> Vec<HtmlElement> {
    all("main [role=feed] article.post[data-uuid]:not(.away *)")
}

fn all(selector: &str) -> Vec<HtmlElement> {
    let Ok(list) = document().query_selector_all(selector) else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<HtmlElement>().ok()).collect()
}

/// The elements under `root` that `selector` names, in document order.
pub fn all_in(root: &Element, selector: &str) -> Vec<Element> {
    let Ok(list) = root.query_selector_all(selector) else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<Element>().ok()).collect()
}

/// The element with `id` on the page shown: a kept page hidden
/// ([`AWAY`]) may hold one with the same id.
pub fn by_id(id: &str) -> Option<Element> {
    document().query_selector(&format!("[id=\"{id}\"]:not(.{AWAY} *)")).ok().flatten()
}

/// The uuid a card shows.
pub fn uuid_of(card: &Element) -> Option<String> {
    card.get_attribute("data-uuid")
}

/// The card of post `uuid`, if it is on the page.
pub fn card_of(uuid: &str) -> Option<HtmlElement> {
    cards().into_iter().find(|el| uuid_of(el).as_deref() == Some(uuid))
}

/// The card of post `uuid` inside `root`, if it is there.
pub fn card_in(root: &Element, uuid: &str) -> Option<Element> {
    let list = root.query_selector_all("article.post[data-uuid]").ok()?;
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .find(|el| uuid_of(el).as_deref() == Some(uuid))
}

/// The card `el` is in (the element itself when it is a card).
pub fn card_around(el: &Element) -> Option<Element> {
    el.closest(CARD).ok().flatten()
}

/// Where focus goes when post `uuid`'s card leaves: the next card of its
/// own list (past the replies nested in it), else the one before it (not
/// one nested in that), else the card it is nested in (the post it
/// answers, in a thread's tree).
pub fn neighbour_of(uuid: &str) -> Option<String> {
    let cards = cards();
    let at = cards.iter().position(|el| uuid_of(el).as_deref() == Some(uuid))?;
    let parent = cards[at].parent_element();
    let same_list = |c: &&HtmlElement| c.parent_element() == parent;
    let next = cards[at + 1..].iter().find(same_list);
    let before = || cards[..at].iter().rev().find(same_list).cloned().map(Element::from);
    let around = || parent.as_ref().and_then(card_around);
    next.cloned().map(Element::from).or_else(before).or_else(around).and_then(|c| uuid_of(&c))
}

/// Gives `el` focus and leaves the scroll where it is.
pub fn focus_without_scrolling(el: &HtmlElement) {
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = el.focus_with_options(&options);
}

/// Gives focus to `el`, if there is one.
pub fn focus(el: Option<Element>) {
    if let Some(el) = el.and_then(|el| el.dyn_into::<HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// Whether the screen is as wide as `min_width` (a CSS length) now; and
/// a signal of it that follows the window's size.
pub fn wide_at_least(min_width: &'static str) -> leptos::prelude::Signal<bool> {
    use leptos::prelude::*;
    let query = format!("(min-width: {min_width})");
    let now = move || window().match_media(&query).ok().flatten().is_some_and(|m| m.matches());
    let wide = RwSignal::new(now());
    let handle = window_event_listener(leptos::ev::resize, move |_| {
        let is = now();
        if wide.get_untracked() != is {
            wide.set(is);
        }
    });
    on_cleanup(move || handle.remove());
    wide.into()
}

/// The card (`article.post`) an event happened in.
pub fn card_of_event(ev: &web_sys::Event) -> Option<Element> {
    ev.target()?.dyn_into::<Element>().ok()?.closest("article.post").ok().flatten()
}

/// Gives focus to `card`'s "⋯" once the page has been redrawn: where an
/// edit or a deletion chosen there ends when it closes without going
/// (Save, Cancel).
pub fn focus_more_later(card: Element) {
    request_animation_frame(move || {
        focus(card.query_selector(":scope > header details.card-more > summary").ok().flatten())
    });
}

/// Gives focus to the element with `id` once the page has been redrawn
/// (the edit box when Edit opens it, the Edit button when Save or Cancel
/// closes it), as Pinafore does, so keyboard users stay where they were.
pub fn focus_later(id: DomId) {
    let id = id.to_string();
    request_animation_frame(move || focus(by_id(&id)));
}

/// Resolves once the browser has painted the frame being prepared now (a
/// task after the next animation frame): what was just drawn from memory
/// is on screen before the requests that read it again start, so they
/// neither hold up that paint nor share its main-thread time.
pub async fn after_paint() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let next_task = wasm_bindgen::closure::Closure::once_into_js(move || {
            let _ = leptos::prelude::window().set_timeout_with_callback(resolve.unchecked_ref());
        });
        let _ = leptos::prelude::window().request_animation_frame(next_task.unchecked_ref());
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Resolves when the browser is next idle (`requestIdleCallback`; at the
/// latest `timeout_ms` later, and after 200 ms where it has none): once the
/// tasks that draw what was just read, a few cards a task, are done.
pub async fn when_idle(timeout_ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let window = leptos::prelude::window();
        let idle = js_sys::Reflect::get(&window, &"requestIdleCallback".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        match idle {
            Some(idle) => {
                let options = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&options, &"timeout".into(), &timeout_ms.into());
                let _ = idle.call2(&window, &resolve, &options);
            }
            None => {
                let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(resolve.unchecked_ref(), 200);
            }
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Writes `text` to the clipboard; `false` when the browser refuses (no
/// clipboard here, no permission, not a secure context).
pub async fn copy_text(text: &str) -> bool {
    let navigator = window().navigator();
    let Some(clipboard) = js_sys::Reflect::get(&navigator, &"clipboard".into()).ok().filter(|c| c.is_object()) else {
        return false;
    };
    let Some(write) =
        js_sys::Reflect::get(&clipboard, &"writeText".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return false;
    };
    let Some(promise) = write.call1(&clipboard, &text.into()).ok().and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}

/// An app path as an address to share: on this page's origin and base.
pub fn address_of(path: &str) -> String {
    let here = window().location().href().unwrap_or_default();
    web_sys::Url::new_with_base(path, &here).map(|u| u.href()).unwrap_or_else(|_| path.to_owned())
}

/// Calls `f` for each `event` on the window, in the capture phase: before
/// any element's handler and the router's, while the page is as it was.
/// Until the answered stop is called.
pub fn on_window_capture(event: &str, f: impl Fn(web_sys::Event) + 'static) -> impl FnOnce() {
    let closure = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(f);
    let options = web_sys::AddEventListenerOptions::new();
    options.set_capture(true);
    let _ = window().add_event_listener_with_callback_and_add_event_listener_options(
        event,
        closure.as_ref().unchecked_ref(),
        &options,
    );
    let event = event.to_owned();
    move || {
        let _ = window().remove_event_listener_with_callback_and_bool(&event, closure.as_ref().unchecked_ref(), true);
        drop(closure);
    }
}
