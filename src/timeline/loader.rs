//! The home timeline for the whole visit: whom the account follows, every
//! source's pages fetched with at most [`IN_FLIGHT`] requests at once (the
//! scheduler), slow and failed sources, checks for new posts while the page
//! is shown (`news.rs`), and the account's own posts, deletions and follows
//! as the store reports them (`news.rs`). What is merged is `merge.rs`,
//! what is on screen `on_screen.rs`.
//!
//! Requests here are not tied to the page: going to a thread and back finds
//! the timeline as it was, with nothing fetched twice.

use super::merge::{Item, Merge};
use super::on_screen::{OnScreen, Wanted};
pub use super::reading::Feed;
use super::reading::{self, Mark};
use crate::account::session::Session;
use crate::api::ApiError;
use crate::store::lock;
use crate::store::{Change, Paged, Store};
use leptos::prelude::*;
use leptos::task::spawn_local;
use perch_model::{Post, Timestamp, PAGE_SIZE};
use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Requests handed to the browser at once. Not 6: the browser already runs
/// at most 6 per host over HTTP/1.1 and queues the rest itself, keeping its
/// connections busy while Perch reads the answers; a bound of 6 here made
/// Perch's own reading pace the requests (8 waves instead of 2 and 427 ms
/// instead of 274 ms to the first post with 50 follows, docs/timeline.md).
/// The bound stays, for accounts that follow thousands.
pub const IN_FLIGHT: usize = 64;
/// How long the first screen waits for a slow source before showing the rest.
const SLOW_SOURCE: Duration = Duration::from_secs(5);
/// How often a visible home page checks for new posts.
pub const CHECK_EVERY: Duration = Duration::from_secs(60);
/// A check for new posts reads at most this many pages of one source; a
/// source with more new posts than that is left for the next check rather
/// than shown with a gap.
const FRESH_PAGES: u32 = 20;

/// What the home page is doing before its posts can show.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Phase {
    #[default]
    Idle,
    /// Reading whom the account follows.
    Following,
    FollowingFailed(ApiError),
    /// Loading and showing the sources' posts.
    Sources,
}

#[derive(Clone, Debug, Default)]
pub struct HomeState {
    /// Whose timeline this is: the signed-in account's uuid.
    pub me: String,
    pub phase: Phase,
    /// Every source's posts, once the following list is known.
    pub merge: Option<Merge>,
    pub on_screen: OnScreen,
    /// Page requests queued or in flight (not checks for new posts).
    pub loading: usize,
    /// When the last check for new posts began (ms since the epoch).
    pub last_check: f64,
}

impl HomeState {
    /// The shown list as the feed reads it.
    pub fn feed(&self) -> Paged {
        let shown = self.merge.as_ref().map(|m| self.on_screen.shown_list(m, self.loading)).unwrap_or_default();
        Paged { items: shown.uuids, pages_loaded: 1, done: shown.done, loading: shown.loading, ..Paged::default() }
    }

    /// Posts newer than what is shown.
    pub fn new_count(&self) -> usize {
        self.merge.as_ref().map_or(0, |m| self.on_screen.new_count(m))
    }

    /// The posts newer than what is shown, newest first.
    pub fn new_items(&self) -> Vec<String> {
        self.merge
            .as_ref()
            .map(|m| self.on_screen.new_items(m).into_iter().map(|i| i.uuid).collect())
            .unwrap_or_default()
    }

    pub fn started(&self) -> bool {
        self.merge.as_ref().is_some_and(Merge::started)
    }

    /// Everything is loaded and nothing at all is there to show.
    pub fn empty(&self) -> bool {
        self.merge.as_ref().is_some_and(|m| {
            self.on_screen.done(m) && self.on_screen.shown(m).is_empty() && self.on_screen.new_count(m) == 0
        }) && self.failures().is_empty()
    }

    /// The sources that failed, each with why, in a steady order.
    pub fn failures(&self) -> Vec<(String, crate::i18n::Text)> {
        self.merge.as_ref().map(Merge::failures).unwrap_or_default()
    }

    /// Sources followed (the account's own not counted).
    pub fn following_count(&self) -> usize {
        self.merge.as_ref().map_or(0, |m| m.sources().filter(|s| **s != self.me).count())
    }

