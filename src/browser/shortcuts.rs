//! Keyboard shortcuts for reading, on every page with posts: `j`/`k` move
//! focus between posts, `l` likes, `b` bookmarks, `r` replies, `o` or Enter opens the
//! thread, `n` goes to the composer, `/` to search, `g h` Home, `g l` Lists, `?` lists them. Never while typing in a
//! field or with Ctrl, Alt or Meta held; they can be turned off (the choice
//! is kept in `localStorage`), and the list stays reachable from the
//! account menu.

use super::dom;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// A composer's box's keys: Ctrl/Cmd+Enter runs `send` (every box of it,
/// a thread's parts too).
pub fn send_on_ctrl_enter(send: Callback<()>) -> impl Fn(leptos::ev::KeyboardEvent) + 'static {
    move |ev| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            send.run(());
        }
    }
}

/// Whether shortcuts are on (they are unless turned off).
pub fn enabled() -> bool {
    crate::browser::web_storage::get(&crate::browser::web_storage::Key::Shortcuts).is_none_or(|v| v != "off")
}

pub fn set_enabled(on: bool) {
    use crate::browser::web_storage::{remove, set, Key};
    if on {
        remove(&Key::Shortcuts);
    } else {
        set(&Key::Shortcuts, "off");
    }
}

/// Whether the help is open; provided by the shell.
#[derive(Clone, Copy)]
pub struct Help(pub RwSignal<bool>);

/// Focuses the first post on the page, without scrolling.
pub fn focus_first_post() {
    if let Some(post) = dom::cards().first() {
        dom::focus_without_scrolling(post);
    }
}

/// The post holding the focus.
fn current() -> Option<Element> {
    dom::card_around(&document().active_element()?)
}

fn focus_post(post: &HtmlElement) {
    dom::focus_without_scrolling(post);
    let scroll = web_sys::ScrollIntoViewOptions::new();
    scroll.set_block(web_sys::ScrollLogicalPosition::Nearest);
    post.scroll_into_view_with_scroll_into_view_options(&scroll);
}

/// Moves the focus `step` posts on (or to the first post in view).
fn move_focus(step: i32) {
    let posts = dom::cards();
    if posts.is_empty() {
        return;
    }
    let at = current().and_then(|c| posts.iter().position(|p| c.is_same_node(Some(p))));
    let next = match at {
        Some(i) => (i as i32 + step).clamp(0, posts.len() as i32 - 1) as usize,
        None => posts.iter().position(|p| p.get_bounding_client_rect().bottom() > 80.0).unwrap_or(0),
    };
    focus_post(&posts[next]);
}

/// Clicks `selector` inside the focused post.
fn click_in_current(selector: &str) -> bool {
    let Some(post) = current() else { return false };
    click_in(post.query_selector(selector).ok().flatten())
}

/// Clicks `element`, if there is one.
fn click_in(element: Option<Element>) -> bool {
    match element.and_then(|el| el.dyn_into::<HtmlElement>().ok()) {
        Some(el) => {
            el.click();
            true
        }
        None => false,
    }
}

/// Whether the key went to something the person types in.
fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return false };
    matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
        || el.dyn_ref::<HtmlElement>().is_some_and(|h| h.is_content_editable())
}

thread_local! {
    /// `g` was pressed: the next key names a page.
    static GO: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Goes to `href` within the app, as a click on a link to it would (the
/// router follows links clicked anywhere in the document).
fn go(href: &str) {
    let Ok(link) = document().create_element("a") else { return };
    let _ = link.set_attribute("href", href);
    let Some(body) = document().body() else { return };
    if body.append_child(&link).is_ok() {
        click_in(Some(link.clone()));
        link.remove();
    }
}

/// Listens for the shortcuts for the whole visit; call once, in the shell.
pub fn install(help: Help) {
    let listener = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.default_prevented() || ev.ctrl_key() || ev.alt_key() || ev.meta_key() || typing(&ev) || !enabled() {
            return;
        }
        if help.0.get_untracked() {
            return;
        }
        let on_post_itself = document().active_element().is_some_and(|el| el.matches("article.post").unwrap_or(false));
        // `g` then a letter goes to a page: the letter ends the pair either way.
        // (The paths as `nav/app_path.rs` builds them: this room is below it.)
        if GO.with(|g| g.replace(false)) {
            let to = match ev.key().as_str() {
                "h" => Some("/"),
                "l" => Some("/lists"),
                _ => None,
            };
            if let Some(to) = to {
                ev.prevent_default();
                go(to);
                return;
            }
        }
        let handled = match ev.key().as_str() {
            "j" => {
                move_focus(1);
                true
            }
            "k" => {
                move_focus(-1);
                true
            }
            "l" => click_in_current("button.like"),
            "b" => click_in_current("button.bookmark"),
            "r" => click_in_current("a.reply-link"),
            "o" => click_in_current("a.time-link"),
            "Enter" if on_post_itself => click_in_current("a.time-link"),
            "n" => {
                let field = dom::by_id("post-text").or_else(|| dom::by_id("reply-text"));
                match field.and_then(|f| f.dyn_into::<HtmlElement>().ok()) {
                    Some(field) => field.focus().is_ok(),
                    None => false,
                }
            }
            // The search box where it is shown, else the header's way to it
            // (the search page focuses its box).
            "/" => match dom::by_id("search-box").and_then(|f| f.dyn_into::<HtmlElement>().ok()) {
                Some(field) => field.focus().is_ok(),
                None => click_in(document().query_selector("header a.search-link").ok().flatten()),
            },
            "?" => {
                help.0.set(true);
                true
            }
            "g" => {
                GO.with(|g| g.set(true));
                true
            }
            _ => false,
        };
        if handled {
            ev.prevent_default();
        }
    });
    // For the whole visit.
    std::mem::forget(listener);
}
