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
//! - `position.rs`: saving it while the page scrolls, scrolling back to it.
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

pub use loader::{Feed, HomeState, HomeTimeline, Phase, CHECK_EVERY, IN_FLIGHT};

/// Starts the timeline for the page that shows it, and while that page is
/// shown: checks for new posts and keeps and restores the reading position.
pub fn attach(timeline: &HomeTimeline) {
    timeline.ensure_started();
    timeline.keep_fresh_while_shown();
    position::keep_while_shown(timeline);
    position::restore_when_shown(timeline);
}

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
