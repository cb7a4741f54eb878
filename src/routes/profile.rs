//! `/user/@:username` and `/user/:uuid` (which moves to the `@name`
//! address): a profile and the user's posts, newest first. Opened again,
//! it is shown from the store and read again.

use super::{use_list, use_user, ListPage};
use crate::account::session::use_session;
use crate::browser::navigation::{PageHeading, Title};
use crate::components::feed::Feed;
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::states::ErrorBox;
use crate::components::time::Time;
use crate::i18n::t;
use crate::nav::AppPath;
use crate::store::{use_store, ListKey};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

#[component]
pub fn Profile() -> impl IntoView {
    // The page's data(): its first read goes while its code downloads.
    crate::store::use_store().read_user_early(&crate::routes::param("id").get_untracked());
    later(profile_page::GROUP, profile_page::load, profile_page::draw, Meanwhile::Page)
}

lazy! { pages, fn profile_page() {
    let id = crate::routes::param("id");
    let navigate = use_navigate();
    let (user, error, retry) = use_user(id);

    // A uuid address moves to the @name address once the name is known.
    Effect::new(move |_| {
        if let Some(u) = user.get() {
            if !id.get().starts_with('@') {
                navigate(
                    &AppPath::Profile(&u.username).href(),
                    NavigateOptions { replace: true, ..Default::default() },
                );
            }
        }
    });

    let uuid = Memo::new(move |_| user.with(|u| u.as_ref().map(|u| u.uuid.clone())).unwrap_or_default());
    // The user's posts, newest first: from the store and read again (the
    // profile's counts and bio too), or read.
    let key = Memo::new(move |_| uuid.with(|u| (!u.is_empty()).then(|| ListKey::Posts(u.clone()))));
    let ListPage { list, load_more, show_new, returning } = use_list(id, key);

    let title = move || match user.get() {
        Some(u) => t::title_profile_of(u.shown_name(), format!("@{}", u.username)).get(),
        None => t::title_profile().get(),
    };
    view! {
        <Title text=title/>
        <main id="main" class="page profile">
            {move || match (uuid.with(|u| (!u.is_empty()).then(|| u.clone())), error.get()) {
                (Some(uuid), _) => view! {
                    <ProfileHeader uuid/>
                    <section aria-labelledby="posts-heading">
                        <h2 id="posts-heading">{t::posts()}</h2>
                        <Feed list load_more label=t::posts() empty=t::no_posts_yet()
                            show_fresh=show_new show_fresh_label=t::show_new_posts newest_first=true
                            all_at_once=returning.get_untracked()/>
                    </section>
                }.into_any(),
                (None, Some(e)) if e.is_not_found() => view! {
                    <PageHeading text=t::user_not_found()/>
                    <p>{t::no_such_user(id.get())}</p>
                    <p><A href=AppPath::Home.href()>{t::go_home()}</A></p>
                }.into_any(),
                (None, Some(e)) => view! {
                    <PageHeading text=t::nav_profile()/>
                    <ErrorBox error=e retry/>
                }.into_any(),
                (None, None) => view! {
                    <PageHeading text=t::nav_profile()/>
                    <div class="profile-skeleton skeleton" aria-hidden="true">
                        <div class="skeleton-line short"></div><div class="skeleton-line"></div>
                    </div>
                    <p class="visually-hidden" role="status">{t::loading_profile()}</p>
                }.into_any(),
            }}
        </main>
    }
}}

