//! A thread's replies as a tree (issue 35): a reply with replies shows
//! "N replies", which expands in place, reading that reply's replies
//! through the store (endpoint 2, a page at a time); nesting is drawn
//! indented with a guide line down to level 3, and deeper a "Continue this
//! thread" link opens the reply's own page. The thread author's follow-ups
//! (their replies to themselves) come first and are expanded at once, the
//! only replies read ahead. What was expanded or collapsed is kept for the
//! tab (`sessionStorage`, per thread), so Back and a reload find it as it
//! was. Each level is a group named with its level ("Replies to Sam,
//! level 2"), its cards with their position and the level's size; a level
//! draws a few cards at a time, a paint between each few.
//! Part of the thread page's split module.

use crate::browser::web_storage::{self, Key};
use crate::components::post_card::PostCard;
use crate::i18n::t;
use crate::nav::{while_shown, AppPath};
use crate::store::{use_store, ListKey, Store};
use leptos::prelude::*;
use std::collections::HashMap;

/// The deepest level drawn in the thread (the focused post's replies are
/// level 1); a reply there with replies links to its own page.
pub const DEEPEST: u8 = 3;

/// The tree of one thread: whose thread it is, and what the reader
/// expanded (`true`) or collapsed (`false`) against the default.
#[derive(Clone, Copy)]
pub struct Tree {
    thread: StoredValue<String>,
    author: Memo<Option<String>>,
    chosen: RwSignal<HashMap<String, bool>>,
}

impl Tree {
    /// The tree of `thread`, as the tab left it; in context for the branches.
    pub fn provide(thread: Memo<String>) -> Tree {
        let store = use_store();
        let author = Memo::new(move |_| store.post(&thread.get()).map(|p| p.with(|p| p.author.uuid.clone())));
        let kept = |thread: &str| web_storage::get_json(&Key::Tree { thread: thread.to_owned() }).unwrap_or_default();
        // Read before the first draw, so a reload draws the tree as it was.
        let first = thread.get_untracked();
        let tree = Tree { thread: StoredValue::new(first.clone()), author, chosen: RwSignal::new(kept(&first)) };
        Effect::new(move |_| {
            let now = thread.get();
            if tree.thread.with_value(|t| *t != now) {
                tree.chosen.set(kept(&now));
                tree.thread.set_value(now);
            }
        });
        provide_context(tree);
        tree
    }

    /// Whether `uuid`'s replies are shown: as the reader chose, else when
    /// it is a follow-up of the thread's author.
    fn expanded(&self, store: &Store, uuid: &str) -> bool {
        match self.chosen.with(|c| c.get(uuid).copied()) {
            Some(chosen) => chosen,
            None => self.follow_up(store, uuid),
        }
    }

    /// A reply by the thread's author to themselves.
    fn follow_up(&self, store: &Store, uuid: &str) -> bool {
        let Some(author) = self.author.get() else { return false };
        let Some(post) = store.post_untracked(uuid) else { return false };
        let parent_author = match &post.parent {
            perch_model::Parent::Post(p) => Some(p.author.uuid.clone()),
            other => other.uuid().and_then(|p| store.post_untracked(p)).map(|p| p.author.uuid),
        };
        post.author.uuid == author && parent_author.as_deref() == Some(author.as_str())
    }

    fn toggle(&self, store: &Store, uuid: &str) {
        let now = !self.expanded(store, uuid);
        self.chosen.update(|c| {
            c.insert(uuid.to_owned(), now);
        });
        let thread = self.thread.get_value();
        self.chosen.with_untracked(|c| web_storage::set_json(&Key::Tree { thread }, c));
    }

    /// `items` with the thread author's follow-ups first, each group in
    /// the server's order.
    pub fn ordered(&self, store: &Store, items: &[String]) -> Vec<String> {
        let (mut first, rest): (Vec<String>, Vec<String>) =
            items.iter().cloned().partition(|u| self.follow_up(store, u));
        first.extend(rest);
        first
    }
}

pub fn use_tree() -> Option<Tree> {
    use_context::<Tree>()
}

