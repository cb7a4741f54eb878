//! The home timeline's merge, composed in the browser from many paged
//! sources (the account's posts and each followed user's), newest first.
//! Plain Rust, no browser: `loader.rs` drives it with requests. It is also
//! the one record of which sources failed, and why.
//!
//! What may be shown is what can be known correct: every source that is not
//! exhausted may still hold posts older than the oldest it has given so far,
//! so the merged list is cut at the newest of those "reached" points (the
//! horizon). Nothing is shown until every source has answered its first page
//! (or was set aside as slow, or failed); Load more asks only the sources
//! holding the horizon back. Never a duplicate, never a gap.
//!
//! Once something is shown, it stays shown: a source that comes in later (a
//! new follow, a retried or slow source) first *catches up*, page by page,
//! until it reaches the horizon, and only then joins the merge, so joining
//! never pulls the cut up over what the person is reading.

use perch_model::Timestamp;
use serde::{Deserialize, Serialize};
use std::cmp::{Ordering, Reverse};
use std::collections::BTreeMap;

/// One post of a source, as the merge needs it. Kept in the local copy
/// (`store/copy.rs`) as `[uuid, milliseconds]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "(String, i64)", from = "(String, i64)")]
pub struct Item {
    pub uuid: String,
    pub at: Timestamp,
}

impl From<Item> for (String, i64) {
    fn from(item: Item) -> Self {
        (item.uuid, item.at.0)
    }
}

impl From<(String, i64)> for Item {
    fn from((uuid, at): (String, i64)) -> Self {
        Item { uuid, at: Timestamp(at) }
    }
}

impl Item {
    /// Newest first; equal times fall back to the uuid, so the order is total.
    fn key(&self) -> (Reverse<Timestamp>, Reverse<&str>) {
        (Reverse(self.at), Reverse(self.uuid.as_str()))
    }

    /// The timeline's order: `Less` when `self` comes first (is newer).
    pub fn order(&self, other: &Item) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// Kept in the local copy as `[items, reached, pages, exhausted, joined, removed]`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(into = "KeptSource", from = "KeptSource")]
struct Source {
    /// Loaded posts, newest first, without duplicates.
    items: Vec<Item>,
    /// The oldest post the source has given: how far its pages reached. Kept
    /// when that post is deleted, so a deletion never moves the horizon up.
    reached: Option<Item>,
    pages: u32,
    exhausted: bool,
    /// Why the last request for this source failed, as a person reads it.
    /// Not kept in the local copy: a reopen asks again.
    failure: Option<crate::i18n::Text>,
    /// Part of the merge. Sources added after the first render join once
    /// they have caught up with the horizon.
    joined: bool,
    /// Posts of this source deleted since its last page: the server's pages
    /// moved back by as many, so the next request starts that much earlier.
    removed: usize,
}

type KeptSource = (Vec<Item>, Option<Item>, u32, bool, bool, usize);

impl From<Source> for KeptSource {
    fn from(s: Source) -> Self {
        (s.items, s.reached, s.pages, s.exhausted, s.joined, s.removed)
    }
}

impl From<KeptSource> for Source {
    fn from((items, reached, pages, exhausted, joined, removed): KeptSource) -> Self {
        Source { items, reached, pages, exhausted, failure: None, joined, removed }
    }
}

impl Source {
    /// The next page to ask for: the one holding the first post not loaded.
    fn next_page(&self, page_size: usize) -> u32 {
        let loaded = (self.pages as usize * page_size).saturating_sub(self.removed);
        (loaded / page_size) as u32 + 1
    }

