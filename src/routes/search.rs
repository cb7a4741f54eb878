//! `/search?q=…`: search over what this browser holds for the account
//! (`store/search/`): posts and people appear as the person types, newest
//! posts first, the matched words marked (as text, never markup); the
//! account's drafts too. It works offline and says what it searched. Only
//! an `@name` is asked of the server (once typing pauses), for a person
//! not read here, and Enter on an `@name` goes to that person: the app's
//! one search. Muted people and words stay out. `/` comes here from
//! anywhere. Its own split module, with the index.
//!
//! Words: later.

use crate::browser::navigation::{PageHeading, Title};
use crate::browser::web_storage::DraftContext;
use crate::components::later::{later, lazy, Meanwhile};
use crate::i18n::t;
use crate::nav::{while_shown, AppPath};
use crate::store::search::{self, index::Found, State};
use crate::store::use_store;
use crate::text::matching;
use leptos::prelude::*;
use leptos_router::components::A;
use perch_model::{Post, User};

/// How many posts are shown at first, and added by each Show more.
const PAGE: usize = 20;
/// How long typing pauses before an `@name` is asked of the server, in ms.
const PAUSE_MS: i64 = 400;

#[component]
pub fn SearchPage() -> impl IntoView {
    later(search_page::GROUP, search_page::load, search_page::draw, Meanwhile::Page)
}

lazy! { page_search, fn search_page() {
    let session = crate::account::session::use_session();
    view! {
        <Title text=move || t::title_page(t::search_title().get()).get()/>
        <main id="main" class="page search">
            <PageHeading text=t::search_title()/>
            {move || match session.user() {
                Some(user) => view! { <Search account=user.uuid/> }.into_any(),
                None => {
                    let href = crate::account::oauth::signin_href(&AppPath::Search.href());
                    view! { <p>{t::search_signed_out()} " " <A href=href>{t::sign_in()}</A></p> }.into_any()
                }
            }}
        </main>
    }
}}

/// What an `@name` looked up on the server came to.
#[derive(Clone, Debug, PartialEq)]
enum Lookup {
    Found(User),
    NoOne(String),
    Offline(String),
    Failed(crate::i18n::Text),
}

