//! Which of the merged posts are on screen: the anchor (the newest post
//! shown; newer ones wait behind "N new posts"), the limit (how many are
//! shown, a step of [`STEP`] at a time), and the goal that more pages are
//! being loaded for (Load more, or a reload finding its way back to the
//! post read last). Plain Rust over a [`Merge`]: it answers which pages to
//! ask for and `loader.rs` asks.

use super::merge::{Item, Merge};
use super::reading::{Mark, Reading};
use std::cmp::Ordering;

/// What the window shows, for the feed: the posts on screen, whether the
/// timeline is read to its end, and whether more is on its way.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShownList {
    pub uuids: Vec<String>,
    pub done: bool,
    pub loading: bool,
}

/// Posts put on screen at first and by each Load more: the merge may know
/// hundreds at once (every source's first page), the screen needs a few.
pub const STEP: usize = 20;
/// Restoring a reading position loads at most this many rounds of pages.
const RESTORE_ROUNDS: u32 = 20;

/// Pages to ask for: (source, page).
pub type Wanted = Vec<(String, u32)>;

/// Why more pages are being loaded.
#[derive(Clone, Debug, PartialEq)]
enum Goal {
    /// Load more: until this many posts are known, or nothing is left.
    Fill(usize),
    /// After a reload: until the post read last shows (or its time does),
    /// within this many more rounds.
    Reach(Item, u32),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct OnScreen {
    anchor: Option<Item>,
    goal: Option<Goal>,
    limit: usize,
    /// The first screen was set up (anchor and restore goal chosen).
    settled: bool,
    /// A reading position to scroll back to once it shows.
    restore: Option<Reading>,
}

impl OnScreen {
    /// The window of a new visit, which comes back to `restore` if given.
    pub fn new(restore: Option<Reading>) -> Self {
        OnScreen { limit: STEP, restore, ..OnScreen::default() }
    }

    /// Everything that could be shown: known correct, not newer than the
    /// newest shown.
    fn known(&self, merge: &Merge) -> Vec<Item> {
        let visible = merge.visible();
        match &self.anchor {
            Some(anchor) => visible.into_iter().filter(|i| i.order(anchor) != Ordering::Less).collect(),
            None => visible,
        }
    }

    /// The posts shown, newest first.
    pub fn shown(&self, merge: &Merge) -> Vec<Item> {
        let mut known = self.known(merge);
        known.truncate(self.limit);
        known
    }

    /// Posts newer than what is shown.
    pub fn new_count(&self, merge: &Merge) -> usize {
        match &self.anchor {
            Some(anchor) => merge.visible().iter().take_while(|i| i.order(anchor) == Ordering::Less).count(),
            None => 0,
        }
    }

    /// The posts newer than what is shown, newest first.
    pub fn new_items(&self, merge: &Merge) -> Vec<Item> {
        match &self.anchor {
            Some(anchor) => merge.visible().into_iter().take_while(|i| i.order(anchor) == Ordering::Less).collect(),
            None => Vec::new(),
        }
    }

    /// Nothing more to show: everything is loaded and on screen.
    pub fn done(&self, merge: &Merge) -> bool {
        merge.done() && self.known(merge).len() <= self.limit
    }

    /// What is on screen, from one merge. `requests_out` counts the page
    /// requests queued or in flight.
    pub fn shown_list(&self, merge: &Merge, requests_out: usize) -> ShownList {
        let mut items = self.known(merge);
        let known = items.len();
        items.truncate(self.limit);
        ShownList {
            uuids: items.into_iter().map(|i| i.uuid).collect(),
            done: merge.done() && known <= self.limit,
            loading: requests_out > 0 && (known < self.limit || matches!(self.goal, Some(Goal::Reach(..)))),
        }
    }

