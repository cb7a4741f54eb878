//! What changes Home while the visit goes on: checks for new posts (every
//! minute while the page is shown and the tab visible, on coming back, on
//! going online), showing them when asked, and the account's own posts,
//! deletions and follows as the store reports them (`HomeTimeline::new`
//! listens). The requests themselves are the scheduler's (`loader.rs`).

use super::loader::{item_of, Feed, HomeTimeline, Job, CHECK_EVERY};
use leptos::prelude::*;
use leptos::task::spawn_local;
use perch_model::Post;

impl HomeTimeline {
    /// Looks for new posts: page 1 of every source at once, and in
    /// parallel whom the account follows now (someone may have followed or
    /// unfollowed elsewhere, or while Perch was closed): a follow adds a
    /// source, an unfollow takes one away, as they arrive.
    pub fn check_new(&self) {
        let (me, ready) = self.state.with_untracked(|s| (s.me.clone(), s.started()));
        if !ready {
            return;
        }
        self.state.update(|s| s.last_check = js_sys::Date::now());
        let store = self.store.clone();
        // Follows made or ended elsewhere arrive as `Change::Followed`. (A
        // list's members are the list page's to tell.)
        if self.feed == Feed::Home {
            spawn_local(async move {
                let _ = store.read_following(&me).await;
            });
        }
        let sources: Vec<String> =
            self.state.with_untracked(|s| s.merge.as_ref().map(|m| m.sources().cloned().collect()).unwrap_or_default());
        self.enqueue(sources.into_iter().map(Job::Fresh));
    }

    /// Checks for new posts every minute while the tab is visible, at once
    /// when it comes back after a minute away, when the browser is back
    /// online, and once painted (a timeline drawn from the local copy, or
    /// shown again). Until the answered stops are called (`attach`: when
    /// the page hides or goes).
    pub(super) fn keep_fresh(&self) -> super::Stops {
        let overdue = {
            let this = self.clone();
            move || {
                let visible = document().visibility_state() == web_sys::VisibilityState::Visible;
                let last = this.state.with_untracked(|s| s.last_check);
                if visible && js_sys::Date::now() - last >= CHECK_EVERY.as_millis() as f64 - 500.0 {
                    this.check_new();
                }
            }
        };
        let first = overdue.clone();
        spawn_local(async move {
            crate::browser::dom::after_paint().await;
            first();
        });
        let mut stops: super::Stops = Vec::new();
        if let Ok(interval) = set_interval_with_handle(overdue.clone(), CHECK_EVERY) {
            stops.push(Box::new(move || interval.clear()));
        }
        let listener = window_event_listener_untyped("visibilitychange", move |_| overdue());
        // Back online: what shows may be from before (the local copy).
        let this = self.clone();
        let online = window_event_listener_untyped("online", move |_| this.check_new());
        stops.push(Box::new(move || listener.remove()));
        stops.push(Box::new(move || online.remove()));
        stops
    }

    /// Shows the new posts (the person asked to).
    pub fn show_new(&self) {
        self.state.update(|s| {
            if let Some(m) = s.merge.as_ref() {
                s.on_screen.show_new(m);
            }
        });
    }

    /// The account followed (`true`) or unfollowed someone.
    pub(super) fn follow_changed(&self, uuid: &str, following: bool) {
        let job = self
            .state
            .try_update(|s| {
                let m = s.merge.as_mut()?;
                if following {
                    m.add_source(uuid)
                } else {
                    m.remove_source(uuid);
                    None
                }
            })
            .flatten();
        if let Some(page) = job {
            self.enqueue_pages(vec![page]);
        }
    }

    /// The account posted (or replied): it goes to the top, in view (of a
    /// list, when the account is one of its members).
    pub(super) fn posted(&self, post: &Post) {
        let item = item_of(post);
        let home = self.feed == Feed::Home;
        self.state.update(|s| {
            let source = if home { s.me.clone() } else { post.author.uuid.clone() };
            if let Some(m) = s.merge.as_mut().filter(|m| m.has_source(&source)) {
                m.posted(&source, item);
                s.on_screen.show_new(m);
            }
        });
    }

    /// A post was deleted.
    pub(super) fn deleted(&self, uuid: &str) {
        self.state.update(|s| {
            if let Some(m) = s.merge.as_mut() {
                m.forget(uuid);
            }
        });
    }
}
