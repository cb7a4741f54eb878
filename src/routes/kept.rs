//! Pages kept while others show (issue 68): Home, and the lists' pages
//! last shown (at most [`LISTS_KEPT`]). A kept page's route only says that
//! it is shown ([`showing`]); the page itself is drawn by [`KeptPages`],
//! beside the router's pages, the first time it shows for the account, and
//! kept. While another page shows, it stays in the document, laid out as
//! it was, hidden with `content-visibility: hidden` (the class
//! [`AWAY`]): the browser neither lays it out nor paints it, nothing of it
//! is reached by Tab, find in page or a screen reader, the app's lookups
//! skip it (`browser::dom`), and its timeline runs no timer and no
//! listener ([`shown`]). Every way back shows the same nodes with the
//! layout they had, the post that was at the top of the screen at the same
//! offset ([`Place`]), and after Back the post opened from it has the focus.
//! Another account signing in drops them all; a list past the bound, the
//! one least recently shown.

use crate::account::session::use_session;
use crate::browser::dom::AWAY;
use leptos::prelude::*;
use std::sync::{Arc, Mutex};
use wasm_bindgen::JsCast;
use web_sys::Element;

/// At most this many lists' pages are kept (Home always is).
pub const LISTS_KEPT: usize = 3;

/// A kept page: its address, and the count of shows when it last showed.
type Page = (String, u64);

/// Which kept page shows, and which are kept.
#[derive(Clone, Copy)]
pub struct Kept {
    /// The address of the kept page shown, if one is.
    shown: RwSignal<Option<String>>,
    /// The account the pages are kept for, and their addresses in the
    /// order they were first shown, each with when it last showed.
    pages: RwSignal<(Option<String>, Vec<Page>)>,
    /// The page was last shown by Back or Forward.
    back: StoredValue<bool>,
}

impl Kept {
    /// Made once, by the app's shell.
    pub fn provide() {
        provide_context(Kept {
            shown: RwSignal::new(None),
            pages: RwSignal::new((None, Vec::new())),
            back: StoredValue::new(false),
        });
    }
}

/// In a kept page's route: the kept page at `address` shows while the
/// route does, following it (one route shows every list).
pub fn showing(address: Memo<String>) {
    let kept = expect_context::<Kept>();
    kept.back.set_value(crate::browser::navigation::take_returning());
    let last = Arc::new(Mutex::new(address.get_untracked()));
    set_shown(kept, last.lock().ok().map(|l| l.clone()));
    Effect::new({
        let last = last.clone();
        move |_| {
            let now = address.get();
            if let Ok(mut last) = last.lock() {
                *last = now.clone();
            }
            set_shown(kept, Some(now));
        }
    });
    // Only if no other kept page showed meanwhile (the next route's body
    // may come before this one's end).
    on_cleanup(move || {
        let last = last.lock().map(|l| l.clone()).unwrap_or_default();
        if kept.shown.try_with_untracked(|s| s.as_deref() == Some(last.as_str())) == Some(true) {
            let _ = kept.shown.try_set(None);
        }
    });
}

fn set_shown(kept: Kept, now: Option<String>) {
    if kept.shown.get_untracked() != now {
        kept.shown.set(now);
    }
}

/// Whether the kept page at `address` shows: hidden, its timeline does no
/// work.
pub fn shown(address: &str) -> Signal<bool> {
    let (kept, address) = (expect_context::<Kept>(), address.to_owned());
    Signal::derive(move || kept.shown.with(|s| s.as_deref() == Some(address.as_str())))
}

/// The kept pages, beside the router's pages; `draw` draws the page at an
/// address the first time it shows.
#[component]
pub fn KeptPages(draw: fn(&str) -> AnyView) -> impl IntoView {
    let kept = expect_context::<Kept>();
    let session = use_session();
    let account = Memo::new(move |_| session.user().map(|u| u.uuid));
    let shows = StoredValue::new(0u64);
    Effect::new(move |_| {
        let (me, shown) = (account.get(), kept.shown.get());
        let (whose, pages) = kept.pages.get_untracked();
        let mut next = if whose == me { pages.clone() } else { Vec::new() };
        if let Some(address) = shown {
            shows.update_value(|n| *n += 1);
            let now = shows.get_value();
            match next.iter_mut().find(|(a, _)| *a == address) {
                Some(page) => page.1 = now,
                None => next.push((address, now)),
            }
            // Past the bound, the list least recently shown goes.
            let lists: Vec<u64> = next.iter().filter(|(a, _)| a != "/").map(|(_, at)| *at).collect();
            if lists.len() > LISTS_KEPT {
                let oldest = lists.iter().min().copied();
                next.retain(|(a, at)| a == "/" || Some(*at) != oldest);
            }
        }
        if (&whose, &pages) != (&me, &next) {
            kept.pages.set((me, next));
        }
    });
    let pages =
        move || kept.pages.with(|(me, pages)| pages.iter().map(|(a, _)| (me.clone(), a.clone())).collect::<Vec<_>>());
    view! {
        <For each=pages key=|page| page.clone() let:page>
            <KeptPage address=page.1.clone() body=draw(&page.1)/>
        </For>
    }
}