    /// Sources loading after the first screen: slow, retried or new.
    pub fn joining_sources(&self) -> Vec<String> {
        self.merge.as_ref().map(Merge::joining_sources).unwrap_or_default()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Job {
    /// One page of a source.
    Page(String, u32),
    /// Page 1 of a source (and on, until it meets what is known).
    Fresh(String),
}

/// The scheduler's queue: jobs queued (each once), and how many run.
#[derive(Default)]
struct Queue {
    queued: VecDeque<(u64, Job)>,
    known: HashSet<Job>,
    running: usize,
}

/// The home timeline, provided once for the visit; or a list's, made by
/// the lists' page for the visit ([`HomeTimeline::of_list`]).
#[derive(Clone)]
pub struct HomeTimeline {
    pub state: ArcRwSignal<HomeState>,
    pub feed: Feed,
    /// A list's members, as the list page last set them.
    members: Arc<Mutex<Vec<String>>>,
    queue: Arc<Mutex<Queue>>,
    /// Bumped when the account changes: answers for an older one are dropped.
    generation: Arc<Mutex<u64>>,
    pub(super) store: Store,
    session: Session,
}

pub(super) fn item_of(post: &Post) -> Item {
    Item { uuid: post.uuid.clone(), at: post.created_at.unwrap_or(Timestamp(0)) }
}

impl HomeTimeline {
    /// The timeline of the visit, following what the store reports: the
    /// account's new posts go to the top, deleted ones leave, follows and
    /// unfollows add and remove sources.
    pub fn new(store: Store, session: Session) -> Self {
        Self::of_feed(store, session, Feed::Home, Vec::new())
    }

    /// The timeline of the list `id`, whose members are `members` (the list
    /// page tells it of changes: [`HomeTimeline::set_members`]). Its posts
    /// are read as Home's are, and new ones, the account's own among them
    /// when it is a member, reach it the same way.
    pub fn of_list(store: Store, session: Session, id: String, members: Vec<String>) -> Self {
        Self::of_feed(store, session, Feed::List(id), members)
    }

    fn of_feed(store: Store, session: Session, feed: Feed, members: Vec<String>) -> Self {
        let timeline = HomeTimeline {
            state: ArcRwSignal::new(HomeState::default()),
            feed,
            members: Arc::new(Mutex::new(members)),
            queue: Arc::default(),
            generation: Arc::default(),
            store: store.clone(),
            session,
        };
        // What the timeline merged is the reader's place: the store keeps
        // it whatever its bound (`store/bound.rs`).
        let holding = timeline.state.clone();
        store.hold_for(move |keep| {
            holding.with_untracked(|s| s.merge.iter().flat_map(Merge::items).for_each(|item| keep(&item.uuid)))
        });
        let listener = timeline.clone();
        store.on_change(move |change| match change {
            Change::Sent(post) => listener.posted(post),
            Change::Deleted(uuid) => listener.deleted(uuid),
            Change::Followed { uuid, following } if listener.feed == Feed::Home => {
                listener.follow_changed(uuid, *following)
            }
            Change::Followed { .. } | Change::Read(_) | Change::Gone(_) => {}
        });
        timeline
    }

    /// A list's members changed (here or in another tab): each new one is
    /// a source from now on, each one gone leaves with their posts.
    pub fn set_members(&self, members: Vec<String>) {
        let before = std::mem::replace(&mut *lock(&self.members), members.clone());
        for gone in before.iter().filter(|m| !members.contains(m)) {
            self.follow_changed(gone, false);
        }
        for new in members.iter().filter(|m| !before.contains(m)) {
            self.follow_changed(new, true);
        }
    }

    fn generation(&self) -> u64 {
        *lock(&self.generation)
    }

    /// The first reads [`HomeTimeline::ensure_started`] will make, started
    /// now, before Home has its code (the page's `data()`, issue 48): whom
    /// the account follows, and its own first page (it is a source). Nothing
    /// when the timeline runs already (from the local copy, or a visit
    /// before).
    pub fn read_early(&self) {
        let Some(me) = self.session.signed_untracked().map(|s| s.user.uuid) else { return };
        let current = self.state.with_untracked(|s| (s.me.clone(), s.phase.clone()));
        if current.0 == me && !matches!(current.1, Phase::Idle | Phase::FollowingFailed(_)) {
            return;
        }
        self.store.read_early(crate::api::path::following(&me));
        self.store.read_early(crate::api::path::user_posts(&me, 1));
    }

    /// Starts the timeline of whoever is signed in, unless it already is.
    pub fn ensure_started(&self) {
        let Some(account) = self.session.signed_untracked().map(|s| s.user) else { return };
        let me = account.uuid.clone();
        let current = self.state.with_untracked(|s| (s.me.clone(), s.phase.clone()));
        if current.0 == me && !matches!(current.1, Phase::Idle | Phase::FollowingFailed(_)) {
            return;
        }
        if self.feed != Feed::Home {
            // A list's sources are its members, known here.
            let generation = self.restart(&me, Phase::Sources, None, js_sys::Date::now());
            let members = lock(&self.members).clone();
            self.read_sources(generation, members);
            return;
        }
        // The account is a source too, named if their posts fail; a copy the
        // store already has may be fresher than the session's.
        if !self.store.knows_user(&me) {
            self.store.put_user(account);
        }
        let generation = self.restart(&me, Phase::Following, None, js_sys::Date::now());
        let this = self.clone();
        spawn_local(async move {
            let result = this.store.read_following(&me).await;
            if this.generation() != generation {
                return;
            }
            match result {
                Ok(followed) => this.read_sources(generation, std::iter::once(me.clone()).chain(followed).collect()),
                Err(e) => this.state.update(|s| s.phase = Phase::FollowingFailed(e)),
            }
        });
    }

    /// Merges `sources` from their first pages on.
    fn read_sources(&self, generation: u64, sources: Vec<String>) {
        let merge = Merge::new(sources, PAGE_SIZE);
        let wanted = merge.wanted();
        self.state.update(|s| {
            s.merge = Some(merge);
            s.phase = Phase::Sources;
        });
        self.enqueue_pages(wanted);
        // The first screen does not wait for ever for a slow source.
        let this = self.clone();
        set_timeout(
            move || {
                if this.generation() == generation {
                    this.state.update(|s| {
                        if let Some(m) = s.merge.as_mut().filter(|m| !m.started()) {
                            for source in m.first_pages_awaited() {
                                m.set_aside(&source);
                            }
                        }
                    });
                    this.after_arrival();
                }
            },
            SLOW_SOURCE,
        );
    }

    /// Starts the timeline of `me` from the local copy's merge, drawn in
    /// the first render; the first check for new posts (when Home shows)
    /// reads it all again.
    pub fn seed(&self, me: &str, merge: Merge) {
        self.restart(me, Phase::Sources, Some(merge), 0.0);
        self.after_arrival();
    }

    /// A new timeline of `me`, where the reading position left it: answers
    /// for the one before are dropped from now on (its generation), and
    /// its queued requests with it. Answers the new generation.
    // Inlined into its two callers: as a call of its own it made the wasm
    // 0.2 KB bigger (measured with `make size`).
    #[inline(always)]
    fn restart(&self, me: &str, phase: Phase, merge: Option<Merge>, last_check: f64) -> u64 {
        let generation = {
            let mut g = lock(&self.generation);
            *g += 1;
            *g
        };
        *lock(&self.queue) = Queue::default();
        let on_screen = OnScreen::new(reading::saved(me, &self.feed));
        self.state.set(HomeState { me: me.to_owned(), phase, merge, on_screen, last_check, ..HomeState::default() });
        generation
    }

    pub(super) fn enqueue_pages(&self, wanted: Wanted) {
        self.enqueue(wanted.into_iter().map(|(source, page)| Job::Page(source, page)));
    }

    pub(super) fn enqueue(&self, jobs: impl IntoIterator<Item = Job>) {
        let generation = self.generation();
        let mut added = 0;
        {
            let mut q = lock(&self.queue);
            for job in jobs {
                if q.known.insert(job.clone()) {
                    if matches!(job, Job::Page(..)) {
                        added += 1;
                    }
                    q.queued.push_back((generation, job));
                }
            }
        }
        if added > 0 {
            self.state.update(|s| s.loading += added);
        }
        self.pump();
    }

    /// Starts queued jobs while fewer than [`IN_FLIGHT`] run.
    fn pump(&self) {
        loop {
            let next = {
                let mut q = lock(&self.queue);
                if q.running >= IN_FLIGHT {
                    return;
                }
                match q.queued.pop_front() {
                    Some(job) => {
                        q.running += 1;
                        job
                    }
                    None => return,
                }
            };
            let this = self.clone();
            spawn_local(async move {
                let (generation, job) = next;
                this.run(generation, &job).await;
                lock(&this.queue).known.remove(&job);
                if matches!(job, Job::Page(..)) && this.generation() == generation {
                    this.state.update(|s| s.loading = s.loading.saturating_sub(1));
                }
                if this.generation() == generation {
                    this.after_arrival();
                }
                this.pump();
            });
        }
    }

    /// Frees a slot for the next request as soon as an answer is in, so
    /// the requests keep flowing while the answer is being merged.
    fn release_slot(&self) {
        {
            let mut q = lock(&self.queue);
            q.running = q.running.saturating_sub(1);
        }
        self.pump();
    }

    async fn run(&self, generation: u64, job: &Job) {
        if self.generation() != generation {
            self.release_slot();
            return;
        }
        match job {
            Job::Page(source, page) => {
                let result = self.store.read_posts_page(source, *page).await;
                self.release_slot();
                if self.generation() != generation {
                    return;
                }
                match result {
                    Ok(posts) => {
                        let items: Vec<Item> = posts.iter().map(item_of).collect();
                        self.state.update(|s| {
                            if let Some(m) = s.merge.as_mut() {
                                m.page_arrived(source, *page, items);
                            }
                        });
                    }
                    Err(e) => self.state.update(|s| {
                        if let Some(m) = s.merge.as_mut() {
                            m.failed(source, e.explain());
                        }
                    }),
                }
            }
            Job::Fresh(source) => {
                let pages = self.fresh_pages(generation, source).await;
                self.release_slot();
                // Posts deleted elsewhere since they were read (on another
                // device, or while Perch was closed) leave everywhere.
                let gone = self.state.with_untracked(|s| match (s.merge.as_ref(), pages.first()) {
                    (Some(m), Some((1, items))) => m.vanished(source, items),
                    _ => Vec::new(),
                });
                for uuid in gone {
                    self.store.post_deleted(&uuid);
                }
                self.state.update(|s| {
                    if let Some(m) = s.merge.as_mut() {
                        for (page, items) in pages {
                            m.page_arrived(source, page, items);
                        }
                    }
                });
            }
        }
    }

    /// Page 1 of `source` and on, until a page meets what is known.
    async fn fresh_pages(&self, generation: u64, source: &str) -> Vec<(u32, Vec<Item>)> {
        let mut pages = Vec::new();
        for page in 1..=FRESH_PAGES {
            let Ok(posts) = self.store.read_posts_page(source, page).await else { return Vec::new() };
            if self.generation() != generation {
                return Vec::new();
            }
            let items: Vec<Item> = posts.iter().map(item_of).collect();
            let meets = self.state.with_untracked(|s| {
                s.merge.as_ref().is_none_or(|m| !m.has_source(source) || m.overlaps(source, &items))
            });
            pages.push((page, items));
            if meets {
                return pages;
            }
        }
        Vec::new()
    }

    /// After any answer: the first screen, sources catching up, and Load
    /// more or a restore that has not reached its goal yet.
    fn after_arrival(&self) {
        self.ask_window(OnScreen::arrived);
    }

    /// Load more: puts the next posts already known on screen, and loads
    /// the next pages of the sources whose posts are used up so that the
    /// step after is known too.
    pub fn load_more(&self) {
        self.ask_window(OnScreen::load_more);
    }

    /// Lets the window decide on the merge, and asks for the pages it wants.
    fn ask_window(&self, decide: impl FnOnce(&mut OnScreen, &Merge, usize) -> Wanted) {
        let wanted = self
            .state
            .try_update(|s| match s.merge.as_ref() {
                Some(m) => decide(&mut s.on_screen, m, s.loading),
                None => Vec::new(),
            })
            .unwrap_or_default();
        if !wanted.is_empty() {
            self.enqueue_pages(wanted);
        }
    }

    /// Asks a failed source again.
    pub fn retry(&self, source: &str) {
        let job = self.state.try_update(|s| s.merge.as_mut().and_then(|m| m.retry(source))).flatten();
        if let Some(page) = job {
            self.enqueue_pages(vec![page]);
        }
    }

    /// Tries again after the following list failed.
    pub fn retry_following(&self) {
        self.ensure_started();
    }

    /// The reading position was restored (or given up on).
    pub fn restored(&self) {
        self.state.update(|s| s.on_screen.restored());
    }

    /// The reader is back at the top: what the timeline read below its
    /// first pages goes (the merge cut back to the store's share for a
    /// timeline, `store/bound.rs`), so the store can let those posts go.
    /// Load more reads them again.
    pub(super) fn cut_back_at_top(&self) {
        let max = self.store.timeline_posts();
        let cut = self.state.with_untracked(|s| {
            let merge = s.merge.as_ref()?;
            let mut on_screen = s.on_screen.clone();
            let cut = on_screen.cut_back(merge, max, s.loading)?;
            Some((cut, on_screen))
        });
        if let Some((cut, on_screen)) = cut {
            self.state.update(|s| {
                s.merge = Some(cut);
                s.on_screen = on_screen;
            });
        }
    }

    pub fn newest_shown(&self) -> Option<Mark> {
        self.state.with_untracked(|s| s.merge.as_ref().and_then(|m| s.on_screen.newest_shown(m)))
    }

    /// The time of a shown post, for the reading position.
    pub fn mark_of(&self, uuid: &str) -> Option<Mark> {
        self.store.post_untracked(uuid).map(|p| Mark { uuid: p.uuid, at: p.created_at.unwrap_or(Timestamp(0)).0 })
    }
}