    /// After any answer: sets up the first screen once the merge has
    /// started, and answers the pages still needed (sources catching up,
    /// and a goal not reached yet once nothing else is out).
    pub fn arrived(&mut self, merge: &Merge, requests_out: usize) -> Wanted {
        if !merge.started() {
            return Vec::new();
        }
        let mut wanted = merge.catching_up();
        if !self.settled {
            self.settled = true;
            // After a reload: the newest post seen before; what came since
            // waits behind "N new posts".
            let newest = merge.visible().into_iter().next();
            self.anchor = match (self.restore.as_ref().and_then(|r| r.newest.as_ref()), newest) {
                (Some(saved), Some(newest)) if newest.order(&saved.item()) == Ordering::Less => Some(saved.item()),
                (_, newest) => newest,
            };
            if let Some(at) = self.restore.as_ref().and_then(|r| r.at.as_ref()) {
                self.goal = Some(Goal::Reach(at.item(), RESTORE_ROUNDS));
            }
        }
        let reached = match &self.goal {
            None => true,
            Some(_) if merge.done() => true,
            Some(Goal::Fill(n)) => self.known(merge).len() >= *n,
            Some(Goal::Reach(item, rounds)) => {
                *rounds == 0 || merge.visible().last().is_some_and(|last| last.order(item) != Ordering::Less)
            }
        };
        if reached {
            if let Some(Goal::Reach(item, _)) = &self.goal {
                // Put the post read last on screen, with a step below it.
                let above = self.known(merge).iter().take_while(|i| i.order(item) == Ordering::Less).count();
                self.limit = self.limit.max(above + STEP);
            }
            self.goal = None;
        } else if requests_out == 0 {
            if let Some(Goal::Reach(_, rounds)) = &mut self.goal {
                *rounds -= 1;
            }
            wanted.extend(merge.wanted());
        }
        wanted
    }

    /// Load more: puts the next posts already known on screen, and answers
    /// the pages that make the step after known too.
    pub fn load_more(&mut self, merge: &Merge, requests_out: usize) -> Wanted {
        if !merge.started() || matches!(self.goal, Some(Goal::Reach(..))) {
            return Vec::new();
        }
        // The next step goes on screen now if known, else as it arrives;
        // pressing again while it loads asks for nothing more.
        let known = self.known(merge).len();
        self.limit = known.min(self.limit) + STEP;
        if merge.done() || known >= self.limit + STEP {
            return Vec::new();
        }
        self.goal = Some(Goal::Fill(self.limit + STEP));
        if requests_out == 0 {
            merge.wanted()
        } else {
            Vec::new()
        }
    }

    /// The reader is back at the top and the merge holds more than its
    /// bound: `merge` cut back to about `max` posts, and the window with
    /// it, if that keeps what is on the first screen and nothing waits
    /// (new posts above, a restore, a load). `None`: nothing to cut.
    pub fn cut_back(&mut self, merge: &Merge, max: usize, requests_out: usize) -> Option<Merge> {
        if requests_out > 0 || self.goal.is_some() || self.restore.is_some() {
            return None;
        }
        // Counted first: a scroll to the top of a short timeline costs no more.
        let cut = merge.cut_back(max)?;
        if self.new_count(merge) > 0 {
            return None;
        }
        let first_screen = self.shown(merge).into_iter().take(STEP).collect::<Vec<_>>();
        let shown = self.known(&cut);
        if !shown.starts_with(&first_screen) {
            return None;
        }
        self.limit = self.limit.min(shown.len()).max(STEP);
        Some(cut)
    }

    /// Shows the new posts: the person asked to, or posted one themselves.
    pub fn show_new(&mut self, merge: &Merge) {
        self.limit += self.new_count(merge);
        self.anchor = merge.visible().into_iter().next();
    }

    /// The reading position still to scroll back to, once not `restoring`.
    pub fn restore(&self) -> Option<&Reading> {
        self.restore.as_ref()
    }

