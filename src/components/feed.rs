//! A paged list of posts as a `role="feed"`, with Load more (also pressed
//! automatically when it scrolls into view), its empty state and its error.
//!
//! Its cards are drawn in the tasks after the one that shows it, as many
//! as fit a task's budget each, the first screen's painted before the rest
//! (`browser/pace.rs`), so no task is long and the browser paints and
//! takes input between them (issue 37: a card costs 15–25 ms on a slow
//! phone). A feed that must
//! land somewhere at once (Back, a reading position to restore) is drawn
//! whole, as are pages that come later.
//!
//! A long feed keeps only the cards around the screen in the document
//! (`feed_window.rs`): the others are let go, their room kept.

use super::feed_window::{Heights, Window};
use super::keyed_list::keyed_list;
use super::post_card::{PostCard, PostSkeleton};
use super::states::{Empty, ErrorBox};
use crate::i18n::{t, Text};
use crate::store::Paged;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[component]
pub fn Feed(
    /// The list in the store.
    list: Signal<Paged>,
    /// Loads the next page.
    load_more: Callback<()>,
    /// The feed's accessible name.
    #[prop(into)]
    label: Text,
    /// What an empty list says (`None` when the page says it itself).
    #[prop(optional, into)]
    empty: Option<Text>,
    /// Shows the items a check found (`store::check_end`), for lists that
    /// are checked again.
    #[prop(optional)]
    show_fresh: Option<Callback<()>>,
    /// The button that shows them, for a count ("Show 3 new replies").
    #[prop(optional)]
    show_fresh_label: Option<fn(u64) -> Text>,
    /// The list is newest first: what was found goes on top, and its button
    /// floats over the top of the list instead of moving it.
    #[prop(optional)]
    newest_first: bool,
    /// Draw every card in the first task (the page must land on one of
    /// them at once: Back, a reading position).
    #[prop(optional)]
    all_at_once: bool,
    /// Drawn inside each card, at its end (a thread's nested replies).
    #[prop(optional)]
    under: Option<Callback<String, AnyView>>,
    /// Whether the page is shown, for a page kept while others show: while
    /// it is not, nothing of the feed listens.
    #[prop(optional, into)]
    shown: Option<Signal<bool>>,
) -> impl IntoView {
    // How many cards are drawn; `usize::MAX` once the first draw is done.
    let drawn = RwSignal::new(if all_at_once { usize::MAX } else { 0 });
    // The drawing task belongs to the feed, not to the effect that starts
    // it: an effect's tasks stop when it runs again (the list changed).
    let feed = Owner::current();
    Effect::new(move |started: Option<bool>| {
        let (len, now) = (list.with(|l| l.items.len()), drawn.get_untracked());
        if started == Some(true) || now == usize::MAX {
            return true;
        }
        if len == 0 {
            return false;
        }
        let draw = crate::browser::pace::draw_rest(drawn, move || list.with_untracked(|l| l.items.len()));
        match &feed {
            Some(feed) => feed.with(|| crate::nav::while_shown(draw)),
            None => crate::nav::while_shown(draw),
        }
        true
    });
    let drawing = move || list.with(|l| l.items.len() > drawn.get());
    // The cards kept in the document (every card but in a long feed), and
    // the room of those let go above and below them. A thread's replies,
    // which open in place, keep every card.
    let window = RwSignal::new(Window::default());
    let heights = StoredValue::new(Heights::default());
    let kept = move || {
        let (n, w) = (drawn.get(), window.get());
        list.with(|l| {
            let all = 0..l.items.len().min(n);
            let range = if under.is_some() { all.clone() } else { w.range(&l.items) };
            range.start.min(all.end)..range.end.min(all.end)
        })
    };
    let items = move || {
        let range = kept();
        list.with(|l| l.items[range].to_vec())
    };
    // A card's place in the list and the list's size (-1 until read to its
    // end), followed: posts shown above (Show N new) or merged in move the
    // cards already drawn. A memo each, so only a card whose place changed
    // is written to.
    let place_of = move |uuid: String| {
        Memo::new(move |_| {
            list.with(|l| {
                let at = l.items.iter().position(|u| *u == uuid).map_or(0, |i| i + 1);
                (at, if l.done { l.items.len() as i32 } else { -1 })
            })
        })
    };
    let let_go_above = move || {
        let range = kept();
        list.with(|l| heights.with_value(|h| h.of(&l.items[..range.start])))
    };
    let let_go_below = move || {
        let (range, n) = (kept(), drawn.get());
        list.with(|l| heights.with_value(|h| h.of(&l.items[range.end..l.items.len().min(n)])))
    };
    let feed_ref = NodeRef::<leptos::html::Div>::new();
    let spacer_above = NodeRef::<leptos::html::Div>::new();
    let spacer_below = NodeRef::<leptos::html::Div>::new();
    if under.is_none() {
        let_go_while_shown(
            shown.unwrap_or_else(|| Signal::from(true)),
            leptos_router::hooks::use_location().pathname,
            Looking { list, window, heights, feed: feed_ref, above: spacer_above, below: spacer_below },
        );
    }
    let button = NodeRef::<leptos::html::Button>::new();
    // Automatic loading: press Load more when it comes near the screen,
    // and look again once a load or a draw is over: the observer tells only
    // of changes, and a load that leaves the button near the screen (a tall
    // screen, a page that added little) would otherwise stop the feed there.
    // A press that changes nothing ends it (no loop).
    Effect::new(move |_| {
        let Some(el) = button.get() else { return };
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let visible =
                entries.iter().any(|e| e.unchecked_into::<web_sys::IntersectionObserverEntry>().is_intersecting());
            if visible {
                load_more.run(());
            }
        });
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin("200px");
        let Ok(observer) = web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options)
        else {
            return;
        };
        observer.observe(&el);
        let watched = send_wrapper::SendWrapper::new((observer.clone(), el));
        Effect::new(move |before: Option<(usize, bool, bool)>| {
            let (len, loading) = list.with(|l| (l.items.len(), l.loading));
            let now = (len, loading, drawing());
            if before.is_some_and(|b| b != now) && !now.1 && !now.2 {
                let (observer, el) = &*watched;
                observer.unobserve(el);
                observer.observe(el);
            }
            now
        });
        let observer = send_wrapper::SendWrapper::new(observer);
        let callback = send_wrapper::SendWrapper::new(callback);
        on_cleanup(move || {
            observer.disconnect();
            drop(callback);
        });
    });
    let show_new = move || {
        let n = list.with(|l| l.fresh.len());
        let show = show_fresh?;
        (n > 0).then(|| {
            view! {
                <div class="load-more">
                    <button type="button" class="show-new" on:click=move |_| show.run(())>
                        {show_fresh_label.map(|label| label(n as u64).signal())}
                    </button>
                </div>
            }
        })
    };
    view! {
        {move || newest_first.then(|| view! { <div class="new-posts">{show_new}</div> })}
        <div class="let-go" aria-hidden="true" node_ref=spacer_above style:height=move || px(let_go_above())></div>
        <div
            node_ref=feed_ref
            role=move || list.with(|l| !l.items.is_empty()).then_some("feed")
            aria-label={let label = label.clone(); move || list.with(|l| !l.items.is_empty()).then(|| label.get())}
            aria-busy=move || list.with(|l| l.loading).to_string()
        >
            {keyed_list(items, move |uuid| {
                let position = place_of(uuid.clone());
                match under {
                    Some(under) => {
                        let of = uuid.clone();
                        view! { <PostCard uuid position>{under.run(of.clone())}</PostCard> }.into_any()
                    }
                    None => view! { <PostCard uuid position/> }.into_any(),
                }
            })}
        </div>
        <div class="let-go" aria-hidden="true" node_ref=spacer_below style:height=move || px(let_go_below())></div>
        {move || list.with(|l| (l.done && l.items.is_empty() && l.fresh.is_empty() && l.error.is_none() && empty.is_some()).then(|| view! { <Empty text=empty.clone().unwrap_or_else(|| label.clone())/> }))}
        {move || list.with(|l| l.error.clone()).map(|error| view! { <ErrorBox error retry=load_more/> })}
        // The first page loads behind placeholders; Load more shows only
        // under a page, so nothing on screen is pushed down when posts arrive.
        {move || list.with(|l| l.pages_loaded == 0 && l.loading).then(|| view! {
            <PostSkeleton/><PostSkeleton/><PostSkeleton/>
            <p class="visually-hidden" role="status">{t::loading()}</p>
        })}
        // What a check found since the list was read to its end, shown
        // only when asked for: nothing moves under the reader.
        {move || (!newest_first).then(&show_new)}
        // Not while the first cards are drawn: it would be near the screen,
        // and load a page no one scrolled to.
        <div class="load-more" class:hidden=move || drawing() || list.with(|l| l.pages_loaded == 0 || l.done || l.error.is_some())>
            <button type="button" node_ref=button on:click=move |_| load_more.run(()) disabled=move || list.with(|l| l.loading)>
                {move || if list.with(|l| l.loading) { t::loading().get() } else { t::load_more().get() }}
            </button>
        </div>
    }
}