/// The box, what it searched, and what it found.
#[component]
fn Search(account: String) -> impl IntoView {
    let store = use_store();
    let navigate = leptos_router::hooks::use_navigate();
    let from_address = leptos_router::hooks::use_query_map().with_untracked(|q| q.get("q")).unwrap_or_default();
    let typed = RwSignal::new(from_address);
    let shown = RwSignal::new(PAGE);
    let state = RwSignal::new(State::Building(0));
    while_shown(search::build(store.clone(), state));
    let mutes = crate::store::mutes::use_mutes();
    let drafts = store.drafts();
    let found = Memo::new({
        let account = account.clone();
        move |_| {
            search::track();
            state.track();
            let muted = mutes.map(|m| m.get()).unwrap_or_default();
            let query = typed.get();
            search::with(&account, |index| index.search(&query, &muted, shown.get())).unwrap_or_default()
        }
    });
    let wanted = Memo::new(move |_| typed.with(|q| matching::words(q)));
    let drafts_found = Memo::new(move |_| {
        let wanted = wanted.get();
        drafts
            .iter()
            .filter(|(_, text, _)| {
                let words = matching::words(text);
                !wanted.is_empty() && wanted.iter().all(|w| words.contains(w))
            })
            .cloned()
            .collect::<Vec<_>>()
    });
    // An `@name` the browser does not know is asked of the server, once
    // typing pauses; a new letter forgets what the last one found.
    let lookup = RwSignal::new(None::<Lookup>);
    Effect::new({
        let store = store.clone();
        move |_| {
            let query = typed.get();
            lookup.set(None);
            let Some(name) = query.trim().strip_prefix('@').map(str::to_owned) else { return };
            let Ok(name) = crate::components::find_person::wanted_username(&name) else { return };
            if found.with_untracked(|f| f.people.iter().any(|u| u.username.eq_ignore_ascii_case(&name))) {
                return;
            }
            let store = store.clone();
            while_shown(async move {
                crate::browser::clock::sleep(PAUSE_MS).await;
                if typed.get_untracked() != query {
                    return;
                }
                if !window().navigator().on_line() {
                    return lookup.set(Some(Lookup::Offline(name)));
                }
                let answer = store.read_user(&format!("@{name}")).await;
                if typed.get_untracked() != query {
                    return;
                }
                lookup.set(Some(match answer {
                    Ok(uuid) => match store.user(&uuid) {
                        Some(user) => Lookup::Found(user.get_untracked()),
                        None => return,
                    },
                    Err(e) if e.is_not_found() => Lookup::NoOne(name),
                    Err(e) => Lookup::Failed(e.explain()),
                }));
            });
        }
    });
    // The address follows the box, so Back from a result comes here again.
    Effect::new(move |before: Option<String>| {
        let query = typed.get();
        if before.is_some_and(|b| b != query) {
            let href = if query.is_empty() {
                AppPath::Search.href()
            } else {
                format!("{}?q={}", AppPath::Search.href(), js_sys::encode_uri_component(&query))
            };
            navigate(&href, leptos_router::NavigateOptions { replace: true, scroll: false, ..Default::default() });
        }
        query
    });
    let people = Memo::new(move |_| {
        let mut people = found.with(|f| f.people.clone());
        if let Some(Lookup::Found(user)) = lookup.get() {
            if !people.iter().any(|u| u.uuid == user.uuid) {
                people.insert(0, user);
            }
        }
        people
    });
    // Enter on an `@name` goes to that person, unless the server said no
    // one has that name (the note says so, what was typed stays).
    let to_person = leptos_router::hooks::use_navigate();
    let go_to_person = move || {
        let query = typed.get_untracked();
        let Some(name) = query.trim().strip_prefix('@') else { return };
        let Ok(name) = crate::components::find_person::wanted_username(name) else { return };
        if matches!(lookup.get_untracked(), Some(Lookup::NoOne(ref no_one)) if no_one.eq_ignore_ascii_case(&name)) {
            return;
        }
        to_person(&AppPath::Profile(&name).href(), Default::default());
    };
    let input = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(input) = input.get() {
            let _ = input.focus();
        }
    });
    let searched = move || {
        let posts = match state.get() {
            State::Building(n) => return t::search_reading(n as u64).get(),
            State::Ready(n) => n as u64,
        };
        if wanted.with(Vec::is_empty) {
            t::search_will_search(posts).get()
        } else {
            format!("{} {}", t::search_found(found.with(|f| f.matched) as u64).get(), t::search_searched(posts).get())
        }
    };
    view! {
        <form role="search" class="search-form" on:submit=move |ev| { ev.prevent_default(); go_to_person(); }>
            <label for="search-box">{t::search_label()}</label>
            <input type="search" id="search-box" node_ref=input autocomplete="off" enterkeyhint="search"
                aria-describedby="search-status" dir="auto"
                prop:value=move || typed.get()
                on:input=move |ev| {
                    shown.set(PAGE);
                    typed.set(event_target_value(&ev));
                }/>
        </form>
        // `data-searched`: the query whose results are shown, once the index
        // is built; `data-index-bytes`: about what the index takes (both for
        // tests and `make bench-search`).
        <p id="search-status" class="note" role="status"
            data-searched=move || matches!(state.get(), State::Ready(_)).then(|| typed.get())
            data-index-bytes={
                let account = account.clone();
                move || matches!(state.get(), State::Ready(_)).then(|| search::with(&account, |i| i.bytes())).flatten()
            }>
            {searched}
        </p>
        {move || lookup.get().and_then(|l| match l {
            Lookup::Found(_) => None,
            Lookup::NoOne(name) => Some(t::find_no_one(format!("@{name}")).get()),
            Lookup::Offline(name) => Some(t::search_offline_lookup(format!("@{name}")).get()),
            Lookup::Failed(why) => Some(why.get()),
        }).map(|why| view! { <p class="lookup-note" role="status">{why}</p> })}
        <PeopleFound people/>
        <DraftsFound drafts=drafts_found wanted/>
        <PostsFound found wanted shown/>
    }
}

/// The people found, each a link to their profile.
#[component]
fn PeopleFound(people: Memo<Vec<User>>) -> impl IntoView {
    view! {
        <Show when=move || people.with(|p| !p.is_empty())>
            <section class="search-people" aria-labelledby="search-people-heading">
                <h2 id="search-people-heading">{t::search_people()}</h2>
                <ul class="people-found">
                    <For each=move || people.get() key=|u| u.uuid.clone() let:user>
                        <li>
                            <a href=AppPath::Profile(&user.username).href()>
                                <span class="name" dir="auto">{user.display_name.clone()}</span>
                                " "
                                <span class="handle">"@"{user.username.clone()}</span>
                            </a>
                        </li>
                    </For>
                </ul>
            </section>
        </Show>
    }
}

