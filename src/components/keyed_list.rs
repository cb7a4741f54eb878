//! A list of cards keyed by uuid that moves in the document only the cards
//! whose order changed.
//!
//! The framework's `<For>` (tachys 0.2.19) moves every card after the first
//! one it moves: cards shown above the first (a feed's window moving up,
//! "Show N new posts") took every card below them out of the document and
//! put it back, so the browser styled and laid out the whole window again
//! (81 cards instead of the ~20 that came, `docs/performance.md`). Here the
//! cards that stay in order are left where they are (the longest run of
//! them that is in order: [`plan`]); each other card is inserted before the
//! one after it, new cards built, cards gone unmounted and disposed.
//!
//! Each card has its own reactive owner, a child of the list's, as with
//! `<For>`: disposed when the card goes.

use leptos::prelude::*;
use leptos::tachys::html::attribute::{any_attribute::AnyAttribute, Attribute};
use leptos::tachys::hydration::Cursor;
use leptos::tachys::reactive_graph::OwnedView;
use leptos::tachys::renderer::{types, Rndr};
use leptos::tachys::view::{add_attr::AddAnyAttr, Mountable, Position, PositionState, Render, RenderHtml};
use std::sync::Arc;

/// Draws one card, by its uuid.
type Draw = Arc<dyn Fn(String) -> OwnedView<AnyView> + Send + Sync>;

/// The cards `each` names, in its order, each drawn by `draw` when it
/// first comes; a card that stays keeps its nodes and its state.
pub fn keyed_list(
    each: impl Fn() -> Vec<String> + Send + Sync + 'static,
    draw: impl Fn(String) -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    let list = Owner::current().expect("a keyed list is drawn inside a component");
    let draw: Draw = Arc::new(move |uuid| {
        let owner = list.with(Owner::new);
        let view = owner.with(|| draw(uuid));
        OwnedView::new_with_owner(view, owner)
    });
    move || Keyed { items: each(), draw: draw.clone() }
}

/// How to go from the cards `old` to `new`: for each card of `new`, where
/// it was in `old` (`None`: it is new), and whether it stays where it is
/// in the document (it is in the longest run of kept cards whose order did
/// not change); every other card is put in place. A uuid twice in `new`
/// (never meant) points each time to its one card in `old`.
fn plan(old: &[String], new: &[String]) -> (Vec<Option<usize>>, Vec<bool>) {
    // Each looked for from just after the last one found: a list that
    // keeps its order (a window moving, cards shown above) is one pass,
    // with a pass over `old` for each card not in it (no map: less code,
    // for lists of a few hundred cards at most).
    let mut next = 0;
    let from: Vec<Option<usize>> = new
        .iter()
        .map(|u| {
            let found = (next..old.len()).chain(0..next.min(old.len())).find(|&i| old[i] == *u);
            if let Some(i) = found {
                next = i + 1;
            }
            found
        })
        .collect();
    // The longest increasing run of old places, by patience sorting:
    // `tails[k]` is the position in `new` ending the best run of length
    // k + 1 found so far, `before[p]` the position before `p` in its run.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; new.len()];
    for (p, was) in from.iter().enumerate() {
        let Some(was) = *was else { continue };
        let k = tails.partition_point(|&t| from[t].is_some_and(|o| o < was));
        before[p] = k.checked_sub(1).map(|k| tails[k]);
        if k == tails.len() {
            tails.push(p);
        } else {
            tails[k] = p;
        }
    }
    let mut stays = vec![false; new.len()];
    let mut at_end = tails.last().copied();
    while let Some(p) = at_end {
        stays[p] = true;
        at_end = before[p];
    }
    (from, stays)
}

struct Keyed {
    items: Vec<String>,
    draw: Draw,
}

type Card = <OwnedView<AnyView> as Render>::State;

pub struct KeyedState {
    parent: Option<types::Element>,
    marker: types::Placeholder,
    uuids: Vec<String>,
    cards: Vec<Card>,
}

impl Render for Keyed {
    type State = KeyedState;

    fn build(self) -> KeyedState {
        let cards = self.items.iter().map(|uuid| (self.draw)(uuid.clone()).build()).collect();
        let uuids = self.items;
        KeyedState { parent: None, marker: Rndr::create_placeholder(), uuids, cards }
    }

    fn rebuild(self, state: &mut KeyedState) {
        let uuids = self.items;
        if uuids == state.uuids {
            return;
        }
        let (from, stays) = plan(&state.uuids, &uuids);
        let mut old: Vec<Option<Card>> = state.cards.drain(..).map(Some).collect();
        // From the end: each card that does not stay goes before the one
        // after it, which is already where it belongs.
        let mut placed: Vec<Option<Card>> = Vec::with_capacity(uuids.len());
        placed.resize_with(uuids.len(), || None);
        for (p, uuid) in uuids.iter().enumerate().rev() {
            // A card kept, or drawn now (new, or a uuid seen twice).
            let (mut card, stays) = match from[p].and_then(|was| old[was].take()) {
                Some(card) => (card, stays[p]),
                None => ((self.draw)(uuid.clone()).build(), false),
            };
            if !stays {
                if let Some(parent) = &state.parent {
                    match placed.get(p + 1).and_then(Option::as_ref) {
                        Some(after) => {
                            after.insert_before_this_or_marker(parent, &mut card, Some(state.marker.as_ref()))
                        }
                        None => card.mount(parent, Some(state.marker.as_ref())),
                    }
                }
            }
            placed[p] = Some(card);
        }
        // What no place took is gone: out of the document, its owner disposed.
        for mut gone in old.into_iter().flatten() {
            gone.unmount();
        }
        state.cards = placed.into_iter().flatten().collect();
        state.uuids = uuids;
    }
}