/// What a look at the screen reads and moves: the feed's list, its window
/// and the heights of the cards let go, and its nodes.
#[derive(Clone, Copy)]
struct Looking {
    list: Signal<Paged>,
    window: RwSignal<Window>,
    heights: StoredValue<Heights>,
    feed: NodeRef<leptos::html::Div>,
    above: NodeRef<leptos::html::Div>,
    below: NodeRef<leptos::html::Div>,
}

/// Moves the window as the reader scrolls, while `shown`: a scroll event
/// comes at most once a frame, before the frame's animation callbacks, so
/// a card brought back is there for whatever that frame focuses.
fn let_go_while_shown(shown: Signal<bool>, path: Memo<String>, looking: Looking) {
    // The page's own address, as the router has it now (the browser's
    // address may still be the page before: the router pushes it later).
    let here = path.get_untracked();
    use std::cell::RefCell;
    use std::rc::Rc;
    let gone = Rc::new(std::cell::Cell::new(false));
    let listening = Rc::new(RefCell::new(None::<WindowListenerHandle>));
    let stop = {
        let listening = listening.clone();
        move || {
            if let Some(handle) = listening.borrow_mut().take() {
                handle.remove();
            }
        }
    };
    // Each show of the page; a listener is attached only for the show it
    // was asked for.
    let shows = Rc::new(std::cell::Cell::new(0u32));
    Effect::new({
        let (gone, stop) = (gone.clone(), stop.clone());
        move |_| {
            let on = shown.get();
            stop();
            let show = shows.get().wrapping_add(1);
            shows.set(show);
            if !on {
                return;
            }
            // From the next frame: a kept page shown again is scrolled to
            // the top by the router, then back to its place in its first
            // frame (routes/kept.rs), and that scroll to the top must not
            // let go of the reader's place.
            let (gone, shows, listening, here) = (gone.clone(), shows.clone(), listening.clone(), here.clone());
            request_animation_frame(move || {
                if gone.get() || shows.get() != show {
                    return;
                }
                // Only while the router's address is the page's own: a link
                // followed from it changes the address, then the router
                // scrolls to the top before the page hides or goes.
                let handle = window_event_listener(leptos::ev::scroll, move |_| {
                    if !gone.get() && path.try_with_untracked(|p| *p == here) == Some(true) {
                        look(looking);
                    }
                });
                *listening.borrow_mut() = Some(handle);
            });
        }
    });
    let cleanup = send_wrapper::SendWrapper::new(move || {
        gone.set(true);
        stop();
    });
    on_cleanup(move || cleanup.take()());
}

