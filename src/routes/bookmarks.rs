//! `/bookmarks`: the posts the account bookmarked, newest bookmarked first,
//! from what this browser keeps (`store/bookmarks.rs`), so the page reads
//! offline. The shown ones are read again once a visit, while online: each
//! bookmark keeps what was read, and one found deleted shows as deleted,
//! with its kept text. Removing one offers Undo. Its own split module
//! (docs/size.md, "Bookmarks", says what it costs the other pages).
//!
//! Words: later.

use crate::browser::dom::DomId;
use crate::browser::navigation::{PageHeading, Title};
use crate::components::bookmark::bookmarks as use_bookmarks;
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::post_card::PostCard;
use crate::i18n::t;
use crate::nav::{while_shown, AppPath};
use crate::store::bookmarks::kept::{self, Bookmark};
use crate::store::bookmarks::{Bookmarks, Change};
use crate::store::use_store;
use leptos::prelude::*;
use leptos_router::components::A;

/// How many bookmarks are drawn at first, and added by each Load more.
const PAGE: usize = 20;

#[component]
pub fn BookmarksPage() -> impl IntoView {
    later(bookmarks_page::GROUP, bookmarks_page::load, bookmarks_page::draw, Meanwhile::Page)
}

lazy! { page_bookmarks, fn bookmarks_page() {
    let session = crate::account::session::use_session();
    view! {
        <Title text=move || t::title_page(t::bookmarks_title().get()).get()/>
        <main id="main" class="page bookmarks">
            <PageHeading text=t::bookmarks_title()/>
            {move || match (session.user(), use_bookmarks()) {
                (Some(_), Some(bookmarks)) => view! { <BookmarkList bookmarks/> }.into_any(),
                _ => {
                    let href = crate::account::oauth::signin_href(&AppPath::Bookmarks.href());
                    view! { <p>{t::bookmarks_signed_out()} " " <A href=href>{t::sign_in()}</A></p> }.into_any()
                }
            }}
        </main>
    }
}}

thread_local! {
    /// The posts read again this visit (each once).
    static READ_AGAIN: std::cell::RefCell<std::collections::HashSet<String>> = Default::default();
}