/// The account's drafts with every word, each with Continue.
#[component]
fn DraftsFound(drafts: Memo<Vec<(DraftContext, String, Option<u64>)>>, wanted: Memo<Vec<String>>) -> impl IntoView {
    let store = StoredValue::new_local(use_store());
    view! {
        <Show when=move || drafts.with(|d| !d.is_empty())>
            <section class="search-drafts" aria-labelledby="search-drafts-heading">
                <h2 id="search-drafts-heading">{t::drafts_title()}</h2>
                <ul class="results">
                    {move || drafts.get().into_iter().map(|(context, text, _)| {
                        let href = AppPath::continuing(&context).href();
                        view! {
                            <li class="result">
                                <p class="result-text" dir="auto"><Marked text wanted/></p>
                                <a href=href class="button" on:click=move |_| store.with_value(|s| s.continuing_draft(&context))>{t::draft_continue()}</a>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </section>
        </Show>
    }
}

/// The posts found, newest first, a page at a time.
#[component]
fn PostsFound(found: Memo<Found>, wanted: Memo<Vec<String>>, shown: RwSignal<usize>) -> impl IntoView {
    // A new search draws the first screen in the key's own task and the
    // rest a few a task after (`browser/pace.rs`): typing stays quick.
    let drawn = RwSignal::new(crate::browser::pace::FIRST_SCREEN);
    let round = StoredValue::new(0u64);
    Effect::new(move |_| {
        crate::reactive::depend_on(wanted);
        drawn.set(crate::browser::pace::FIRST_SCREEN);
    });
    Effect::new(move |_| {
        crate::reactive::depend_on(found);
        round.update_value(|r| *r += 1);
        let mine = round.get_value();
        while_shown(async move {
            loop {
                crate::browser::pace::yield_now().await;
                let (Some(now), Some(total)) = (drawn.try_get_untracked(), found.try_with_untracked(|f| f.posts.len()))
                else {
                    return;
                };
                if round.try_get_value() != Some(mine) || now >= total {
                    return;
                }
                drawn.set(now + crate::browser::pace::items_per_task());
            }
        });
    });
    let visible = move || found.with(|f| f.posts.iter().take(drawn.get()).cloned().collect::<Vec<_>>());
    view! {
        <Show when=move || found.with(|f| !f.posts.is_empty())>
            <section class="search-posts" aria-labelledby="search-posts-heading">
                <h2 id="search-posts-heading">{t::search_posts()}</h2>
                <ul class="results">
                    <For each=visible key=|p| (p.uuid.clone(), p.content.clone()) let:post>
                        <PostFound post wanted/>
                    </For>
                </ul>
                {move || found.with(|f| f.matched > f.posts.len()).then(|| view! {
                    <button type="button" class="secondary load-more" on:click=move |_| shown.update(|n| *n += PAGE)>
                        {t::load_more()}
                    </button>
                })}
            </section>
        </Show>
    }
}

/// One post found: who wrote it and when, and its text with the words
/// marked, a link to the post at its place in its thread.
#[component]
fn PostFound(post: Post, wanted: Memo<Vec<String>>) -> impl IntoView {
    let when = post.created_at.map(|at| {
        view! { <time datetime=at.to_rfc3339()>{move || crate::browser::clock::spoken(at, crate::browser::clock::now())}</time> }
    });
    let href = AppPath::Thread(&post.uuid).href();
    view! {
        <li class="result" data-uuid=post.uuid.clone()>
            <p class="result-who">
                <span class="name" dir="auto">{post.author.display_name.clone()}</span>
                " "
                <span class="handle">"@"{post.author.username.clone()}</span>
                " · "
                {when}
            </p>
            <a href=href class="result-text" dir="auto">
                <Marked text=post.content.clone() wanted/>
            </a>
        </li>
    }
}

/// `text` with the words of `wanted` marked: text nodes and `<mark>`s only.
#[component]
fn Marked(text: String, wanted: Memo<Vec<String>>) -> impl IntoView {
    move || {
        let mut parts = Vec::new();
        let mut from = 0;
        for at in wanted.with(|w| matching::found_in(&text, w)) {
            if at.start > from {
                parts.push(text[from..at.start].to_owned().into_any());
            }
            parts.push(view! { <mark>{text[at.clone()].to_owned()}</mark> }.into_any());
            from = at.end;
        }
        parts.push(text[from..].to_owned().into_any());
        parts
    }
}
