//! The home timeline: the account's posts and those of everyone they follow,
//! composed in the browser, newest first; and, by the same code, a list's
//! timeline: its members' posts ([`Feed`]). One module, four parts:
//!
//! - `merge.rs`: the merge of many paged sources and its cut (pure);
//! - `on_screen.rs`: which merged posts are on screen, new posts, Load more
//!   and the way back after a reload (pure);
//! - `loader.rs`: [`HomeTimeline`], the requests and their scheduler;
//! - `news.rs`: the checks for new posts, and the store's changes it follows;
//! - `reading.rs`: the reading position and where it is kept (pure data);
//! - `position.rs`: saving it while the page scrolls, scrolling back to it;
//! - `replies.rs`: the timelines that hide replies (kept per account).
//!
//! No cycle: `merge` ← `reading` ← `on_screen` ← `loader` ← `news`, `position`.
//!
//! The page, `routes/home.rs`, only shows it: [`attach`] is all it calls
//! besides reading the state and forwarding clicks.

mod loader;
pub mod merge;
mod news;
pub mod on_screen;
mod position;
pub mod reading;
pub mod replies;

pub use loader::{Feed, HomeState, HomeTimeline, Phase, CHECK_EVERY, IN_FLIGHT};

/// Starts the timeline for the page that shows it, and while that page is
/// shown: checks for new posts and keeps and restores the reading position.
/// A page kept while others show (Home) says when it is `shown`: hidden,
/// the timeline runs no timer and no listener.
pub fn attach(timeline: &HomeTimeline, shown: leptos::prelude::Signal<bool>) {
    use leptos::prelude::*;
    timeline.ensure_started();
    // Made each time the page shows, stopped each time it hides or goes.
    let running = StoredValue::new_local(Stops::new());
    // Stopped as the page hides or goes: a list's page then also keeps its
    // newest post, so `/lists` can count what came after.
    let stop = {
        let leaving = timeline.clone();
        move || {
            let stops = running.try_update_value(std::mem::take).unwrap_or_default();
            if !stops.is_empty() {
                stops.into_iter().for_each(|stop| stop());
                position::left(&leaving);
            }
        }
    };
    let this = timeline.clone();
    Effect::new({
        let stop = stop.clone();
        move |was: Option<bool>| {
            let now = shown.get();
            if was != Some(now) {
                stop();
                if now {
                    let mut stops = this.keep_fresh();
                    stops.push(position::keep(&this));
                    running.set_value(stops);
                }
            }
            now
        }
    });
    on_cleanup(stop);
    position::restore_when_shown(timeline);
}

/// What stops work begun while a page is shown.
type Stops = Vec<Box<dyn FnOnce()>>;

/// The merge is what the local copy keeps of Home: the copy knows it only
/// as the posts it shows and a cut to its bound.
impl crate::store::copy::Home for merge::Merge {
    fn posts(&self) -> Vec<&str> {
        self.items().map(|item| item.uuid.as_str()).collect()
    }

    fn cut_to(&self, max: usize) -> Option<Self> {
        self.trimmed(max)
    }
}