/// The profile's header. Every field follows the user's signal, so what
/// reading again brings (a new bio, name, avatar, counts) shows at once.
#[component]
fn ProfileHeader(uuid: String) -> impl IntoView {
    let (session, store) = (use_session(), use_store());
    let Some(user) = store.user(&uuid) else { return ().into_any() };
    let field = {
        let user = user.clone();
        move |f: fn(&perch_model::User) -> String| {
            let user = user.clone();
            move || user.with(f)
        }
    };
    let name = field(|u| u.shown_name().to_owned());
    let username = field(|u| u.username.clone());
    let bio = field(|u| u.bio.clone());
    let avatar = {
        let user = user.clone();
        move || user.with(|u| u.avatar.clone())
    };
    let badges = {
        let user = user.clone();
        move || user.with(|u| u.badge.iter().map(|b| b.0.clone()).collect::<Vec<_>>())
    };
    let joined = user.with_untracked(|u| u.joined);
    let own = session.user().filter(|me| me.uuid == uuid);
    let toggle = store.follow(&uuid);
    let followers = {
        let user = user.clone();
        move || crate::store::toggle::shown_count(user.with(|u| u.follow_count), &toggle.get())
    };
    let following = {
        let user = user.clone();
        move || user.with(|u| u.following_count)
    };
    let followers_href = {
        let username = username.clone();
        move || AppPath::Followers(&username()).href()
    };
    let following_href = {
        let username = username.clone();
        move || AppPath::Following(&username()).href()
    };
    view! {
        <header class="profile-header">
            {let (avatar, name) = (avatar.clone(), name.clone()); move || view! {
                <crate::components::avatar::Avatar src=avatar() name=name() large=true/>
            }}
            <div>
                <PageHeading text=Signal::derive(name.clone())/>
                <p class="handle">{let u = username.clone(); move || format!("@{}", u())}</p>
                {move || {
                    let badges = badges();
                    (!badges.is_empty()).then(|| view! {
                        <ul class="badges" aria-label=t::badges()>
                            {badges.into_iter().map(|b| view! { <li class="badge" dir="auto">{b}</li> }).collect_view()}
                        </ul>
                    })
                }}
            </div>
        </header>
        {move || { let bio = bio(); (!bio.is_empty()).then(|| view! { <p class="bio" dir="auto">{bio}</p> }) }}
        <p class="joined">{t::joined()} " " <Time at=joined/></p>
        <p class="counts">
            <A href=followers_href><strong>{let f = followers.clone(); move || crate::i18n::number(f())}</strong>" "{move || t::followers_word(followers()).get()}</A>
            " · "
            <A href=following_href><strong>{let f = following.clone(); move || crate::i18n::number(f())}</strong>" "{move || t::following_word(following()).get()}</A>
        </p>
        <div class="profile-actions">
            <crate::components::toggle_buttons::FollowButton uuid=uuid.clone()/>
            {(own.is_none() && session.is_signed_in()).then(|| {
                let u = user.get_untracked();
                view! {
                    <MuteButton user=u.clone()/>
                    <crate::components::add_to_list::AddToList uuid=u.uuid username=u.username/>
                }
            })}
        </div>
        {own.and_then(|me| me.email.flatten().map(|email| (email, me.email_verified.flatten()))).map(|(email, verified)| view! {
            <p class="email">{t::email()} " " <span dir="auto">{email}</span> " " <span class="verified">{match verified { Some(true) => Some(t::verified().signal()), Some(false) => Some(t::not_verified().signal()), None => None }}</span></p>
        })}
    }
    .into_any()
}

/// Mute or unmute the person (kept in this browser, `store/mutes.rs`).
#[component]
fn MuteButton(user: perch_model::User) -> impl IntoView {
    let Some(mutes) = crate::store::mutes::use_mutes() else { return ().into_any() };
    let handle = format!("@{}", user.username);
    let muted = {
        let uuid = user.uuid.clone();
        Memo::new(move |_| mutes.get().mutes_person(&uuid))
    };
    let click = move |_| {
        if muted.get_untracked() {
            mutes.unmute_person(&user.uuid);
        } else {
            mutes.mute_person(&user);
        }
    };
    view! {
        <button type="button" class="secondary" aria-pressed=move || muted.get().to_string() on:click=click>
            {move || if muted.get() { t::unmute_user(handle.clone()).get() } else { t::mute_user(handle.clone()).get() }}
        </button>
        {move || muted.get().then(|| view! { <p class="note" role="status">{t::muted_here_only()}</p> })}
    }
    .into_any()
}