/// A CSS length in whole pixels: formatting a float would bring its
/// formatting code into the wasm (about 10 kB) for no visible difference.
fn px(length: f64) -> String {
    format!("{}px", length.round() as i64)
}

/// Where the reader is in the feed: the window that fits it, measured
/// cards' heights kept before any card is let go.
fn look(looking: Looking) {
    let Looking { list, window, heights, feed, above, below } = looking;
    let Some(feed) = feed.get_untracked() else { return };
    if !feed.is_connected() {
        return;
    }
    let cards = cards_of(&feed);
    let Some(moved) = list.with_untracked(|l| {
        let now = window.get_untracked();
        let range = now.range(&l.items);
        let top = top_index(&l.items, range.clone(), &cards, above.get_untracked(), below.get_untracked(), heights)?;
        now.moved_to(&l.items, top)
    }) else {
        return;
    };
    // The cards about to go are measured now, while they are laid out: a
    // card's room is its top to the next one's (its margin with it).
    heights.update_value(|h| {
        let tops: Vec<(String, f64, f64)> = cards
            .iter()
            .map(|c| {
                let rect = c.get_bounding_client_rect();
                (crate::browser::dom::uuid_of(c).unwrap_or_default(), rect.top(), rect.height())
            })
            .collect();
        let gap = match tops.as_slice() {
            [a, b, ..] => (b.1 - a.1 - a.2).max(0.0),
            _ => 12.0,
        };
        for (i, (uuid, top, height)) in tops.iter().enumerate() {
            let room = tops.get(i + 1).map_or(height + gap, |next| next.1 - top);
            h.set(uuid, room);
        }
    });
    // The card at the top of the screen stays where it is. The browser's
    // own scroll anchoring cannot be trusted with this: the scroll cleared
    // its anchor, and it picks the next one from the changed document,
    // possibly a card just brought back above the screen. So the change is
    // made, then the scroll is put right by how far that card moved, once
    // the framework has drawn it (its tasks run in a microtask queued as
    // the window is set, before this one).
    let anchor = cards.iter().find(|c| c.get_bounding_client_rect().bottom() > 0.0).and_then(|c| {
        let top = c.get_bounding_client_rect().top();
        crate::browser::dom::uuid_of(c).map(|uuid| (uuid, top))
    });
    window.set(moved);
    if let Some((uuid, was)) = anchor {
        queue_microtask(move || {
            let Some(card) = crate::browser::dom::card_in(&feed, &uuid) else { return };
            let moved_by = card.get_bounding_client_rect().top() - was;
            if moved_by.abs() >= 0.5 {
                window_scroll_by(moved_by);
            }
        });
    }
}