/// One kept page: shown, or hidden in the document while another page
/// shows, and its place given back.
#[component]
fn KeptPage(address: String, body: AnyView) -> impl IntoView {
    let ctx = expect_context::<Kept>();
    let is_shown = shown(&address);
    let (outer, inner) = (NodeRef::<leptos::html::Div>::new(), NodeRef::<leptos::html::Div>::new());
    // Where the reader was at the last click, key or Back while the page
    // showed: what follows may scroll before it hides (the router does).
    let left = StoredValue::new(None::<Place>);
    let place = StoredValue::new(None::<Place>);
    let listening = StoredValue::new_local(Vec::<Box<dyn FnOnce()>>::new());
    Effect::new(move |was: Option<bool>| {
        let shown = is_shown.get();
        let (Some(outer), Some(inner)) = (outer.get(), inner.get()) else { return false };
        if was == Some(shown) {
            return shown;
        }
        if shown {
            back(&outer, &inner);
            // Now, and again before the next frame: the router scrolls to
            // the top once the route is drawn, after this. The first frame
            // shows the place.
            let kept = place.get_value();
            if let Some(place) = &kept {
                window().scroll_to_with_x_and_y(0.0, place.scroll_y(&inner));
            }
            let (root, back) = (inner.clone(), ctx.back.get_value());
            request_animation_frame(move || {
                if !is_shown.try_get_untracked().unwrap_or(false) {
                    return;
                }
                if let Some(place) = kept {
                    window().scroll_to_with_x_and_y(0.0, place.scroll_y(&root));
                }
                // The page left has gone by now (it may hold the focus until then).
                crate::browser::navigation::focus_on_return(&root, back);
            });
            left.set_value(None);
            let stops = ["click", "keydown", "popstate"].map(|event| {
                let root = inner.clone();
                let stop = crate::browser::dom::on_window_capture(event, move |ev| {
                    // Not for each letter typed: no shortcut leaves from a field.
                    let typing = ev.target().and_then(|t| t.dyn_into::<Element>().ok()).is_some_and(|el| {
                        matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                            || el.closest("[contenteditable]").ok().flatten().is_some()
                    });
                    if !(typing && ev.type_() == "keydown") {
                        left.set_value(Some(Place::of(&root, window().scroll_y().unwrap_or(0.0))));
                    }
                });
                Box::new(stop) as Box<dyn FnOnce()>
            });
            listening.set_value(stops.into());
        } else {
            if was.is_some() {
                listening.update_value(|stops| std::mem::take(stops).into_iter().for_each(|stop| stop()));
                let at = left.get_value().unwrap_or_else(|| Place::of(&inner, window().scroll_y().unwrap_or(0.0)));
                place.set_value(Some(at));
            }
            away(&outer, &inner);
        }
        shown
    });
    on_cleanup(move || {
        listening.try_update_value(|stops| std::mem::take(stops).into_iter().for_each(|stop| stop()));
    });
    view! {
        <div class="kept-page" node_ref=outer>
            <div node_ref=inner>{body}</div>
        </div>
    }
}

/// Hides `outer` (its contents `inner`), kept in the document and laid
/// out (`content-visibility: hidden`, style/main.css); takes the focus out
/// of it and the skip link's `#main` off its `main`.
fn away(outer: &Element, inner: &Element) {
    if let Some(el) = document().active_element().filter(|el| inner.contains(Some(el))) {
        if let Some(el) = el.dyn_ref::<web_sys::HtmlElement>() {
            let _ = el.blur();
        }
    }
    if let Ok(Some(main)) = inner.query_selector("main#main") {
        let _ = main.remove_attribute("id");
    }
    let _ = outer.class_list().add_1(AWAY);
}

/// Shows `outer` again, as [`away`] found it.
fn back(outer: &Element, inner: &Element) {
    let _ = outer.class_list().remove_1(AWAY);
    if let Ok(Some(main)) = inner.query_selector("main") {
        let _ = main.set_attribute("id", "main");
    }
}

/// Where the reader was on a kept page when it was left: the page's scroll, and
/// the card at the top of the screen with how far below the top it was
/// (what came or went above it since moves nothing).
#[derive(Clone)]
struct Place {
    scroll_y: f64,
    top: Option<(String, f64)>,
}

impl Place {
    /// The place in `page` of a reader scrolled to `scroll_y`.
    fn of(page: &Element, scroll_y: f64) -> Place {
        let now = window().scroll_y().unwrap_or(0.0);
        let cards = cards_in(page);
        // The cards are in order down the page: the first whose bottom is
        // below the top of the screen.
        let at = cards.partition_point(|card| card.get_bounding_client_rect().bottom() + now <= scroll_y);
        let top = cards.get(at).and_then(|card| {
            let offset = card.get_bounding_client_rect().top() + now - scroll_y;
            crate::browser::dom::uuid_of(card).map(|uuid| (uuid, offset))
        });
        Place { scroll_y, top }
    }

    /// The scroll that puts the reader back in `page`.
    fn scroll_y(&self, page: &Element) -> f64 {
        let now = window().scroll_y().unwrap_or(0.0);
        let card = self.top.as_ref().and_then(|(uuid, offset)| {
            let card = crate::browser::dom::card_in(page, uuid)?;
            Some(card.get_bounding_client_rect().top() + now - offset)
        });
        card.unwrap_or(self.scroll_y).max(0.0)
    }
}

/// The page's timeline cards, in order.
fn cards_in(page: &Element) -> Vec<Element> {
    crate::browser::dom::all_in(page, "[role=feed] > article.post[data-uuid]")
}
