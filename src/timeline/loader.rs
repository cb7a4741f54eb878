//! The home timeline for the whole visit: its sources (the owner and
//! everyone they follow), their pages fetched with at most [`IN_FLIGHT`]
//! requests at once, checks for new posts, follows and unfollows, and the
//! reading position kept across reloads. The merge itself is `timeline.rs`;
//! the page that shows it is `routes/home.rs`.
//!
//! Requests here are not tied to the page: going to a thread and back finds
//! the timeline as it was, with nothing fetched twice.

use crate::api::{Api, ApiError};
use crate::session::Session;
use crate::store::Store;
use crate::timeline::{Item, Timeline};
use leptos::prelude::*;
use leptos::task::spawn_local;
use perch_model::{Post, Timestamp, PAGE_SIZE};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet, VecDeque};
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
/// Restoring a reading position loads at most this many rounds of pages.
const RESTORE_ROUNDS: u32 = 20;
/// Posts put on screen at first and by each Load more: the merge may know
/// hundreds at once (every source's first page), the screen needs a few.
pub const STEP: usize = 20;

/// Where the person was reading, kept per account in `localStorage`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    /// The newest post shown (newer ones count as new).
    pub newest: Option<Mark>,
    /// The post at the top of the screen, and how far below the top it was.
    pub at: Option<Mark>,
    pub offset: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    pub uuid: String,
    pub at: i64,
}

impl Mark {
    fn item(&self) -> Item {
        Item { uuid: self.uuid.clone(), at: Timestamp(self.at) }
    }
}

fn reading_key(owner: &str) -> String {
    format!("perch.home.{owner}")
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

pub fn saved_reading(owner: &str) -> Option<Reading> {
    let text = storage()?.get_item(&reading_key(owner)).ok().flatten()?;
    serde_json::from_str(&text).ok()
}

pub fn save_reading(owner: &str, reading: &Reading) {
    if let (Some(storage), Ok(text)) = (storage(), serde_json::to_string(reading)) {
        let _ = storage.set_item(&reading_key(owner), &text);
    }
}

/// What the home page is doing before its posts can show.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Phase {
    #[default]
    Idle,
    /// Reading whom the owner follows.
    Following,
    FollowingFailed(ApiError),
    /// Loading and showing the sources' posts.
    Sources,
}

/// Why more pages are being loaded.
#[derive(Clone, Debug, PartialEq)]
enum Goal {
    /// Load more: until this many posts are known, or nothing is left.
    Fill(usize),
    /// After a reload: until the post read last shows (or its time does).
    Reach(Item, u32),
}

#[derive(Clone, Debug, Default)]
pub struct HomeState {
    pub owner: String,
    pub phase: Phase,
    pub timeline: Option<Timeline>,
    /// The last error of each source that failed, by uuid.
    pub errors: HashMap<String, ApiError>,
    /// The newest post shown; newer posts wait behind "N new posts".
    anchor: Option<Item>,
    goal: Option<Goal>,
    /// How many of the known posts are on screen.
    limit: usize,
    /// The first screen was set up (anchor and restore goal chosen).
    settled: bool,
    /// A reading position to scroll back to once it shows.
    pub restore: Option<Reading>,
    /// Page requests queued or in flight (not checks for new posts).
    pub loading: usize,
    /// When the last check for new posts began (ms since the epoch).
    pub last_check: f64,
}

impl HomeState {
    /// The posts shown, newest first: what can be known correct, without
    /// the new posts the person has not asked to see yet.
    pub fn shown(&self) -> Vec<String> {
        self.shown_items().into_iter().map(|i| i.uuid).collect()
    }

    fn shown_items(&self) -> Vec<Item> {
        let mut known = self.known();
        known.truncate(self.limit);
        known
    }

    /// Everything that could be shown: known correct, not newer than the
    /// newest shown.
    fn known(&self) -> Vec<Item> {
        let Some(t) = &self.timeline else { return Vec::new() };
        let visible = t.visible();
        match &self.anchor {
            Some(anchor) => visible.into_iter().filter(|i| i.order(anchor) != std::cmp::Ordering::Less).collect(),
            None => visible,
        }
    }

    /// Posts newer than what is shown.
    pub fn new_count(&self) -> usize {
        match (&self.timeline, &self.anchor) {
            (Some(t), Some(anchor)) => {
                t.visible().iter().take_while(|i| i.order(anchor) == std::cmp::Ordering::Less).count()
            }
            _ => 0,
        }
    }

    pub fn started(&self) -> bool {
        self.timeline.as_ref().is_some_and(Timeline::started)
    }

    /// Nothing more to show: everything is loaded and on screen.
    pub fn done(&self) -> bool {
        self.timeline.as_ref().is_some_and(Timeline::done) && self.known().len() <= self.limit
    }

