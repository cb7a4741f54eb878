//! `/user/@:username` and `/user/:uuid` (which moves to the `@name`
//! address): a profile and the user's posts, newest first. Opened again,
//! it is shown from the store and read again.

use super::use_user;
use crate::components::feed::Feed;
use crate::components::post_card::Time;
use crate::components::states::ErrorBox;
use crate::clock::read_again_when_back;
use crate::navigation::{restore_scroll, take_returning, PageHeading};
use crate::session::use_session;
use crate::store::{check_start, load_next, show_waiting, use_store, ListKey};
use crate::use_api;
use leptos::prelude::*;
use leptos::task::spawn_local_scoped_with_cancellation;
use crate::navigation::Title;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

#[component]
pub fn Profile() -> impl IntoView {
    let id = super::param("id");
    let (api, store, navigate) = (use_api(), use_store(), use_navigate());
    let (user, error, retry) = use_user(id);
    let returning = take_returning();

    // A uuid address moves to the @name address once the name is known.
    Effect::new(move |_| {
        if let Some(u) = user.get() {
            if !id.get().starts_with('@') {
                navigate(&format!("/user/@{}", u.username), NavigateOptions { replace: true, ..Default::default() });
            }
        }
    });

    let uuid = Memo::new(move |_| user.with(|u| u.as_ref().map(|u| u.uuid.clone())).unwrap_or_default());
    let list = Signal::derive({
        let store = store.clone();
        move || store.list(&ListKey::Posts(uuid.get())).get()
    });
    let load_more = Callback::new({
        let (api, store) = (api.clone(), store.clone());
        move |_| {
            let uuid = uuid.get_untracked();
            if uuid.is_empty() {
                return;
            }
            let list = store.list(&ListKey::Posts(uuid.clone()));
            let (api, store) = (api.clone(), store.clone());
            spawn_local_scoped_with_cancellation(load_next(list, move |page| async move {
                let page = api.user_posts(&uuid, page).await?;
                Ok(page.posts.into_iter().map(|p| store.put_post(p)).collect())
            }));
        }
    });
    // Opened again: shown from the store, then read again (the profile's
    // counts and bio; posts added since wait behind "Show N new posts").
    let revalidate = Callback::new({
        let (api, store) = (api.clone(), store.clone());
        move |_: ()| {
            let uuid = uuid.get_untracked();
            if uuid.is_empty() {
                return;
            }
            // The user and the first page of posts are read at once: the
            // uuid is known, so neither waits for the other.
            spawn_local_scoped_with_cancellation({
                let (api, store, uuid) = (api.clone(), store.clone(), uuid.clone());
                async move {
                    if let Ok(user) = api.user(&uuid).await {
                        store.put_user(user);
                    }
                }
            });
            let (api, store) = (api.clone(), store.clone());
            spawn_local_scoped_with_cancellation(check_start(
                store.list(&ListKey::Posts(uuid.clone())),
                move |page| async move {
                    let page = api.user_posts(&uuid, page).await?;
                    Ok(page.posts.into_iter().map(|p| store.put_post(p)).collect())
                },
            ));
        }
    });
    Effect::new({
        let store = store.clone();
        move |_| {
            let uuid = uuid.get();
            if uuid.is_empty() {
                return;
            }
            if store.list(&ListKey::Posts(uuid)).with_untracked(|l| l.pages_loaded > 0) {
                if returning {
                    restore_scroll(&store);
                }
                revalidate.run(());
            } else {
                load_more.run(());
            }
        }
    });
    read_again_when_back(revalidate);
    let show_new = Callback::new({
        let store = store.clone();
        move |_: ()| show_waiting(&store.list(&ListKey::Posts(uuid.get_untracked())), true)
    });

    let title =
        move || user.get().map(|u| format!("{} (@{})", u.shown_name(), u.username)).unwrap_or_else(|| "Profile".into());
    view! {
        <Title text=move || format!("{} · Perch", title())/>
        <main id="main" class="page profile">
            {move || match (uuid.with(|u| (!u.is_empty()).then(|| u.clone())), error.get()) {
                (Some(uuid), _) => view! {
                    <ProfileHeader uuid/>
                    <section aria-labelledby="posts-heading">
                        <h2 id="posts-heading">"Posts"</h2>
                        <Feed list load_more label="Posts" empty="No posts yet."
                            show_waiting=show_new waiting_one="post" waiting_many="posts" newest_first=true/>
                    </section>
                }.into_any(),
                (None, Some(e)) if e.is_not_found() => view! {
                    <PageHeading text="User not found"/>
                    <p>{format!("There is no user {} on this server.", id.get())}</p>
                    <p><A href="/">"Go to your home timeline"</A></p>
                }.into_any(),
                (None, Some(e)) => view! {
                    <PageHeading text="Profile"/>
                    <ErrorBox error=e retry/>
                }.into_any(),
                (None, None) => view! {
                    <PageHeading text="Profile"/>
                    <div class="profile-skeleton skeleton" aria-hidden="true">
                        <div class="skeleton-line short"></div><div class="skeleton-line"></div>
                    </div>
                    <p class="visually-hidden" role="status">"Loading the profile…"</p>
                }.into_any(),
            }}
        </main>
    }
}

#[component]
fn ProfileHeader(uuid: String) -> impl IntoView {
    let (session, store) = (use_session(), use_store());
    let Some(signal) = store.user(&uuid) else { return ().into_any() };
    let user = signal.get_untracked();
    let own = session.user().filter(|me| me.uuid == user.uuid);
    let at = format!("@{}", user.username);
    let toggle = store.follow_toggle(&uuid);
    let (followers_signal, following_signal) = (signal.clone(), signal.clone());
    let followers = move || crate::store::toggle::shown_count(followers_signal.with(|u| u.follow_count), &toggle.get());
    let following = move || following_signal.with(|u| u.following_count);
    view! {
        <header class="profile-header">
            <crate::components::avatar::Avatar src=user.avatar.clone() name=user.shown_name().to_owned() large=true/>
            <div>
                <PageHeading text=user.shown_name().to_owned()/>
                <p class="handle">{at.clone()}</p>
                {(!user.badge.is_empty()).then(|| view! {
                    <ul class="badges" aria-label="Badges">
                        {user.badge.iter().map(|b| view! { <li class="badge">{b.0.clone()}</li> }).collect_view()}
                    </ul>
                })}
            </div>
        </header>
        {(!user.bio.is_empty()).then(|| view! { <p class="bio" dir="auto">{user.bio.clone()}</p> })}
        <p class="joined">"Joined " <Time at=user.joined/></p>
        <p class="counts">
            <A href=format!("/user/{at}/followers")><strong>{followers.clone()}</strong>{move || if followers() == 1 { " follower" } else { " followers" }}</A>
            " · "
            <A href=format!("/user/{at}/following")><strong>{following}</strong>" following"</A>
        </p>
        <crate::components::toggle_buttons::FollowButton uuid=uuid.clone()/>
        {own.and_then(|me| me.email.flatten().map(|email| (email, me.email_verified.flatten()))).map(|(email, verified)| view! {
            <p class="email">"Email: " {email} " " <span class="verified">{match verified { Some(true) => "(verified)", Some(false) => "(not verified)", None => "" }}</span></p>
        })}
    }
    .into_any()
}
