//! The home timeline's merge, composed in the browser from many paged
//! sources (the owner's posts and each followed user's), newest first.
//!
//! What may be shown is what can be known correct: every source that is not
//! exhausted may still hold posts older than its oldest loaded one, so the
//! merged list is cut at the newest of those "oldest loaded" times (the
//! horizon). Nothing is shown until every source has answered its first
//! page; a failed source is left out and reported. Load more asks only the
//! sources holding the horizon back (those whose loaded posts are used up).
//! Never a duplicate, never a gap.

use perch_model::Timestamp;
use std::collections::BTreeMap;

/// One post of a source, as the merge needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub uuid: String,
    pub at: Timestamp,
}

impl Item {
    /// Newest first; equal times fall back to the uuid, so the order is total.
    fn key(&self) -> (std::cmp::Reverse<Timestamp>, std::cmp::Reverse<&str>) {
        (std::cmp::Reverse(self.at), std::cmp::Reverse(self.uuid.as_str()))
    }
}

#[derive(Clone, Debug, Default)]
struct Source {
    /// Loaded posts, newest first, without duplicates.
    items: Vec<Item>,
    pages: u32,
    exhausted: bool,
    failed: bool,
}

impl Source {
    fn oldest(&self) -> Option<&Item> {
        self.items.last()
    }
}

#[derive(Clone, Debug)]
pub struct Timeline {
    sources: BTreeMap<String, Source>,
    page_size: usize,
}

impl Timeline {
    /// A timeline over these sources (user uuids), with the server's page size.
    pub fn new(sources: impl IntoIterator<Item = String>, page_size: usize) -> Self {
        Timeline { sources: sources.into_iter().map(|s| (s, Source::default())).collect(), page_size }
    }

    /// Page `page` (1-based) of `source` arrived, newest first. A short page
    /// means the source has nothing more. Pages that arrive twice, late or
    /// overlapping (offsets shift when someone posts) add nothing twice.
    pub fn page_arrived(&mut self, source: &str, page: u32, items: Vec<Item>) {
        let page_size = self.page_size;
        let Some(s) = self.sources.get_mut(source) else { return };
        s.failed = false;
        if items.len() < page_size {
            s.exhausted = true;
        }
        for item in items {
            if !s.items.iter().any(|i| i.uuid == item.uuid) {
                s.items.push(item);
            }
        }
        s.items.sort_by(|a, b| a.key().cmp(&b.key()));
        s.pages = s.pages.max(page);
    }

    /// `source` could not be loaded: it is left out until retried.
    pub fn failed(&mut self, source: &str) {
        if let Some(s) = self.sources.get_mut(source) {
            s.failed = true;
        }
    }

    /// The sources that failed, to name them with a Retry.
    pub fn failed_sources(&self) -> Vec<String> {
        self.sources.iter().filter(|(_, s)| s.failed).map(|(k, _)| k.clone()).collect()
    }

    fn live(&self) -> impl Iterator<Item = (&String, &Source)> {
        self.sources.iter().filter(|(_, s)| !s.failed)
    }

    /// Whether every source that has not failed answered its first page.
    pub fn ready(&self) -> bool {
        self.live().all(|(_, s)| s.pages > 0)
    }

    /// The cut: the newest "oldest loaded" among sources that may hold more.
    /// `None` means nothing holds the list back (everything loaded is shown).
    fn horizon(&self) -> Option<&Item> {
        self.live().filter(|(_, s)| !s.exhausted).filter_map(|(_, s)| s.oldest()).min_by(|a, b| a.key().cmp(&b.key()))
    }

    /// The uuids that can be shown now, newest first; empty until ready.
    pub fn visible(&self) -> Vec<String> {
        if !self.ready() {
            return Vec::new();
        }
        let horizon = self.horizon().map(|h| h.key());
        let mut all: Vec<&Item> = self.live().flat_map(|(_, s)| s.items.iter()).collect();
        all.sort_by(|a, b| a.key().cmp(&b.key()));
        all.dedup_by(|a, b| a.uuid == b.uuid);
        all.into_iter().filter(|i| horizon.as_ref().is_none_or(|h| i.key() <= *h)).map(|i| i.uuid.clone()).collect()
    }

    /// What Load more should fetch: (source, page) for the sources whose
    /// loaded posts are all shown and that may hold more; and the first page
    /// of any source not loaded yet.
    pub fn wanted(&self) -> Vec<(String, u32)> {
        let horizon = self.horizon().map(|h| h.key());
        self.live()
            .filter(|(_, s)| !s.exhausted)
            .filter(|(_, s)| {
                s.pages == 0
                    || match (s.oldest(), &horizon) {
                        (Some(oldest), Some(h)) => oldest.key() == *h,
                        (None, _) => true,
                        _ => false,
                    }
            })
            .map(|(k, s)| (k.clone(), s.pages + 1))
            .collect()
    }

