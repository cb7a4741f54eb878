//! `/post/:uuid`: a post with the chain of posts it replies to above it and
//! its replies below, oldest first, 15 at a time. Opened again, or back in
//! view after a while, it is shown from the store and read again.

use super::{use_list, ListPage};
use crate::api::ApiError;
use crate::browser::navigation::{PageHeading, Title};
use crate::components::feed::Feed;
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::post_card::{PostCard, Tombstone};
use crate::components::states::ErrorBox;
use crate::i18n::t;
use crate::nav::AppPath;
use crate::store::{use_store, ListKey, Store};
use leptos::prelude::*;
use leptos_router::components::A;

#[derive(Clone, Debug, PartialEq)]
enum Ancestor {
    Post(String),
    Deleted,
    /// Not loaded yet.
    Missing(String),
}

/// The posts above `uuid`, root first, as far as the store knows them.
fn ancestors(store: &Store, uuid: &str) -> Vec<Ancestor> {
    let mut chain = Vec::new();
    let mut current = store.post(uuid).map(|p| p.get());
    while let Some(post) = current.take() {
        let Some(parent) = post.parent.uuid().map(str::to_owned) else { break };
        if store.is_deleted(&parent) {
            chain.push(Ancestor::Deleted);
            break;
        }
        match store.post(&parent) {
            Some(p) if chain.len() < 100 => {
                chain.push(Ancestor::Post(parent));
                current = Some(p.get());
            }
            _ => {
                chain.push(Ancestor::Missing(parent));
                break;
            }
        }
    }
    chain.reverse();
    chain
}

#[component]
pub fn Thread() -> impl IntoView {
    // The page's data(): its first reads go while its code downloads.
    use_store().read_thread_early(&crate::routes::param("uuid").get_untracked());
    later(thread_page::GROUP, thread_page::load, thread_page::draw, Meanwhile::Page)
}

lazy! { pages, fn thread_page() {
    let uuid = crate::routes::param("uuid");
    let store = use_store();
    let error = RwSignal::new(None::<ApiError>);
    let attempt = RwSignal::new(0u32);

    // The focused post, unless the store has it (then opening the replies
    // reads it again in the background).
    crate::routes::load_unless_held(crate::routes::Wanted::Post, uuid, attempt, error);

    // The ancestors, one at a time up the chain; a 404 is a deleted post.
    let chain = Memo::new({
        let store = store.clone();
        move |_| ancestors(&store, &uuid.get())
    });
    Effect::new({
        let store = store.clone();
        move |_| {
            if let Some(Ancestor::Missing(parent)) = chain.get().first().cloned() {
                let store = store.clone();
                crate::nav::while_shown(async move {
                    let _ = store.read_post(&parent).await;
                });
            }
        }
    });

    // Replies, oldest first (the author's follow-ups before the rest), as
    // a tree: from the store and read again, or read.
    let key = Memo::new(move |_| uuid.with(|u| (!u.is_empty()).then(|| ListKey::Replies(u.clone()))));
    let ListPage { list, load_more, show_new, returning } = use_list(uuid, key);
    let tree = crate::routes::thread_tree::Tree::provide(uuid);
    let list = Signal::derive({
        let store = store.clone();
        move || {
            let mut list = list.get();
            list.items = tree.ordered(&store, &list.items);
            list
        }
    });
    let under = Callback::new(move |reply: String| {
        view! { <crate::routes::thread_tree::Branch uuid=reply level=1/> }.into_any()
    });

    // Once the chain is in, give the focused post focus (unless coming
    // back, or focus is elsewhere already).
    let focused_once = StoredValue::new(String::new());
    Effect::new({
        let store = store.clone();
        move |_| {
            let uuid = uuid.get();
            let chain = chain.get();
            let ready = store.post(&uuid).is_some() && !chain.iter().any(|a| matches!(a, Ancestor::Missing(_)));
            if !ready || returning.get() || focused_once.get_value() == uuid {
                return;
            }
            focused_once.set_value(uuid);
            let has_ancestors = !chain.is_empty();
            // No scrolling here: `keep_in_place` kept the post where the
            // reader first saw it while the ancestors arrived above it.
            request_animation_frame(move || {
                use wasm_bindgen::JsCast;
                let Some(article) = document().query_selector("article.focused").ok().flatten() else { return };
                let free = document().active_element().is_none_or(|a| matches!(a.tag_name().as_str(), "BODY" | "H1"));
                if let (true, Some(el)) = (free && has_ancestors, article.dyn_ref::<web_sys::HtmlElement>()) {
                    let _ = el.focus();
                }
            });
        }
    });

    let author = {
        let store = store.clone();
        move || store.post(&uuid.get()).map(|p| p.with(|p| p.author.shown_name().to_owned()))
    };
    let heading = Signal::derive({
        let author = author.clone();
        move || author().map(|name| t::post_by(name).get()).unwrap_or_else(|| t::post().get())
    });
    let signed_in = crate::account::session::use_session();
    let known = Memo::new({
        let store = store.clone();
        move |_| store.post(&uuid.get()).is_some()
    });
    // A memo: a deletion of any other post (a reply in the tree) changes
    // the set `is_deleted` reads, and must not draw the page again (the
    // focus a deleted reply hands on would be lost with it).
    let not_found = Memo::new(move |_| {
        error.with(|e| e.as_ref().is_some_and(ApiError::is_not_found)) || store.is_deleted(&uuid.get())
    });

    view! {
        <Title text=move || t::title_page(heading.get()).get()/>
        <main id="main" class="page thread">
            {move || if not_found.get() {
                view! {
                    <PageHeading text=t::post_not_found()/>
                    <p>{t::error_not_found()}</p>
                    <p><A href=AppPath::Home.href()>{t::go_home()}</A></p>
                }.into_any()
            } else {
                view! {
                    <PageHeading text=heading/>
                    <div class="ancestors">
                        // The whole chain at once, when its last post is in: one
                        // change above the focused post, made up for by one scroll.
                        {move || {
                            let chain = chain.get();
                            if chain.iter().any(|a| matches!(a, Ancestor::Missing(_))) {
                                return None;
                            }
                            keep_in_place(".thread-rest");
                            Some(chain.into_iter().map(|a| match a {
                                Ancestor::Post(uuid) => view! { <PostCard uuid/> }.into_any(),
                                Ancestor::Deleted => view! { <Tombstone/> }.into_any(),
                                Ancestor::Missing(_) => ().into_any(),
                            }).collect_view())
                        }}
                    </div>
                    // Below a chain of ancestors, at least a screen's height, so
                    // the focused post can always be scrolled to the top and
                    // stays put while ancestors arrive above it.
                    <div class="thread-rest" class:below-ancestors=move || !chain.with(Vec::is_empty)>
                    {move || match error.get() {
                        Some(e) => view! { <ErrorBox error=e retry=Callback::new(move |_| attempt.update(|n| *n += 1))/> }.into_any(),
                        None => view! { <PostCard uuid=uuid.get() focused=true/> }.into_any(),
                    }}
                    <ReplyBox uuid=uuid/>
                    // Signed out, the post's box already says to sign in; once is
                    // enough. Until the post is known, nothing below it is drawn,
                    // so its arrival moves nothing down (no layout shift).
                    {move || (signed_in.is_signed_in() && known.get()).then(|| view! {
                        <section class="replies" aria-labelledby="replies-heading">
                            <h2 id="replies-heading">{t::replies()}</h2>
                            <Feed list load_more label=t::replies() empty=t::no_replies_yet()
                                show_fresh=show_new show_fresh_label=t::show_new_replies all_at_once=returning.get_untracked() under/>
                            <crate::components::waiting::WaitingPosts root=uuid.get()/>
                        </section>
                    })}
                    </div>
                }.into_any()
            }}
        </main>
    }
}}

