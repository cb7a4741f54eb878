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
    let items = move || {
        let n = drawn.get();
        list.with(|l| l.items.iter().take(n).cloned().enumerate().collect::<Vec<_>>())
    };
    let button = NodeRef::<leptos::html::Button>::new();
    // Automatic loading: press Load more when it comes near the screen.
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
        if let Ok(observer) =
            web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options)
        {
            observer.observe(&el);
            let observer = send_wrapper::SendWrapper::new(observer);
            let callback = send_wrapper::SendWrapper::new(callback);
            on_cleanup(move || {
                observer.disconnect();
                drop(callback);
            });
        }
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
        <div
            role=move || list.with(|l| !l.items.is_empty()).then_some("feed")
            aria-label={let label = label.clone(); move || list.with(|l| !l.items.is_empty()).then(|| label.get())}
            aria-busy=move || list.with(|l| l.loading).to_string()
        >
            <For each=items key=|(_, uuid)| uuid.clone() let:((index, uuid))>
                {
                    let position = (index + 1, list.with_untracked(|l| if l.done { l.items.len() as i32 } else { -1 }));
                    match under {
                        Some(under) => {
                            let of = uuid.clone();
                            view! { <PostCard uuid position>{under.run(of.clone())}</PostCard> }.into_any()
                        }
                        None => view! { <PostCard uuid position/> }.into_any(),
                    }
                }
            </For>
        </div>
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