    /// The shown list as the feed reads it, from one merge: what `shown`,
    /// `done` and `loading_more` say, without sorting three times.
    pub fn feed(&self) -> crate::store::Paged {
        let mut items = self.known();
        let known = items.len();
        items.truncate(self.limit);
        crate::store::Paged {
            items: items.into_iter().map(|i| i.uuid).collect(),
            pages_loaded: 1,
            done: self.timeline.as_ref().is_some_and(Timeline::done) && known <= self.limit,
            loading: self.loading > 0 && (known < self.limit || matches!(self.goal, Some(Goal::Reach(..)))),
            error: None,
        }
    }

    /// Sources followed (the owner's own not counted).
    pub fn following_count(&self) -> usize {
        self.timeline.as_ref().map_or(0, |t| t.sources().filter(|s| **s != self.owner).count())
    }

    /// Sources loading after the first screen: slow, retried or new.
    pub fn joining_sources(&self) -> Vec<String> {
        self.timeline.as_ref().map(Timeline::joining_sources).unwrap_or_default()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Job {
    /// One page of a source.
    Page(String, u32),
    /// Page 1 of a source (and on, until it meets what is known).
    Fresh(String),
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<(u64, Job)>,
    known: HashSet<Job>,
    running: usize,
}

/// The home timeline, provided once for the visit.
#[derive(Clone)]
pub struct Home {
    pub state: ArcRwSignal<HomeState>,
    queue: Arc<Mutex<Queue>>,
    /// Bumped when the owner changes: answers for an older owner are dropped.
    generation: Arc<Mutex<u64>>,
    api: Api,
    store: Store,
    session: Session,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn item_of(post: &Post) -> Item {
    Item { uuid: post.uuid.clone(), at: post.created_at.unwrap_or(Timestamp(0)) }
}

impl Home {
    pub fn new(api: Api, store: Store, session: Session) -> Self {
        Home {
            state: ArcRwSignal::new(HomeState::default()),
            queue: Arc::default(),
            generation: Arc::default(),
            api,
            store,
            session,
        }
    }

    fn generation(&self) -> u64 {
        *lock(&self.generation)
    }

    /// Starts the timeline of whoever is signed in, unless it already is.
    pub fn ensure_started(&self) {
        let Some(owner) = self.session.signed_untracked().map(|s| s.user) else { return };
        let me = owner.uuid.clone();
        let current = self.state.with_untracked(|s| (s.owner.clone(), s.phase.clone()));
        if current.0 == me && !matches!(current.1, Phase::Idle | Phase::FollowingFailed(_)) {
            return;
        }
        let generation = {
            let mut g = lock(&self.generation);
            *g += 1;
            *g
        };
        *lock(&self.queue) = Queue::default();
        // The owner is a source too, named if their posts fail; a copy the
        // store already has may be fresher than the session's.
        if !self.store.knows_user(&me) {
            self.store.put_user(owner);
        }
        self.state.set(HomeState {
            owner: me.clone(),
            phase: Phase::Following,
            restore: saved_reading(&me),
            limit: STEP,
            last_check: js_sys::Date::now(),
            ..HomeState::default()
        });
        let this = self.clone();
        spawn_local(async move {
            let result = this.api.following(&me).await;
            if this.generation() != generation {
                return;
            }
            match result {
                Ok(list) => {
                    let followed = this.store.put_user_refs(list.following);
                    this.remember_following(&me, &followed);
                    let timeline = Timeline::new(std::iter::once(me.clone()).chain(followed), PAGE_SIZE);
                    let jobs = timeline.wanted();
                    this.state.update(|s| {
                        s.timeline = Some(timeline);
                        s.phase = Phase::Sources;
                    });
                    this.enqueue(jobs.into_iter().map(|(source, page)| Job::Page(source, page)));
                    // The first screen does not wait for ever for a slow source.
                    let this = this.clone();
                    set_timeout(
                        move || {
                            if this.generation() == generation {
                                this.state.update(|s| {
                                    if let Some(t) = s.timeline.as_mut().filter(|t| !t.started()) {
                                        for source in t.waiting_for() {
                                            t.set_aside(&source);
                                        }
                                    }
                                });
                                this.after_arrival();
                            }
                        },
                        SLOW_SOURCE,
                    );
                }
                Err(e) => this.state.update(|s| s.phase = Phase::FollowingFailed(e)),
            }
        });
    }

    /// Keeps the owner's following list in the store, where Follow buttons
    /// read their first state, so it is not fetched twice.
    fn remember_following(&self, me: &str, followed: &[String]) {
        self.store.list(&format!("following:{me}")).update(|l| {
            l.items = followed.to_vec();
            l.pages_loaded = 1;
            l.done = true;
            l.loading = false;
            l.error = None;
        });
    }

    fn enqueue(&self, jobs: impl IntoIterator<Item = Job>) {
        let generation = self.generation();
        let mut added = 0;
        {
            let mut q = lock(&self.queue);
            for job in jobs {
                if q.known.insert(job.clone()) {
                    if matches!(job, Job::Page(..)) {
                        added += 1;
                    }
                    q.waiting.push_back((generation, job));
                }
            }
        }
        if added > 0 {
            self.state.update(|s| s.loading += added);
        }
        self.pump();
    }

    /// Starts waiting jobs while fewer than [`IN_FLIGHT`] run.
    fn pump(&self) {
        loop {
            let next = {
                let mut q = lock(&self.queue);
                if q.running >= IN_FLIGHT {
                    return;
                }
                match q.waiting.pop_front() {
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
                let result = self.api.user_posts(source, *page).await;
                self.release_slot();
                if self.generation() != generation {
                    return;
                }
                match result {
                    Ok(answer) => {
                        let items: Vec<Item> = answer.posts.iter().map(item_of).collect();
                        for post in answer.posts {
                            self.store.put_post(post);
                        }
                        self.state.update(|s| {
                            s.errors.remove(source);
                            if let Some(t) = s.timeline.as_mut() {
                                t.page_arrived(source, *page, items);
                            }
                        });
                    }
                    Err(e) => self.state.update(|s| {
                        s.errors.insert(source.clone(), e);
                        if let Some(t) = s.timeline.as_mut() {
                            t.failed(source);
                        }
                    }),
                }
            }
            Job::Fresh(source) => {
                let pages = self.fresh_pages(generation, source).await;
                self.release_slot();
                self.state.update(|s| {
                    if let Some(t) = s.timeline.as_mut() {
                        for (page, items) in pages {
                            t.page_arrived(source, page, items);
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
            let Ok(answer) = self.api.user_posts(source, page).await else { return Vec::new() };
            if self.generation() != generation {
                return Vec::new();
            }
            let items: Vec<Item> = answer.posts.iter().map(item_of).collect();
            let meets = self.state.with_untracked(|s| {
                s.timeline.as_ref().is_none_or(|t| !t.has_source(source) || t.overlaps(source, &items))
            });
            for post in answer.posts {
                self.store.put_post(post);
            }
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
        let mut jobs = Vec::new();
        self.state.update(|s| {
            let Some(t) = s.timeline.as_ref() else { return };
            if !t.started() {
                return;
            }
            jobs.extend(t.catching_up());
            if !s.settled {
                s.settled = true;
                // The first screen: after a reload, the newest post seen
                // before; what came since waits behind "N new posts".
                let newest = t.visible().into_iter().next();
                s.anchor = match (s.restore.as_ref().and_then(|r| r.newest.as_ref()), newest) {
                    (Some(saved), Some(newest)) if newest.order(&saved.item()) == std::cmp::Ordering::Less => {
                        Some(saved.item())
                    }
                    (_, newest) => newest,
                };
                if let Some(at) = s.restore.as_ref().and_then(|r| r.at.as_ref()) {
                    s.goal = Some(Goal::Reach(at.item(), RESTORE_ROUNDS));
                }
            }
            let reached = match &s.goal {
                None => true,
                Some(_) if t.done() => true,
                Some(Goal::Fill(n)) => s.known().len() >= *n,
                Some(Goal::Reach(item, rounds)) => {
                    *rounds == 0 || t.visible().last().is_some_and(|last| last.order(item) != std::cmp::Ordering::Less)
                }
            };
            if reached {
                if let Some(Goal::Reach(item, _)) = &s.goal {
                    // Put the post read last on screen, with a step below it.
                    let above = s.known().iter().take_while(|i| i.order(item) == std::cmp::Ordering::Less).count();
                    s.limit = s.limit.max(above + STEP);
                }
                s.goal = None;
            } else if s.loading == 0 {
                if let Some(Goal::Reach(_, rounds)) = &mut s.goal {
                    *rounds -= 1;
                }
                jobs.extend(t.wanted());
            }
        });
        if !jobs.is_empty() {
            self.enqueue(jobs.into_iter().map(|(source, page)| Job::Page(source, page)));
        }
    }

    /// Load more: puts the next posts already known on screen, and loads
    /// the next pages of the sources whose posts are used up so that the
    /// step after is known too.
    pub fn load_more(&self) {
        let jobs = self.state.try_update(|s| {
            let t = s.timeline.as_ref()?;
            if !t.started() || matches!(s.goal, Some(Goal::Reach(..))) {
                return None;
            }
            // The next step goes on screen now if known, else as it arrives;
            // pressing again while it loads asks for nothing more.
            let known = s.known().len();
            s.limit = known.min(s.limit) + STEP;
            if t.done() || known >= s.limit + STEP {
                return None;
            }
            s.goal = Some(Goal::Fill(s.limit + STEP));
            (s.loading == 0).then(|| t.wanted())
        });
        if let Some(Some(jobs)) = jobs {
            self.enqueue(jobs.into_iter().map(|(source, page)| Job::Page(source, page)));
        }
    }

    /// Asks a failed source again.
    pub fn retry(&self, source: &str) {
        let job = self.state.try_update(|s| {
            s.errors.remove(source);
            s.timeline.as_mut().and_then(|t| t.retry(source))
        });
        if let Some(Some((source, page))) = job {
            self.enqueue([Job::Page(source, page)]);
        }
    }

    /// Tries again after the following list failed.
    pub fn retry_following(&self) {
        self.ensure_started();
    }

    /// Looks for new posts: whom the owner follows now (someone may have
    /// followed or unfollowed elsewhere), then page 1 of every source.
    pub fn check_new(&self) {
        let (me, ready) = self.state.with_untracked(|s| (s.owner.clone(), s.started()));
        if !ready {
            return;
        }
        self.state.update(|s| s.last_check = js_sys::Date::now());
        let generation = self.generation();
        let this = self.clone();
        spawn_local(async move {
            if let Ok(list) = this.api.following(&me).await {
                if this.generation() != generation {
                    return;
                }
                let now: Vec<String> = this.store.put_user_refs(list.following);
                this.remember_following(&me, &now);
                let before: Vec<String> = this.state.with_untracked(|s| {
                    s.timeline
                        .as_ref()
                        .map(|t| t.sources().filter(|u| **u != me).cloned().collect())
                        .unwrap_or_default()
                });
                for gone in before.iter().filter(|u| !now.contains(u)) {
                    this.follow_changed(gone, false);
                }
                for new in now.iter().filter(|u| !before.contains(u)) {
                    this.follow_changed(new, true);
                }
            }
            let sources: Vec<String> = this
                .state
                .with_untracked(|s| s.timeline.as_ref().map(|t| t.sources().cloned().collect()).unwrap_or_default());
            this.enqueue(sources.into_iter().map(Job::Fresh));
        });
    }

    /// Shows the new posts (the person asked to).
    pub fn show_new(&self) {
        self.state.update(|s| {
            s.limit += s.new_count();
            s.anchor = s.timeline.as_ref().and_then(|t| t.visible().into_iter().next());
        });
    }

    /// The owner followed (`true`) or unfollowed someone.
    pub fn follow_changed(&self, uuid: &str, following: bool) {
        let job = self.state.try_update(|s| {
            let t = s.timeline.as_mut()?;
            if following {
                t.add_source(uuid)
            } else {
                t.remove_source(uuid);
                s.errors.remove(uuid);
                None
            }
        });
        if let Some(Some((source, page))) = job {
            self.enqueue([Job::Page(source, page)]);
        }
    }

    /// The owner posted (or replied): it goes to the top, in view.
    pub fn posted(&self, post: &Post) {
        let item = item_of(post);
        self.state.update(|s| {
            let owner = s.owner.clone();
            if let Some(t) = s.timeline.as_mut() {
                t.posted(&owner, item);
            }
            s.limit += s.new_count();
            s.anchor = s.timeline.as_ref().and_then(|t| t.visible().into_iter().next());
        });
    }

    /// A post was deleted.
    pub fn deleted(&self, uuid: &str) {
        self.state.update(|s| {
            if let Some(t) = s.timeline.as_mut() {
                t.forget(uuid);
            }
        });
    }

    /// The reading position was restored (or given up on).
    pub fn restored(&self) {
        self.state.update(|s| s.restore = None);
    }

    /// Whether a restore is still loading its way down to the post.
    pub fn restoring(&self) -> bool {
        self.state.with(|s| matches!(s.goal, Some(Goal::Reach(..))))
    }

    pub fn newest_shown(&self) -> Option<Mark> {
        self.state.with_untracked(|s| s.shown_items().into_iter().next().map(|i| Mark { uuid: i.uuid, at: i.at.0 }))
    }

    /// The time of a shown post, for the reading position.
    pub fn mark_of(&self, uuid: &str) -> Option<Mark> {
        self.store.post_untracked(uuid).map(|p| Mark { uuid: p.uuid, at: p.created_at.unwrap_or(Timestamp(0)).0 })
    }
}

/// The home timeline from context, when one is provided.
pub fn use_home() -> Option<Home> {
    use_context::<Home>()
}
