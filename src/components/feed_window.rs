//! Which cards of a long feed are in the document (issue 68, point 3).
//!
//! A feed of at most [`KEEP_ALL`] cards keeps every card. A longer one
//! keeps the cards from [`AROUND`] before the first card on screen to
//! [`AROUND`] after it; the cards above and below are let go (their nodes
//! leave the document, their reactive state is disposed), and the room
//! they took is kept by a spacer of their measured height on each side,
//! so the scroll bar and the place do not move. The window moves when the
//! card at the top of the screen comes within [`AROUND`]` / 2` of its edge,
//! so scrolling lets go and brings back cards in batches, not one per
//! frame. `j`/`k` never reach the edge: it is always [`AROUND`]` / 2`
//! cards away from the screen.
//!
//! The heights measured are kept for the visit, one number a post, as the
//! store keeps the posts.
//!
//! The window is named by its first and last cards' uuids (with their
//! places as they were, for when one of them is deleted), so "Show N new
//! posts" and deletions above it move nothing of it.

use std::collections::HashMap;

/// A feed of this many cards or fewer keeps every card.
pub const KEEP_ALL: usize = 100;
/// Cards kept on each side of the first on screen.
pub const AROUND: usize = 40;
/// A card's height before it was ever measured (it was let go before it
/// was drawn: new posts shown above a window).
const GUESS: f64 = 180.0;

/// One edge of the window: a card and where it was.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub uuid: String,
    pub at: usize,
}

impl Edge {
    fn index_in(&self, items: &[String]) -> usize {
        items.iter().position(|u| *u == self.uuid).unwrap_or(self.at.min(items.len()))
    }
}

/// The cards kept: from `first` (or the top when `None`) to `last` (or the
/// end, cards added by Load more included, when `None`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Window {
    pub first: Option<Edge>,
    pub last: Option<Edge>,
}

impl Window {
    /// The range of `items` kept.
    pub fn range(&self, items: &[String]) -> std::ops::Range<usize> {
        let lo = self.first.as_ref().map_or(0, |e| e.index_in(items));
        let hi = self.last.as_ref().map_or(items.len(), |e| (e.index_in(items) + 1).min(items.len()));
        lo..hi.max(lo)
    }

    /// The window for a reader whose first card on screen is `items[top]`,
    /// or `None` when this one still keeps [`AROUND`]` / 2` cards on each
    /// side of it (or every card, for a short feed).
    pub fn moved_to(&self, items: &[String], top: usize) -> Option<Window> {
        let len = items.len();
        if len <= KEEP_ALL {
            return (*self != Window::default()).then(Window::default);
        }
        let now = self.range(items);
        let room_above = top.saturating_sub(now.start);
        let room_below = now.end.saturating_sub(top + 1);
        // Enough kept on each side for `j`/`k` and a fling, and not much
        // more than asked (a window drawn whole, after a reload or a read
        // to the end, shrinks at the first look).
        let fits = |room: usize, open: bool| (open || room >= AROUND / 2) && room <= 2 * AROUND;
        if fits(room_above, now.start == 0) && fits(room_below, now.end == len) && now.contains(&top.min(len - 1)) {
            return None;
        }
        let lo = top.saturating_sub(AROUND);
        let hi = top + AROUND + 1;
        let edge = |at: usize| Edge { uuid: items[at].clone(), at };
        let next = Window { first: (lo > 0).then(|| edge(lo)), last: (hi < len).then(|| edge(hi - 1)) };
        (next != *self).then_some(next)
    }
}

/// The heights of the cards measured as they were let go, by uuid.
#[derive(Default)]
pub struct Heights(HashMap<String, f64>);

impl Heights {
    pub fn set(&mut self, uuid: &str, height: f64) {
        if height > 0.0 {
            self.0.insert(uuid.to_string(), height);
        }
    }

    /// The room `items` took: their measured heights, and for a card never
    /// measured the mean of those that were.
    pub fn of(&self, items: &[String]) -> f64 {
        let guess = self.guess();
        items.iter().map(|u| self.one(u, guess)).sum()
    }

    /// The height of a card never measured.
    pub fn guess(&self) -> f64 {
        if self.0.is_empty() {
            GUESS
        } else {
            self.0.values().sum::<f64>() / self.0.len() as f64
        }
    }

    /// The room of the card `uuid`, `guess` if it was never measured.
    pub fn one(&self, uuid: &str, guess: f64) -> f64 {
        self.0.get(uuid).copied().unwrap_or(guess)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("p{i}")).collect()
    }

    #[test]
    fn a_short_feed_keeps_every_card() {
        let items = items(KEEP_ALL);
        assert_eq!(Window::default().moved_to(&items, 90), None);
        assert_eq!(Window::default().range(&items), 0..KEEP_ALL);
    }

    #[test]
    fn a_long_feed_keeps_the_cards_around_the_screen_and_moves_in_batches() {
        let items = items(500);
        // Drawn whole (a reload, a read to the end): it shrinks at once.
        let w = Window::default().moved_to(&items, 0).unwrap();
        assert_eq!(w.range(&items), 0..41);
        let w = Window::default().moved_to(&items, 300).unwrap();
        assert_eq!(w.range(&items), 260..341);
        // A few cards on: nothing moves.
        assert_eq!(w.moved_to(&items, 300 + AROUND / 2), None);
        assert_eq!(w.moved_to(&items, 300 - AROUND / 2), None);
        // Near the edge: a new window around the reader.
        let w2 = w.moved_to(&items, 300 + AROUND / 2 + 1).unwrap();
        assert_eq!(w2.range(&items), 281..362);
        // Back at the top: the first cards come back, open above.
        let top = w2.moved_to(&items, 3).unwrap();
        assert_eq!(top.range(&items), 0..44);
        assert_eq!(top.first, None);
        // At the end: open below, so Load more's cards are drawn.
        let end = top.moved_to(&items, 480).unwrap();
        assert_eq!(end.last, None);
        let mut more = items.clone();
        more.extend((500..520).map(|i| format!("p{i}")));
        assert_eq!(end.range(&more), 440..520);
    }

    #[test]
    fn posts_shown_above_or_deleted_move_nothing_of_the_window() {
        let items = items(500);
        let w = Window::default().moved_to(&items, 300).unwrap();
        let mut newer: Vec<String> = (0..5).map(|i| format!("new{i}")).collect();
        newer.extend(items.iter().cloned());
        let kept: Vec<&String> = newer[w.range(&newer)].iter().collect();
        assert_eq!(kept.first().map(|s| s.as_str()), Some("p260"));
        assert_eq!(kept.last().map(|s| s.as_str()), Some("p340"));
        // The window's first card deleted: its place stands for it.
        let gone: Vec<String> = items.iter().filter(|u| *u != "p260").cloned().collect();
        assert_eq!(w.range(&gone), 260..340);
    }

    #[test]
    fn a_feed_that_became_short_keeps_every_card_again() {
        let w = Window::default().moved_to(&items(500), 300).unwrap();
        let short = items(50);
        assert_eq!(w.moved_to(&short, 10), Some(Window::default()));
    }

    #[test]
    fn the_room_kept_is_what_was_measured_and_a_mean_for_the_rest() {
        let mut h = Heights::default();
        assert_eq!(h.of(&items(2)), 2.0 * GUESS);
        h.set("p0", 100.0);
        h.set("p1", 300.0);
        h.set("p2", 0.0);
        assert_eq!(h.of(&items(3)), 100.0 + 300.0 + 200.0);
        assert_eq!(h.one("p1", h.guess()), 300.0);
    }
}
