//! `/user/:id/followers` and `/user/:id/following`: the people on either
//! side of a user's follows, latest first, as cards linking to profiles.
//! A server may list people by uuid alone: their cards show the uuid as a
//! link until the store has read who they are.

use super::{use_list, use_user, ListPage};
use crate::browser::navigation::{PageHeading, Title};
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::states::{Empty, ErrorBox};
use crate::i18n::t;
use crate::nav::AppPath;
use crate::store::{use_store, ListKey};
use leptos::prelude::*;

#[derive(Clone, Copy, PartialEq)]
enum Which {
    Followers,
    Following,
}

#[component]
pub fn Followers() -> impl IntoView {
    user_list(Which::Followers)
}

#[component]
pub fn Following() -> impl IntoView {
    user_list(Which::Following)
}

/// The list page of either side, drawn by the split module `pages`.
fn user_list(which: Which) -> impl IntoView {
    later(user_list_page::GROUP, user_list_page::load, move || user_list_page::draw(which), Meanwhile::Page)
}

lazy! { pages, fn user_list_page(which: Which) {
    let id = crate::routes::param("id");
    let store = use_store();
    let (user, user_error, retry_user) = use_user(id);
    // The interface answers these lists whole: one request fills the list.
    let key = Memo::new(move |_| {
        user.with(|u| {
            u.as_ref().map(|u| match which {
                Which::Followers => ListKey::Followers(u.uuid.clone()),
                Which::Following => ListKey::Following(u.uuid.clone()),
            })
        })
    });
    let ListPage { list, load_more: load, .. } = use_list(id, key);
    // People the list names by uuid alone get their names from the server.
    Effect::new({
        let store = store.clone();
        move |_| {
            let Some(uuids) = list.with(|l| l.done.then(|| l.items.clone())) else { return };
            // Not cancelled by leaving the page: what is read stays in the store.
            store.resolve_users(&uuids);
        }
    });

    let heading = Signal::derive(move || {
        let who = user.get().map(|u| format!("@{}", u.username)).unwrap_or_else(|| id.get());
        match which {
            Which::Followers => t::followers_of(who).get(),
            Which::Following => t::followed_by(who).get(),
        }
    });
    view! {
        <Title text=move || t::title_page(heading.get()).get()/>
        <main id="main" class="page user-list">
            <PageHeading text=heading/>
            {move || user_error.get().map(|error| view! { <ErrorBox error retry=retry_user/> })}
            {move || list.with(|l| l.error.clone()).map(|error| view! { <ErrorBox error retry=load/> })}
            {move || list.with(|l| l.loading && l.items.is_empty()).then(|| view! { <p role="status">{t::loading()}</p> })}
            {move || list.with(|l| l.done && l.items.is_empty()).then(|| view! {
                <Empty text=if which == Which::Followers { t::no_followers_yet() } else { t::follows_nobody_yet() }/>
            })}
            <ul class="user-list">
                <For each=move || list.with(|l| l.items.clone()) key=|uuid| uuid.clone() let:uuid>
                    <li><UserCard uuid which/></li>
                </For>
            </ul>
        </main>
    }
}}

/// A person on either list: who they are, Follow, and on a Following list
/// "Add to list" (`components/add_to_list.rs`).
#[component]
fn UserCard(uuid: String, which: Which) -> impl IntoView {
    let store = use_store();
    let me = crate::account::session::use_session().user().map(|u| u.uuid);
    let id = uuid.clone();
    let present = Memo::new({
        let (store, id) = (store.clone(), id.clone());
        move |_| store.user(&id).is_some()
    });
    move || match present.get().then(|| store.user_now(&id)).flatten() {
        Some(user) => {
            let u = user.get_untracked();
            let name = u.shown_name().to_owned();
            view! {
                <div class="user-card">
                    <crate::components::avatar::Avatar src=u.avatar.clone() name=name.clone()/>
                    <div>
                        <a href=AppPath::Profile(&u.username).href() class="author">
                            <span class="display-name" dir="auto">{name}</span> " " <span class="handle">{format!("@{}", u.username)}</span>
                        </a>
                        {(!u.bio.is_empty()).then(|| view! { <p class="bio" dir="auto">{u.bio.clone()}</p> })}
                    </div>
                    <crate::components::toggle_buttons::FollowButton uuid=u.uuid.clone()/>
                    {(which == Which::Following && me.as_ref().is_some_and(|me| *me != u.uuid)).then(|| view! {
                        <crate::components::add_to_list::AddToList uuid=u.uuid.clone() username=u.username.clone()/>
                    })}
                </div>
            }.into_any()
        }
        None => {
            let id = id.clone();
            view! { <div class="user-card"><a href=AppPath::ProfileByUuid(&id).href()>{id.clone()}</a></div> }
                .into_any()
        }
    }
}
