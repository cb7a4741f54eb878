//! One stable sort for the whole app, compiled once.
//!
//! `slice::sort_by` is generic over both the item and the comparison, so
//! every call with its own item type or closure compiled its own driftsort
//! (its quicksort, its merges and small sorts): about 4.5 KB of wasm each,
//! a dozen times over, several of them in the main module every first load
//! pays for (docs/size.md, "One sort"). Here the sorting itself works on
//! positions behind a `&dyn Fn`, compiled once; what stays generic at a
//! call site is moving its items into the order found, a few instructions.
//! Lists the app sorts are a timeline, a page of search, the drafts: small
//! enough that the indirect comparison costs nothing a person can see.

use std::cmp::Ordering;

/// Sorts `items` by `cmp`, stable: items that compare equal keep the order
/// they had. Same result as `slice::sort_by`.
pub fn sort_by<T>(items: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = positions(items.len(), &|a, b| cmp(&items[a], &items[b]));
    let mut taken: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|at| taken[at].take()));
}

/// Sorts `items` by the key each gives, stable (as `slice::sort_by_key`).
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// The positions `0..len` in the order `cmp` gives them, equal ones in
/// their first order: a merge sort, runs of 1, 2, 4, … merged bottom up.
fn positions(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut from: Vec<usize> = (0..len).collect();
    let mut into = vec![0; len];
    let mut run = 1;
    while run < len {
        let mut start = 0;
        while start < len {
            let middle = (start + run).min(len);
            let end = (start + 2 * run).min(len);
            let (mut left, mut right) = (start, middle);
            for slot in &mut into[start..end] {
                // The left run's item first unless the right one is less:
                // that is what keeps equal items in order.
                let take_left = left < middle && (right == end || cmp(from[right], from[left]) != Ordering::Less);
                if take_left {
                    *slot = from[left];
                    left += 1;
                } else {
                    *slot = from[right];
                    right += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut from, &mut into);
        run *= 2;
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_library_does_and_keeps_equal_items_in_order() {
        let mut seed = 7u32;
        for len in 0..70 {
            // Keys with many repeats, each item marked with where it was.
            let items: Vec<(u32, usize)> = (0..len)
                .map(|at| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (seed >> 16 & 3, at)
                })
                .collect();
            let mut ours = items.clone();
            sort_by_key(&mut ours, |item| item.0);
            let mut std = items.clone();
            std.sort_by_key(|item| item.0);
            assert_eq!(ours, std, "length {len}");
        }
    }

    #[test]
    fn sorts_by_a_comparison_in_reverse_and_moves_owned_items_whole() {
        let mut words: Vec<String> = ["pear", "fig", "apple", "fig", "kiwi"].map(String::from).to_vec();
        sort_by(&mut words, |a, b| b.cmp(a));
        assert_eq!(words, ["pear", "kiwi", "fig", "fig", "apple"]);
    }
}
