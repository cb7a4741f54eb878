//! `/user/:id/followers` and `/user/:id/following`: the people on either
//! side of a user's follows, latest first, as cards linking to profiles.
//! A server may list people by uuid alone: their cards show the uuid as a
//! link until the store has read who they are.

use super::use_user;
use crate::components::states::{Empty, ErrorBox};
use crate::navigation::PageHeading;
use crate::store::{load_following, load_whole, use_store, ListKey};
use crate::use_api;
use leptos::prelude::*;
use leptos::task::spawn_local_scoped_with_cancellation;
use crate::navigation::Title;

#[derive(Clone, Copy, PartialEq)]
enum Which {
    Followers,
    Following,
}

#[component]
pub fn Followers() -> impl IntoView {
    view! { <UserList which=Which::Followers/> }
}

#[component]
pub fn Following() -> impl IntoView {
    view! { <UserList which=Which::Following/> }
}

#[component]
fn UserList(which: Which) -> impl IntoView {
    let id = super::param("id");
    let (api, store) = (use_api(), use_store());
    let (user, user_error, retry_user) = use_user(id);
    let key = move |uuid: String| match which {
        Which::Followers => ListKey::Followers(uuid),
        Which::Following => ListKey::Following(uuid),
    };
    let uuid = Memo::new(move |_| user.with(|u| u.as_ref().map(|u| u.uuid.clone())).unwrap_or_default());
    let list = Signal::derive({
        let store = store.clone();
        move || store.list(&key(uuid.get())).get()
    });
    // The interface answers these lists whole: one request fills the list.
    let load = Callback::new({
        let (api, store) = (api.clone(), store.clone());
        move |_| {
            let uuid = uuid.get_untracked();
            if uuid.is_empty() {
                return;
            }
            let list = store.list(&key(uuid.clone()));
            if list.with_untracked(|l| l.loading) {
                return;
            }
            let (api, store) = (api.clone(), store.clone());
            spawn_local_scoped_with_cancellation(async move {
                let _ = match which {
                    Which::Followers => {
                        let fetch = async { Ok(store.put_user_refs(api.followers(&uuid).await?.followers)) };
                        load_whole(list, fetch).await
                    }
                    Which::Following => load_following(&api, &store, &uuid).await,
                };
            });
        }
    });
    Effect::new({
        let store = store.clone();
        move |_| {
            let uuid = uuid.get();
            if !uuid.is_empty() && store.list(&key(uuid)).with_untracked(|l| l.pages_loaded == 0) {
                load.run(());
            }
        }
    });
    // People the list names by uuid alone get their names from the server.
    Effect::new({
        let (api, store) = (api.clone(), store.clone());
        move |_| {
            let Some(uuids) = list.with(|l| l.done.then(|| l.items.clone())) else { return };
            // Not cancelled by leaving the page: what is read stays in the store.
            store.resolve_users(&api, &uuids);
        }
    });

    let heading = Signal::derive(move || {
        let who = user.get().map(|u| format!("@{}", u.username)).unwrap_or_else(|| id.get());
        match which {
            Which::Followers => format!("Followers of {who}"),
            Which::Following => format!("Followed by {who}"),
        }
    });
    view! {
        <Title text=move || format!("{} · Perch", heading.get())/>
        <main id="main" class="page user-list">
            <PageHeading text=heading/>
            {move || user_error.get().map(|error| view! { <ErrorBox error retry=retry_user/> })}
            {move || list.with(|l| l.error.clone()).map(|error| view! { <ErrorBox error retry=load/> })}
            {move || list.with(|l| l.loading && l.items.is_empty()).then(|| view! { <p role="status">"Loading…"</p> })}
            {move || list.with(|l| l.done && l.items.is_empty()).then(|| view! {
                <Empty text=if which == Which::Followers { "Nobody follows this account yet." } else { "This account follows nobody yet." }/>
            })}
            <ul class="user-list">
                <For each=move || list.with(|l| l.items.clone()) key=|uuid| uuid.clone() let:uuid>
                    <li><UserCard uuid/></li>
                </For>
            </ul>
        </main>
    }
}

#[component]
fn UserCard(uuid: String) -> impl IntoView {
    let store = use_store();
    let id = uuid.clone();
    let present = Memo::new({
        let (store, id) = (store.clone(), id.clone());
        move |_| store.user(&id).is_some()
    });
    move || match present.get().then(|| store.user(&id)).flatten() {
        Some(user) => {
            let u = user.get_untracked();
            let name = u.shown_name().to_owned();
            view! {
                <div class="user-card">
                    <crate::components::avatar::Avatar src=u.avatar.clone() name=name.clone()/>
                    <div>
                        <a href=format!("/user/@{}", u.username) class="author">
                            <span class="display-name" dir="auto">{name}</span> " " <span class="handle">{format!("@{}", u.username)}</span>
                        </a>
                        {(!u.bio.is_empty()).then(|| view! { <p class="bio" dir="auto">{u.bio.clone()}</p> })}
                    </div>
                    <crate::components::toggle_buttons::FollowButton uuid=u.uuid.clone()/>
                </div>
            }.into_any()
        }
        None => {
            let id = id.clone();
            view! { <div class="user-card"><a href=format!("/user/{id}")>{id.clone()}</a></div> }.into_any()
        }
    }
}