fn window_scroll_by(y: f64) {
    leptos::prelude::window().scroll_by_with_x_and_y(0.0, y);
}

/// The index in `items` of the first card at the top of the screen: a
/// card kept in the document, or one let go whose room the screen is in
/// (after a jump of the scroll bar).
fn top_index(
    items: &[String],
    kept: std::ops::Range<usize>,
    cards: &[web_sys::Element],
    above: Option<web_sys::HtmlDivElement>,
    below: Option<web_sys::HtmlDivElement>,
    heights: StoredValue<Heights>,
) -> Option<usize> {
    let screen = window().inner_height().ok()?.as_f64()?;
    if let Some(card) = cards.iter().find(|c| {
        let rect = c.get_bounding_client_rect();
        rect.bottom() > 0.0 && rect.top() < screen
    }) {
        let uuid = crate::browser::dom::uuid_of(card)?;
        return items[kept.clone()].iter().position(|u| *u == uuid).map(|i| kept.start + i);
    }
    // In the room of the cards let go above, or below.
    let walk = |top: f64, from: usize, to: usize| {
        let mut y = -top;
        heights
            .with_value(|h| {
                let guess = h.guess();
                (from..to).find(|&i| {
                    y -= h.one(&items[i], guess);
                    y < 0.0
                })
            })
            .or(Some(to.saturating_sub(1)))
    };
    let above = above.map(|a| a.get_bounding_client_rect()).filter(|_| kept.start > 0);
    let below = below.map(|b| b.get_bounding_client_rect()).filter(|_| kept.end < items.len());
    match (above, below) {
        (Some(a), _) if a.bottom() > 0.0 => walk(a.top().min(0.0), 0, kept.start),
        (_, Some(b)) if b.top() <= 0.0 => walk(b.top(), kept.end, items.len()),
        _ => None,
    }
}

/// The feed's cards in the document, in order.
fn cards_of(feed: &web_sys::HtmlDivElement) -> Vec<web_sys::Element> {
    crate::browser::dom::all_in(feed, ":scope > article.post[data-uuid]")
}
