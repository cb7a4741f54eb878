//! The reading position on screen: saved shortly after each scroll while
//! Home is shown; after a reload, once the list has loaded down to the post
//! read last, the page scrolls back to it (or to the first post older than
//! it, if it is gone). The position itself is `reading.rs`.

use super::loader::HomeTimeline;
use super::merge::Item;
use super::reading::{save, Reading};
use crate::browser::dom;
use leptos::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Saves which post is at the top of the screen (and the newest shown)
/// shortly after each scroll, until the answered stop is called (`attach`:
/// when the page hides or goes).
pub(super) fn keep(timeline: &HomeTimeline) -> Box<dyn FnOnce()> {
    let (timeline, pending) = (timeline.clone(), Arc::new(AtomicBool::new(false)));
    let stopped = Arc::new(AtomicBool::new(false));
    let listener = window_event_listener(leptos::ev::scroll, {
        let stopped = stopped.clone();
        move |_| {
            if pending.swap(true, Ordering::SeqCst) {
                return;
            }
            let (timeline, pending, stopped) = (timeline.clone(), pending.clone(), stopped.clone());
            set_timeout(
                move || {
                    pending.store(false, Ordering::SeqCst);
                    // Not for a page hidden meanwhile: its cards are not on screen.
                    if !stopped.load(Ordering::SeqCst) {
                        save_position(&timeline);
                    }
                },
                std::time::Duration::from_millis(250),
            );
        }
    });
    Box::new(move || {
        stopped.store(true, Ordering::SeqCst);
        listener.remove();
    })
}

/// The page has hidden or gone: a list's keeps its newest post, so
/// `/lists` can count what came after (Home counts from what scrolling
/// kept).
pub(super) fn left(timeline: &HomeTimeline) {
    if timeline.feed != super::Feed::Home {
        keep_newest(timeline);
    }
}

/// Keeps the newest post shown, leaving where the reader was as it was.
fn keep_newest(timeline: &HomeTimeline) {
    let (me, started, restoring) =
        timeline.state.with_untracked(|s| (s.me.clone(), s.started(), s.on_screen.restore().is_some()));
    if !started || restoring {
        return;
    }
    let mut reading =
        super::reading::saved(&me, &timeline.feed).unwrap_or(Reading { newest: None, at: None, offset: 0.0 });
    reading.newest = timeline.newest_shown();
    save(&me, &timeline.feed, &reading);
}

fn save_position(timeline: &HomeTimeline) {
    let (me, started, restoring) =
        timeline.state.with_untracked(|s| (s.me.clone(), s.started(), s.on_screen.restore().is_some()));
    if !started || restoring {
        return;
    }
    let top = dom::feed_cards().into_iter().find(|el| el.get_bounding_client_rect().bottom() > 0.0);
    let (at, offset) = match top {
        Some(el) if window().scroll_y().unwrap_or(0.0) > 0.0 => {
            let uuid = dom::uuid_of(&el).unwrap_or_default();
            (timeline.mark_of(&uuid), el.get_bounding_client_rect().top())
        }
        _ => (None, 0.0),
    };
    let at_top = at.is_none();
    save(&me, &timeline.feed, &Reading { newest: timeline.newest_shown(), at, offset });
    // Back at the top, what was read below goes (`store/bound.rs`).
    if at_top {
        timeline.cut_back_at_top();
    }
}

/// After a reload: once the post read last is on screen, scroll back to it
/// (or to the first post older than it, if it is gone).
pub fn restore_when_shown(timeline: &HomeTimeline) {
    let timeline = timeline.clone();
    Effect::new(move |_| {
        let target = timeline.state.with(|s| {
            if !s.started() || s.on_screen.restoring() {
                return None;
            }
            let reading = s.on_screen.restore()?.clone();
            let shown: Vec<Item> = s.merge.as_ref().map(|m| s.on_screen.shown(m)).unwrap_or_default();
            Some((reading, shown))
        });
        let Some((reading, shown)) = target else { return };
        timeline.restored();
        let Some(at) = reading.at else { return };
        let uuid = if shown.iter().any(|i| i.uuid == at.uuid) {
            Some(at.uuid.clone())
        } else {
            shown.into_iter().find(|i| i.at.0 < at.at).map(|i| i.uuid)
        };
        let Some(uuid) = uuid else { return };
        request_animation_frame(move || {
            if let Some(el) = dom::card_of(&uuid) {
                let y = el.get_bounding_client_rect().top() - reading.offset;
                window().scroll_by_with_x_and_y(0.0, y);
            }
        });
    });
}