    /// Nothing more to load anywhere.
    pub fn done(&self) -> bool {
        self.live().all(|(_, s)| s.exhausted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn item(uuid: &str, at: i64) -> Item {
        Item { uuid: uuid.into(), at: Timestamp(at) }
    }

    #[test]
    fn nothing_shows_until_every_source_answered() {
        let mut t = Timeline::new(["a".to_string(), "b".to_string()], 2);
        t.page_arrived("a", 1, vec![item("a9", 9), item("a5", 5)]);
        assert!(t.visible().is_empty(), "b could hold anything");
        t.page_arrived("b", 1, vec![item("b8", 8)]);
        // b is exhausted (short page); a may hold more below 5.
        assert_eq!(t.visible(), ["a9", "b8", "a5"]);
        assert_eq!(t.wanted(), [("a".to_string(), 2)]);
    }

    #[test]
    fn the_cut_waits_for_the_slowest_known_source() {
        let mut t = Timeline::new(["a".to_string(), "b".to_string()], 2);
        t.page_arrived("a", 1, vec![item("a9", 9), item("a8", 8)]);
        t.page_arrived("b", 1, vec![item("b7", 7), item("b1", 1)]);
        // a may have posts between 8 and 1: cut at a's oldest (8).
        assert_eq!(t.visible(), ["a9", "a8"]);
        assert_eq!(t.wanted(), [("a".to_string(), 2)], "only a's posts are used up");
        // A short page: a is exhausted, so the cut moves to b's oldest (1).
        t.page_arrived("a", 2, vec![item("a3", 3)]);
        assert_eq!(t.visible(), ["a9", "a8", "b7", "a3", "b1"]);
        assert_eq!(t.wanted(), [("b".to_string(), 2)]);
        t.page_arrived("b", 2, vec![]);
        assert!(t.done());
    }

    #[test]
    fn a_failed_source_is_left_out_and_named() {
        let mut t = Timeline::new(["a".to_string(), "b".to_string()], 15);
        t.page_arrived("a", 1, vec![item("a1", 1)]);
        t.failed("b");
        assert_eq!(t.visible(), ["a1"]);
        assert_eq!(t.failed_sources(), ["b"]);
        assert!(t.done());
    }

    /// Random sources, random page sizes, random arrival order: the shown
    /// list is always a prefix of the true newest-first union (no gap, no
    /// duplicate), and Load more eventually shows all of it.
    #[test]
    fn property_always_a_prefix_of_the_sorted_union() {
        for seed in 1..1500u64 {
            let mut rng = Rng::new(seed);
            let page_size = 1 + rng.below(6) as usize;
            let n_sources = 1 + rng.below(6) as usize;
            let mut server: BTreeMap<String, Vec<Item>> = BTreeMap::new();
            for s in 0..n_sources {
                let mut posts: Vec<Item> =
                    (0..rng.below(20)).map(|i| item(&format!("s{s}p{i}"), rng.below(50) as i64)).collect();
                posts.sort_by(|a, b| a.key().cmp(&b.key()));
                server.insert(format!("s{s}"), posts);
            }
            let mut union: Vec<Item> = server.values().flatten().cloned().collect();
            union.sort_by(|a, b| a.key().cmp(&b.key()));
            let truth: Vec<String> = union.iter().map(|i| i.uuid.clone()).collect();

            let mut t = Timeline::new(server.keys().cloned(), page_size);
            let page_of = |source: &str, page: u32| -> Vec<Item> {
                server[source].iter().skip((page as usize - 1) * page_size).take(page_size).cloned().collect()
            };
            let mut rounds = 0;
            loop {
                let mut wanted = t.wanted();
                if wanted.is_empty() {
                    break;
                }
                // Arrive in a random order, checking the invariant after each.
                while !wanted.is_empty() {
                    let (source, page) = wanted.swap_remove(rng.below(wanted.len() as u64) as usize);
                    t.page_arrived(&source, page, page_of(&source, page));
                    let shown = t.visible();
                    assert_eq!(shown[..], truth[..shown.len()], "seed {seed}: a prefix of the union");
                }
                rounds += 1;
                assert!(rounds < 200, "seed {seed}: Load more must make progress");
            }
            assert!(t.done(), "seed {seed}");
            assert_eq!(t.visible(), truth, "seed {seed}: in the end, everything");
        }
    }
}