/// Under a reply at `level`: its replies' toggle and, expanded, the next level.
#[component]
pub fn Branch(uuid: String, level: u8) -> impl IntoView {
    let (store, Some(tree)) = (use_store(), use_tree()) else { return ().into_any() };
    let count = {
        let (store, uuid) = (store.clone(), uuid.clone());
        Memo::new(move |_| store.post(&uuid).map_or(0, |p| p.with(|p| p.reply_count)))
    };
    let expanded = {
        let (store, uuid) = (store.clone(), uuid.clone());
        Memo::new(move |_| tree.expanded(&store, &uuid))
    };
    let toggle = {
        let (store, uuid) = (store.clone(), uuid.clone());
        move |_| tree.toggle(&store, &uuid)
    };
    let controls = format!("replies-of-{uuid}");
    // Drawn again only when replies come or go to none: a reply deleted or
    // added keeps the level drawn (and focus on its cards) as it is.
    let any = Memo::new(move |_| count.get() > 0);
    (move || {
        if !any.get() {
            return ().into_any();
        }
        if level >= DEEPEST {
            let href = AppPath::Thread(&uuid).href();
            return view! { <p class="continue-thread"><a href=href>{t::continue_thread()}</a></p> }.into_any();
        }
        let toggle = toggle.clone();
        let uuid = uuid.clone();
        view! {
            <button type="button" class="branch-toggle link-button" aria-expanded=move || expanded.get().to_string()
                aria-controls=controls.clone() on:click=toggle>
                {move || if expanded.get() { t::hide_replies().get() } else { t::replies_count(count.get()).get() }}
            </button>
            {move || expanded.get().then(|| view! { <Level parent=uuid.clone() level=level + 1/> })}
        }
        .into_any()
    })
    .into_any()
}

/// The replies of `parent`, drawn at `level` (2 or deeper): read when
/// shown (from the store, and read again), a page at a time.
#[component]
fn Level(parent: String, level: u8) -> impl IntoView {
    let store = use_store();
    let Some(tree) = use_tree() else { return ().into_any() };
    let key = ListKey::Replies(parent.clone());
    let list = store.list(&key);
    {
        let (store, key) = (store.clone(), key.clone());
        while_shown(async move { store.open(key).await });
    }
    let name = store.post_untracked(&parent).map(|p| p.author.shown_name().to_owned()).unwrap_or_default();
    let label = t::replies_level(name, crate::i18n::number(u64::from(level)));
    let items = {
        let (store, list) = (store.clone(), list.clone());
        Memo::new(move |_| list.with(|l| tree.ordered(&store, &l.items)))
    };
    // Drawn from the task after the one that expands, at the page's pace
    // (as a feed draws): a branch of 15 is not one long task.
    let drawn = RwSignal::new(0);
    Effect::new(move |started: Option<bool>| {
        if started != Some(true) && drawn.get_untracked() < items.with(Vec::len) {
            while_shown(crate::browser::pace::draw_rest(drawn, move || items.with_untracked(Vec::len)));
            return true;
        }
        started == Some(true)
    });
    let size = {
        let list = list.clone();
        move || list.with(|l| if l.done { l.items.len() as i32 } else { -1 })
    };
    let more = {
        let (store, key) = (store.clone(), key.clone());
        move |_| {
            let (store, key) = (store.clone(), key.clone());
            while_shown(async move { store.load_more(key).await });
        }
    };
    let (loading, has_more) = {
        let (a, b) = (list.clone(), list.clone());
        (move || a.with(|l| l.loading), move || b.with(|l| l.pages_loaded > 0 && !l.done && l.error.is_none()))
    };
    let error = list.clone();
    view! {
        <div role="group" class="branch" id=format!("replies-of-{parent}") aria-label=label>
            <For each=move || items.get().into_iter().take(drawn.get()) key=|u| u.clone() let:uuid>
                {
                    // Followed: a reply placed above this one moves it down.
                    let (of, size) = (uuid.clone(), size.clone());
                    let position =
                        Memo::new(move |_| (items.with(|all| all.iter().position(|u| *u == of).map_or(0, |i| i + 1)), size()));
                    let under = uuid.clone();
                    let shown = items;
                    let description = Signal::derive(move || {
                        let of = shown.with(Vec::len);
                        let n = |n: usize| crate::i18n::number(n as u64);
                        t::reply_position(n(usize::from(level)), n(position.get().0), n(of)).get()
                    });
                    view! { <PostCard uuid position description><Branch uuid=under.clone() level/></PostCard> }
                }
            </For>
            // Replies to these that wait in the outbox show in their place.
            <crate::components::waiting::WaitingPosts root=parent.clone()/>
            {move || loading().then(|| view! { <p class="loading" role="status">{t::loading()}</p> })}
            {move || error.with(|l| l.error.clone()).map(|e| view! { <p class="error" role="alert">{e.explain()}</p> })}
            {move || has_more().then(|| view! {
                <button type="button" class="link-button more-replies" on:click=more.clone()>{t::more_replies()}</button>
            })}
        </div>
    }
    .into_any()
}