    /// Whether a restore is still loading its way down to the post.
    pub fn restoring(&self) -> bool {
        matches!(self.goal, Some(Goal::Reach(..)))
    }

    /// The reading position was restored (or given up on).
    pub fn restored(&mut self) {
        self.restore = None;
    }

    /// The newest post shown, for the reading position.
    pub fn newest_shown(&self, merge: &Merge) -> Option<Mark> {
        self.shown(merge).into_iter().next().map(|i| Mark { uuid: i.uuid, at: i.at.0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perch_model::Timestamp;

    fn item(uuid: &str, at: i64) -> Item {
        Item { uuid: uuid.into(), at: Timestamp(at) }
    }

    /// Posts `a<n>` at time n, newest first, from `from` down to `to`.
    fn posts(from: i64, to: i64) -> Vec<Item> {
        (to..=from).rev().map(|n| item(&format!("a{n}"), n)).collect()
    }

    fn uuids(items: Vec<Item>) -> Vec<String> {
        items.into_iter().map(|i| i.uuid).collect()
    }

    fn mark(n: i64) -> Mark {
        Mark { uuid: format!("a{n}"), at: n }
    }

    #[test]
    fn nothing_is_set_up_before_the_merge_starts() {
        let merge = Merge::new(["a".to_string()], 50);
        let mut window = OnScreen::new(None);
        assert!(window.arrived(&merge, 1).is_empty());
        assert!(window.load_more(&merge, 0).is_empty());
        assert_eq!(window, OnScreen::new(None));
    }

    #[test]
    fn a_step_at_a_time_and_load_more_asks_for_the_next_page_only_when_needed() {
        let mut merge = Merge::new(["a".to_string()], 50);
        let mut window = OnScreen::new(None);
        merge.page_arrived("a", 1, posts(100, 51));
        assert!(window.arrived(&merge, 0).is_empty());
        assert_eq!(window.shown(&merge).len(), STEP);
        assert_eq!(window.newest_shown(&merge), Some(mark(100)));
        assert!(!window.shown_list(&merge, 0).done);

        // 40 shown, 50 known: the step after is not known, so page 2 is asked.
        assert_eq!(window.load_more(&merge, 0), [("a".to_string(), 2)]);
        assert_eq!(window.shown(&merge).len(), 40);
        // Pressing again while it loads shows the 10 known and asks nothing.
        assert!(window.load_more(&merge, 1).is_empty());
        assert_eq!(window.shown(&merge).len(), 50);
        assert!(window.shown_list(&merge, 1).loading, "the feed says it is loading while short of its limit");

        merge.page_arrived("a", 2, posts(50, 41));
        assert!(window.arrived(&merge, 0).is_empty(), "the last page came: nothing more to ask");
        assert_eq!(window.shown(&merge).len(), 60);
        assert!(window.done(&merge) && window.shown_list(&merge, 0).done);
    }

    #[test]
    fn back_at_the_top_a_long_read_is_cut_back_unless_something_waits() {
        let mut merge = Merge::new(["a".to_string()], 20);
        let mut window = OnScreen::new(None);
        // Each page asked for arrives: 20 posts, page n from a(120 - 20n).
        let answer = |merge: &mut Merge, wanted: Wanted| {
            for (_, page) in wanted {
                let newest = 120 - 20 * page as i64;
                merge.page_arrived("a", page, posts(newest, newest - 19));
            }
        };
        answer(&mut merge, vec![("a".to_string(), 1)]);
        window.arrived(&merge, 0);
        for _ in 0..2 {
            let mut wanted = window.load_more(&merge, 0);
            while !wanted.is_empty() {
                answer(&mut merge, wanted);
                wanted = window.arrived(&merge, 0);
            }
        }
        assert_eq!(window.shown(&merge).len(), 60);
        assert!(window.clone().cut_back(&merge, 20, 1).is_none(), "not while a page loads");
        let mut waiting = merge.clone();
        waiting.posted("a", item("a101", 101));
        assert!(window.clone().cut_back(&waiting, 20, 0).is_none(), "not while new posts wait above");

        let cut = window.cut_back(&merge, 20, 0).expect("cut");
        assert_eq!(uuids(window.shown(&cut)), uuids(posts(100, 81)), "the first screen stays");
        assert_eq!(window.load_more(&cut, 0), [("a".to_string(), 2)], "Load more reads on from the cut");
    }

    #[test]
    fn after_a_reload_newer_posts_wait_behind_new_posts() {
        let mut merge = Merge::new(["a".to_string()], 50);
        let mut window = OnScreen::new(Some(Reading { newest: Some(mark(5)), at: None, offset: 0.0 }));
        merge.page_arrived("a", 1, posts(9, 1));
        window.arrived(&merge, 0);
        assert_eq!(window.new_count(&merge), 4);
        assert_eq!(uuids(window.shown(&merge))[0], "a5", "what was read last stays on top");

        window.show_new(&merge);
        assert_eq!(window.new_count(&merge), 0);
        assert_eq!(uuids(window.shown(&merge)), uuids(posts(9, 1)));
    }

    #[test]
    fn a_post_made_meanwhile_counts_as_new_until_shown() {
        let mut merge = Merge::new(["a".to_string()], 50);
        let mut window = OnScreen::new(None);
        merge.page_arrived("a", 1, posts(9, 1));
        window.arrived(&merge, 0);
        merge.posted("a", item("a10", 10));
        assert_eq!(window.new_count(&merge), 1);
        assert_eq!(uuids(window.shown(&merge))[0], "a9", "the list does not move by itself");
        window.show_new(&merge);
        assert_eq!(uuids(window.shown(&merge))[0], "a10");
    }

    #[test]
    fn a_restore_loads_down_to_the_post_read_last_and_shows_a_step_below_it() {
        let mut merge = Merge::new(["a".to_string()], 2);
        let mut window = OnScreen::new(Some(Reading { newest: Some(mark(30)), at: Some(mark(24)), offset: 12.0 }));
        merge.page_arrived("a", 1, posts(30, 29));
        assert_eq!(window.arrived(&merge, 0), [("a".to_string(), 2)]);
        assert!(window.restoring());
        assert!(window.load_more(&merge, 0).is_empty(), "Load more waits for the restore");
        assert!(window.arrived(&merge, 1).is_empty(), "one round at a time");
        for page in 2..=3 {
            let newest = 30 - 2 * (page as i64 - 1);
            merge.page_arrived("a", page, posts(newest, newest - 1));
            assert_eq!(window.arrived(&merge, 0), [("a".to_string(), page + 1)]);
        }
        merge.page_arrived("a", 4, posts(24, 23));
        assert!(window.arrived(&merge, 0).is_empty());
        assert!(!window.restoring());
        let shown = uuids(window.shown(&merge));
        assert!(shown.contains(&"a24".to_string()), "{shown:?}");
        assert_eq!(window.restore().and_then(|r| r.at.clone()), Some(mark(24)), "the page scrolls to it next");
        window.restored();
        assert_eq!(window.restore(), None);
    }

    #[test]
    fn a_restore_gives_up_after_its_rounds() {
        let mut merge = Merge::new(["a".to_string()], 1);
        let mut window = OnScreen::new(Some(Reading { newest: None, at: Some(mark(-1)), offset: 0.0 }));
        merge.page_arrived("a", 1, posts(1000, 1000));
        let mut page = 1;
        loop {
            let wanted = window.arrived(&merge, 0);
            if wanted.is_empty() {
                break;
            }
            page += 1;
            assert!(page <= RESTORE_ROUNDS + 2, "the restore keeps loading");
            merge.page_arrived("a", page, vec![item(&format!("a{}", 1000 - page), 1000 - page as i64)]);
        }
        assert!(!window.restoring());
    }
}