/// Called just before the DOM above `selector` changes: once the change is
/// in, and before the browser paints, scrolls by as much as that element
/// moved, so what the reader sees stays where it was. (The browser's own
/// scroll anchoring does nothing at the top of a page.)
fn keep_in_place(selector: &'static str) {
    let top = move || document().query_selector(selector).ok().flatten().map(|a| a.get_bounding_client_rect().top());
    let Some(before) = top() else { return };
    queue_microtask(move || {
        if let Some(after) = top() {
            if after != before {
                window().scroll_by_with_x_and_y(0.0, after - before);
            }
        }
    });
}

/// The reply box under the focused post, or why there is none. It depends
/// only on what decides it, so a like on the post does not rebuild the box
/// under someone typing.
#[component]
fn ReplyBox(uuid: Memo<String>) -> impl IntoView {
    let (store, session) = (use_store(), crate::account::session::use_session());
    let state = Memo::new(move |_| {
        let uuid = uuid.get();
        if !session.is_signed_in() || store.is_deleted(&uuid) {
            return None;
        }
        let post = store.post(&uuid)?;
        let (locked, author) = post.with(|p| (p.locked, p.author.username.clone()));
        Some((uuid, locked, author))
    });
    // Focus the box when the address asks for it (a card's Reply link), also
    // when only the hash changed on this same page.
    let hash = leptos_router::hooks::use_location().hash;
    Effect::new(move |_| {
        let wanted = hash.get() == "#reply";
        let open = state.with(|s| s.as_ref().is_some_and(|(_, locked, _)| !locked));
        if wanted && open {
            request_animation_frame(|| {
                if let Some(field) = crate::browser::dom::by_id("reply-text") {
                    use wasm_bindgen::JsCast;
                    let _ = field.unchecked_into::<web_sys::HtmlElement>().focus();
                }
            });
        }
    });
    move || match state.get() {
        None => ().into_any(),
        Some((_, true, _)) => {
            view! { <p class="replies-off" id="reply">"🔒 " {t::replies_off_locked()}</p> }.into_any()
        }
        Some((uuid, false, author)) => {
            let label = t::reply_to_user(format!("@{author}"));
            view! {
                <section id="reply" class="reply-box" aria-label=label>
                    <crate::components::composer::Composer parent=uuid replying_to=author/>
                </section>
            }
            .into_any()
        }
    }
}