impl Mountable for KeyedState {
    fn unmount(&mut self) {
        for card in &mut self.cards {
            card.unmount();
        }
        self.marker.unmount();
    }

    fn mount(&mut self, parent: &types::Element, marker: Option<&types::Node>) {
        self.parent = Some(parent.clone());
        for card in &mut self.cards {
            card.mount(parent, marker);
        }
        self.marker.mount(parent, marker);
    }

    fn insert_before_this(&self, child: &mut dyn Mountable) -> bool {
        match self.cards.first() {
            Some(card) => card.insert_before_this(child),
            None => self.marker.insert_before_this(child),
        }
    }

    fn elements(&self) -> Vec<types::Element> {
        self.cards.iter().flat_map(Mountable::elements).collect()
    }
}

impl AddAnyAttr for Keyed {
    type Output<SomeNewAttr: Attribute> = Keyed;

    fn add_any_attr<NewAttr: Attribute>(self, _attr: NewAttr) -> Keyed {
        self
    }
}

// Server rendering and hydration: the app draws its lists in the browser
// only (the build-time first screen has none); natively, the HTML is the
// cards'.
impl RenderHtml for Keyed {
    type AsyncOutput = Keyed;
    type Owned = Keyed;
    const MIN_LENGTH: usize = 0;

    fn dry_resolve(&mut self) {}

    async fn resolve(self) -> Keyed {
        self
    }

    fn to_html_with_buf(
        self,
        buf: &mut String,
        position: &mut Position,
        escape: bool,
        mark_branches: bool,
        _extra_attrs: Vec<AnyAttribute>,
    ) {
        #[cfg(not(target_arch = "wasm32"))]
        for uuid in self.items {
            (self.draw)(uuid).to_html_with_buf(buf, position, escape, mark_branches, vec![]);
        }
        #[cfg(target_arch = "wasm32")]
        let _ = (buf, position, escape, mark_branches);
    }

    fn hydrate<const FROM_SERVER: bool>(self, _cursor: &Cursor, _position: &PositionState) -> KeyedState {
        self.build()
    }

    fn into_owned(self) -> Keyed {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::plan;

    fn uuids(range: std::ops::Range<usize>) -> Vec<String> {
        range.map(|i| format!("p{i}")).collect()
    }

    /// The cards of `new` put in place (not left where they are).
    fn moved(old: &[String], new: &[String]) -> usize {
        let (from, stays) = plan(old, new);
        from.iter().zip(&stays).filter(|(from, stays)| from.is_some() && !**stays).count()
    }

    #[test]
    fn a_window_moving_up_or_down_moves_none_of_the_cards_it_keeps() {
        // 21 cards come above, 21 go below (a fling back up), and back.
        let (now, up) = (uuids(100..181), uuids(79..160));
        assert_eq!(moved(&now, &up), 0);
        assert_eq!(moved(&up, &now), 0);
        let (from, _) = plan(&now, &up);
        assert_eq!(from.iter().filter(|f| f.is_none()).count(), 21, "the cards that came are built");
    }

    #[test]
    fn new_posts_shown_above_move_nothing() {
        let (now, shown) = (uuids(0..81), uuids(0..81));
        let mut with_new = uuids(1000..1005);
        with_new.extend(shown);
        assert_eq!(moved(&now, &with_new), 0);
    }

    #[test]
    fn a_card_moved_is_the_only_one_put_in_place() {
        let old = uuids(0..10);
        let mut new = old.clone();
        let last = new.pop().unwrap();
        new.insert(0, last);
        assert_eq!(moved(&old, &new), 1);
        let reversed: Vec<String> = old.iter().rev().cloned().collect();
        assert_eq!(moved(&old, &reversed), 9, "a reversed list keeps one card where it is");
    }

    #[test]
    fn a_uuid_twice_is_one_card_kept_once() {
        let old = uuids(0..3);
        let new: Vec<String> = ["p0", "p1", "p1", "p2"].iter().map(|s| s.to_string()).collect();
        let (from, stays) = plan(&old, &new);
        assert_eq!(from, vec![Some(0), Some(1), Some(1), Some(2)]);
        assert!(stays[0] && stays[3] && (stays[1] != stays[2]), "one of the two stays: {stays:?}");
    }

    #[test]
    fn cards_gone_and_come_are_not_kept() {
        let old = uuids(0..5);
        let new: Vec<String> = ["p4", "x", "p1"].iter().map(|s| s.to_string()).collect();
        let (from, stays) = plan(&old, &new);
        assert_eq!(from, vec![Some(4), None, Some(1)]);
        assert_eq!(stays.iter().filter(|s| **s).count(), 1);
    }
}