    /// In the merge.
    fn live(&self) -> bool {
        self.joined
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Merge {
    sources: BTreeMap<String, Source>,
    page_size: usize,
    /// Something was shown (every first source answered or was set aside).
    started: bool,
}

impl Merge {
    /// A timeline over these sources (user uuids), with the server's page size.
    pub fn new(sources: impl IntoIterator<Item = String>, page_size: usize) -> Self {
        // Inserted one by one: `collect` into a BTreeMap sorts with a stable
        // sort of its own compiled for these pairs (src/order.rs says why not).
        let mut joined = BTreeMap::new();
        for source in sources {
            joined.insert(source, Source { joined: true, ..Source::default() });
        }
        let mut timeline = Merge { sources: joined, page_size: page_size.max(1), started: false };
        timeline.settle();
        timeline
    }

    pub fn sources(&self) -> impl Iterator<Item = &String> {
        self.sources.keys()
    }

    pub fn has_source(&self, source: &str) -> bool {
        self.sources.contains_key(source)
    }

    /// Page `page` (1-based) of `source` arrived, newest first. A short page
    /// means the source has nothing more. Pages that arrive twice, late or
    /// overlapping (offsets move when someone posts), and a fresh page 1
    /// from a check for new posts, add nothing twice.
    pub fn page_arrived(&mut self, source: &str, page: u32, items: Vec<Item>) {
        let page_size = self.page_size;
        let Some(s) = self.sources.get_mut(source) else { return };
        s.failure = None;
        let next = s.next_page(page_size);
        if s.removed > 0 {
            if page > next {
                // Asked before a deletion moved the pages back: it may have
                // skipped a post. An earlier page is asked instead.
                return;
            }
            if page == next {
                s.removed = 0;
                s.pages = page;
            }
        }
        if items.len() < page_size {
            s.exhausted = true;
        }
        for item in items {
            if s.reached.as_ref().is_none_or(|r| item.order(r) == Ordering::Greater) {
                s.reached = Some(item.clone());
            }
            if !s.items.iter().any(|i| i.uuid == item.uuid) {
                s.items.push(item);
            }
        }
        crate::order::sort_by(&mut s.items, Item::order);
        s.pages = s.pages.max(page);
        self.settle();
    }

    /// Whether `items` (a fresh page 1) meets what `source` already has, so
    /// nothing lies between them. When it does not, the next page is needed
    /// too before the source is whole again.
    pub fn overlaps(&self, source: &str, items: &[Item]) -> bool {
        let Some(s) = self.sources.get(source) else { return true };
        items.len() < self.page_size
            || s.items.is_empty()
            || items.iter().any(|i| s.items.iter().any(|k| k.uuid == i.uuid))
            || s.reached.as_ref().is_some_and(|r| items.iter().any(|i| i.order(r) != Ordering::Less))
    }

    /// The request for `source` failed. A source with nothing loaded is left
    /// out (and named) and catches up when it answers; one with posts shown
    /// keeps them and holds the cut.
    pub fn failed(&mut self, source: &str, reason: crate::i18n::Text) {
        if let Some(s) = self.sources.get_mut(source) {
            s.failure = Some(reason);
            if s.pages == 0 {
                s.joined = false;
            }
        }
        self.settle();
    }

    /// The sources whose last request failed (the tests' view of what the
    /// page names with a Retry through `failures`).
    #[cfg(test)]
    fn failed_sources(&self) -> Vec<String> {
        self.failures().into_iter().map(|(source, _)| source).collect()
    }

    /// Each failed source with the reason, in the sources' order.
    pub fn failures(&self) -> Vec<(String, crate::i18n::Text)> {
        self.sources.iter().filter_map(|(k, s)| Some((k.clone(), s.failure.clone()?))).collect()
    }

    /// Asks a failed source again: the request to make. After the first
    /// render, a source that had nothing catches up before it joins.
    pub fn retry(&mut self, source: &str) -> Option<(String, u32)> {
        let page_size = self.page_size;
        let s = self.sources.get_mut(source)?;
        s.failure.take()?;
        Some((source.to_owned(), s.next_page(page_size)))
    }

    /// Stops waiting for a slow source's first page before the first render:
    /// it catches up and joins when it answers.
    pub fn set_aside(&mut self, source: &str) {
        if let Some(s) = self.sources.get_mut(source).filter(|s| s.pages == 0) {
            s.joined = false;
        }
        self.settle();
    }

    /// The sources the first render still waits for.
    pub fn first_pages_awaited(&self) -> Vec<String> {
        if self.started {
            return Vec::new();
        }
        self.sources.iter().filter(|(_, s)| s.live() && s.pages == 0).map(|(k, _)| k.clone()).collect()
    }

    /// Sources that are loading but not shown yet (slow, retried or new).
    pub fn joining_sources(&self) -> Vec<String> {
        self.sources.iter().filter(|(_, s)| !s.joined && s.failure.is_none()).map(|(k, _)| k.clone()).collect()
    }

    /// A new source (someone followed): the first request to make. Before
    /// the first render it simply counts among the first sources.
    pub fn add_source(&mut self, source: &str) -> Option<(String, u32)> {
        if self.sources.contains_key(source) {
            return None;
        }
        self.sources.insert(source.to_owned(), Source { joined: !self.started, ..Source::default() });
        Some((source.to_owned(), 1))
    }

    /// A source leaves (someone unfollowed), and its posts with it.
    pub fn remove_source(&mut self, source: &str) {
        self.sources.remove(source);
        self.settle();
    }

    /// A post was deleted: it leaves, and its source's pages moved back.
    pub fn forget(&mut self, uuid: &str) {
        for s in self.sources.values_mut() {
            if let Some(at) = s.items.iter().position(|i| i.uuid == uuid) {
                s.items.remove(at);
                if !s.exhausted {
                    s.removed += 1;
                }
            }
        }
    }

    /// A post the account just made in `source`: it is the newest, so it
    /// belongs at the top and moves that source's pages forward by one,
    /// which only ever repeats a post in a later page.
    pub fn posted(&mut self, source: &str, item: Item) {
        if let Some(s) = self.sources.get_mut(source) {
            if s.pages > 0 && !s.items.iter().any(|i| i.uuid == item.uuid) {
                if s.reached.is_none() {
                    s.reached = Some(item.clone());
                }
                s.items.insert(0, item);
                crate::order::sort_by(&mut s.items, Item::order);
            }
        }
    }

    fn live(&self) -> impl Iterator<Item = (&String, &Source)> {
        self.sources.iter().filter(|(_, s)| s.live())
    }

    /// Whether every source in the merge answered its first page.
    pub fn ready(&self) -> bool {
        self.live().all(|(_, s)| s.pages > 0)
    }

    /// The cut: the newest "reached" among sources that may hold more.
    /// `None` means nothing holds the list back (everything loaded is shown).
    fn horizon(&self) -> Option<&Item> {
        self.live().filter(|(_, s)| !s.exhausted).filter_map(|(_, s)| s.reached.as_ref()).min_by(|a, b| a.order(b))
    }

    /// Lets caught-up sources join, and notes the first render.
    fn settle(&mut self) {
        let horizon = self.horizon().cloned();
        for s in self.sources.values_mut().filter(|s| !s.joined && s.failure.is_none() && s.pages > 0) {
            let caught_up =
                s.exhausted || matches!((&s.reached, &horizon), (Some(r), Some(h)) if r.order(h) != Ordering::Less);
            if caught_up {
                s.joined = true;
            }
        }
        if self.ready() {
            self.started = true;
        }
    }

    /// Whether something can be shown (the first render happened).
    pub fn started(&self) -> bool {
        self.started
    }

    /// What can be shown now, newest first; empty until ready.
    pub fn visible(&self) -> Vec<Item> {
        if !self.ready() {
            return Vec::new();
        }
        let horizon = self.horizon();
        let mut all: Vec<&Item> = self.live().flat_map(|(_, s)| s.items.iter()).collect();
        crate::order::sort_by(&mut all, |a, b| a.order(b));
        all.dedup_by(|a, b| a.uuid == b.uuid);
        all.into_iter().filter(|i| horizon.is_none_or(|h| i.order(h) != Ordering::Greater)).cloned().collect()
    }

    /// What Load more should fetch: (source, page) for the sources in the
    /// merge whose loaded posts are all shown and that may hold more, and
    /// the first page of any not loaded yet.
    pub fn wanted(&self) -> Vec<(String, u32)> {
        let horizon = self.horizon();
        self.live()
            .filter(|(_, s)| !s.exhausted)
            .filter(|(_, s)| {
                s.pages == 0
                    || match (&s.reached, horizon) {
                        (Some(reached), Some(h)) => reached.order(h) == Ordering::Equal,
                        (None, _) => true,
                        _ => false,
                    }
            })
            .map(|(k, s)| (k.clone(), s.next_page(self.page_size)))
            .collect()
    }

    /// The next page of every source catching up (fetched without waiting
    /// for Load more).
    pub fn catching_up(&self) -> Vec<(String, u32)> {
        self.sources
            .iter()
            .filter(|(_, s)| !s.joined && s.failure.is_none() && !s.exhausted)
            .map(|(k, s)| (k.clone(), s.next_page(self.page_size)))
            .collect()
    }

    /// Nothing more to load anywhere.
    pub fn done(&self) -> bool {
        self.live().all(|(_, s)| s.exhausted) && self.joining_sources().is_empty()
    }

    /// Every post the merge holds.
    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.sources.values().flat_map(|s| s.items.iter())
    }

    /// The posts of `source` that a fresh page 1 (`page`) should hold but
    /// does not: deleted since they were read. Only between the page's
    /// newest and oldest times, where the page is whole (a post newer than
    /// the page may have been made after it was read; one as old as its
    /// last could be on page 2); below too when the page is short, the
    /// source's end.
    pub fn vanished(&self, source: &str, page: &[Item]) -> Vec<String> {
        let (Some(s), Some(newest)) = (self.sources.get(source), page.first()) else { return Vec::new() };
        let oldest = match page.len() < self.page_size {
            true => None,
            false => page.last().map(|i| i.at),
        };
        s.items
            .iter()
            .filter(|k| k.at <= newest.at && oldest.is_none_or(|o| k.at > o))
            .filter(|k| !page.iter().any(|i| i.uuid == k.uuid))
            .map(|k| k.uuid.clone())
            .collect()
    }

    /// The merge cut down to at most `max` posts for the local copy, in
    /// whole pages from each source's newest (the sources with the most
    /// pages give up theirs first), each source reaching as far as it
    /// still holds. When a page each is still too much, the sources whose
    /// newest post is oldest are kept without posts, to catch up again
    /// after a reopen, as sources still catching up do. `None` if it has
    /// not started, or nothing fits.
    pub fn trimmed(&self, max: usize) -> Option<Merge> {
        if !self.started {
            return None;
        }
        let mut merge = self.clone();
        for s in merge.sources.values_mut() {
            s.failure = None;
            if !s.joined {
                *s = Source::default();
            }
        }
        while merge.items().count() > max {
            if merge.drop_a_page(usize::MAX).is_some() {
                continue;
            }
            let least_recent = merge
                .sources
                .values_mut()
                .filter(|s| !s.items.is_empty())
                .min_by(|a, b| b.items[0].order(&a.items[0]))?;
            *least_recent = Source::default();
        }
        let kept_nothing = merge.items().next().is_none() && self.items().next().is_some();
        (!kept_nothing).then_some(merge)
    }

    /// The merge read back while it runs (a timeline whose reader is back
    /// at its top, `loader.rs`) to the fewest whole pages that still hold
    /// `keep` posts: the sources with the most pages give up theirs first,
    /// as [`Merge::trimmed`] cuts, but every source keeps its first page,
    /// and failures and sources catching up stay as they are. `None` when
    /// nothing is cut.
    pub fn cut_back(&self, keep: usize) -> Option<Merge> {
        if !self.started || self.items().count() <= keep {
            return None;
        }
        let mut merge = self.clone();
        let (before, mut count) = (merge.items().count(), merge.items().count());
        // Each page dropped holds at least one post: the loop ends.
        while let Some(gone) = merge.drop_a_page(count - keep) {
            count -= gone;
        }
        (count < before).then_some(merge)
    }

    /// Drops the last page of the source with the most posts, if one has
    /// more than a page and the page holds at most `at_most` posts;
    /// answers how many posts went. The source then goes on from there, as
    /// if it had read no further.
    fn drop_a_page(&mut self, at_most: usize) -> Option<usize> {
        let page_size = self.page_size;
        let s = self.sources.values_mut().filter(|s| s.items.len() > page_size).max_by_key(|s| s.items.len())?;
        let pages = (s.items.len() / page_size).min(s.pages as usize).max(2) - 1;
        let gone = s.items.len() - pages * page_size;
        if gone > at_most {
            return None;
        }
        s.items.truncate(pages * page_size);
        s.pages = pages as u32;
        s.removed = 0;
        s.exhausted = false;
        s.reached = s.items.last().cloned();
        Some(gone)
    }
}

#[cfg(test)]
mod tests;