/// The bookmarks, a page at a time, with Undo after a removal.
#[component]
fn BookmarkList(bookmarks: Bookmarks) -> impl IntoView {
    let store = use_store();
    let shown = RwSignal::new(PAGE);
    // What is kept, read again at every change (here or in another tab);
    // the one that went last can come back with Undo.
    let all = RwSignal::new(Vec::<Bookmark>::new());
    let removed = RwSignal::new(None::<Bookmark>);
    Effect::new({
        let bookmarks = bookmarks.clone();
        move |_| {
            bookmarks.track();
            let now = bookmarks.account().map(|a| kept::read(&a)).unwrap_or_default();
            let before = all.get_untracked();
            let went: Vec<&Bookmark> =
                before.iter().filter(|b| !now.iter().any(|n| n.post.uuid == b.post.uuid)).collect();
            if let [one] = went.as_slice() {
                removed.set(Some((*one).clone()));
                // The focus is on its card (the button that removed it), or
                // was, and went with it: Undo takes it, once drawn.
                let focus = document().active_element();
                let on_card = focus
                    .as_ref()
                    .and_then(crate::browser::dom::card_around)
                    .and_then(|c| crate::browser::dom::uuid_of(&c));
                let lost = focus.is_none_or(|f| document().body().is_some_and(|b| f.is_same_node(Some(&b))));
                if lost || on_card.as_deref() == Some(one.post.uuid.as_str()) {
                    crate::browser::dom::focus_later(DomId::BookmarkUndo);
                }
            } else if removed
                .with_untracked(|r| r.as_ref().is_some_and(|r| now.iter().any(|n| n.post.uuid == r.post.uuid)))
            {
                removed.set(None);
            }
            all.set(now);
        }
    });
    let visible = Memo::new(move |_| all.with(|all| all.iter().take(shown.get()).cloned().collect::<Vec<_>>()));
    // Each shown post the store does not hold yet comes from what was
    // kept; then it is read again (once a visit, one at a time, online):
    // the store tells the bookmarks what it read, or that it is gone.
    Effect::new({
        let store = store.clone();
        move |_| {
            let due: Vec<String> = visible.with(|v| {
                v.iter()
                    .filter(|b| !b.gone)
                    .map(|b| {
                        if store.post_untracked(&b.post.uuid).is_none() && !store.is_deleted(&b.post.uuid) {
                            store.put_post(b.post.clone());
                        }
                        b.post.uuid.clone()
                    })
                    .filter(|uuid| READ_AGAIN.with(|r| !r.borrow().contains(uuid)))
                    .collect()
            });
            if due.is_empty() || !window().navigator().on_line() {
                return;
            }
            let store = store.clone();
            while_shown(async move {
                for uuid in due {
                    // Marked before the read: two effects never read one twice.
                    if !READ_AGAIN.with(|r| r.borrow_mut().insert(uuid.clone())) {
                        continue;
                    }
                    if let Err(e) = store.read_post(&uuid).await {
                        if !e.is_not_found() {
                            // Offline, or the server failed: read next visit.
                            READ_AGAIN.with(|r| r.borrow_mut().remove(&uuid));
                        }
                    }
                }
            });
        }
    });
    let put_back = {
        let bookmarks = bookmarks.clone();
        move |_| {
            if let Some(bookmark) = removed.get_untracked() {
                bookmarks.keep(Change::Put(bookmark));
            }
        }
    };
    let keys = move || visible.with(|v| v.iter().map(|b| (b.post.uuid.clone(), b.gone)).collect::<Vec<_>>());
    view! {
        <p class="note">{t::bookmarks_kept_here()}</p>
        {move || removed.with(Option::is_some).then(|| view! {
            <p class="undo-bar" role="status">{t::bookmark_removed()} " "
                <button type="button" class="secondary" id=DomId::BookmarkUndo.to_string() on:click=put_back.clone()>{t::undo()}</button>
            </p>
        })}
        {move || all.with(Vec::is_empty).then(|| view! { <p class="empty">{t::no_bookmarks()}</p> })}
        // A feed only with posts in it (an empty one is no feed: axe's
        // aria-required-children).
        <div role=move || all.with(|a| !a.is_empty()).then_some("feed")
            aria-label=move || all.with(|a| !a.is_empty()).then(|| t::bookmarks_title().get())
            aria-busy=move || all.with(|a| !a.is_empty()).then_some("false")>
            <For each=keys key=|k| k.clone() let:key>
                {
                    let (uuid, gone) = key;
                    let (store, bookmarks) = (use_store(), bookmarks.clone());
                    let deleted = Memo::new({ let uuid = uuid.clone(); move |_| gone || store.is_deleted(&uuid) });
                    move || if deleted.get() {
                        let kept = all.with_untracked(|all| all.iter().find(|b| b.post.uuid == uuid).cloned());
                        kept.map(|kept| view! { <GoneBookmark kept bookmarks=bookmarks.clone()/> }.into_any()).unwrap_or_else(|| ().into_any())
                    } else {
                        view! { <PostCard uuid=uuid.clone()/> }.into_any()
                    }
                }
            </For>
        </div>
        {move || (all.with(Vec::len) > shown.get()).then(|| view! {
            <button type="button" class="load-more secondary" on:click=move |_| shown.update(|n| *n += PAGE)>{t::load_more()}</button>
        })}
    }
}

/// A bookmarked post deleted on the server: said so, with what was kept of
/// it, and Remove bookmark.
#[component]
fn GoneBookmark(kept: Bookmark, bookmarks: Bookmarks) -> impl IntoView {
    let post = kept.post;
    let uuid = post.uuid.clone();
    let heading = crate::browser::dom::DomId::CardHeading(&post.uuid).to_string();
    let labelled_by = heading.clone();
    view! {
        <article class="post tombstone bookmark-gone" aria-labelledby=labelled_by tabindex="-1" data-uuid=post.uuid.clone()>
            <p>{t::bookmarked_post_gone()}</p>
            <header class="post-head">
                <span class="author" id=heading>
                    <span class="display-name" dir="auto">{post.author.shown_name().to_owned()}</span>
                    " " <span class="handle">{format!("@{}", post.author.username)}</span>
                </span>
            </header>
            <p class="post-content" dir="auto">{post.content}</p>
            <footer class="post-meta">
                <button type="button" class="secondary bookmark" on:click=move |_| bookmarks.keep_now(Change::Remove(uuid.clone()))>{t::remove_bookmark()}</button>
            </footer>
        </article>
    }
}
