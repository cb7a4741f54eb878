//! The Activity page (`/activity`): what happened to the account's posts
//! and followers, newest first, as the checks found it (`store/activity/`):
//! replies with the post they answer quoted, new followers grouped with
//! Follow back, likes counted per post, mentions. Opening it marks all
//! read, in every tab; what was new is marked for this visit. It shows what
//! was kept when the server cannot be reached, and when that was read.
//! Split out of the main module with its own group: no other page's first
//! load carries it.
//!
//! Words: later.

use crate::account::session::use_session;
use crate::browser::navigation::{PageHeading, Title};
use crate::components::avatar::Avatar;
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::post_content::PostContent;
use crate::components::states::AskToAllow;
use crate::components::time::Time;
use crate::components::toggle_buttons::FollowButton;
use crate::i18n::t;
use crate::nav::{while_shown, AppPath};
use crate::store::activity::{self, compare::excerpt, Item, Kept};
use crate::store::use_store;
use leptos::prelude::*;
use leptos_router::components::A;
use perch_model::{Parent, Post, Scope, Timestamp, User};

#[component]
pub fn ActivityPage() -> impl IntoView {
    later(activity_page::GROUP, activity_page::load, activity_page::draw, Meanwhile::Page)
}

lazy! { page_activity, fn activity_page() {
    let session = use_session();
    view! {
        <Title text=move || t::title_page(t::activity_title().get()).get()/>
        <main id="main" class="page activity">
            <PageHeading text=t::activity_title()/>
            {move || match session.user() {
                Some(me) => view! { <Activity me/> }.into_any(),
                None => {
                    let href = crate::account::oauth::signin_href(&AppPath::Activity.href());
                    view! { <p>{t::sign_in_to_read()} " " <A href=href>{t::sign_in()}</A></p> }.into_any()
                }
            }}
        </main>
    }
}}

/// The account's activity, kept and followed.
#[component]
fn Activity(me: User) -> impl IntoView {
    let unread = activity::use_unread();
    let account = me.uuid.clone();
    let (first, opened_before, _) = activity::mark_read(&account);
    unread.iter().for_each(|u| u.changed());
    let kept = RwSignal::new(first);
    // Whatever changes what is kept (a check here or in another tab) is
    // shown, and read at once while the page is on screen.
    let back = RwSignal::new(0u32);
    let handle = window_event_listener_untyped("visibilitychange", move |_| back.update(|n| *n += 1));
    on_cleanup(move || handle.remove());
    Effect::new({
        let account = account.clone();
        move |_| {
            back.track();
            if let Some(unread) = unread {
                unread.of(&account);
            }
            let now = if crate::browser::clock::visible() {
                let (now, _, changed) = activity::mark_read(&account);
                if changed {
                    unread.iter().for_each(|u| u.changed());
                }
                now
            } else {
                activity::kept(&account)
            };
            if kept.with_untracked(|k| k != &now) {
                kept.set(now);
            }
        }
    });
    // Muted people and words leave Activity too (`store/mutes.rs`).
    let mutes = crate::store::mutes::use_mutes();
    let items = Memo::new(move |_| {
        let muted = mutes.map(|m| m.get()).unwrap_or_default();
        kept.with(|k| activity::shown(&k.items, &muted))
    });
    view! {
        <p class="intro">{t::activity_intro()}</p>
        <CheckLine me=me.clone() kept/>
        {move || kept.with(|k| k.followers_refused).then(|| view! {
            <p class="note">{t::activity_followers_refused()} " " <AskToAllow missing=vec![Scope::UserFollowersGet]/></p>
        })}
        {move || {
            let (looked, empty) = kept.with(|k| (k.looked(), k.items.is_empty()));
            match (looked, empty) {
                (false, _) => Some(view! { <p class="empty">{t::activity_not_yet()}</p> }.into_any()),
                (true, true) if kept.with(|k| k.read_ms == k.since_ms) => {
                    Some(view! { <p class="empty">{t::activity_first_look()}</p> }.into_any())
                }
                (true, true) => Some(view! { <p class="empty">{t::activity_empty()}</p> }.into_any()),
                _ => None,
            }
        }}
        <ol class="activity-list" aria-label=t::activity_list()>
            <For each=move || items.get() key=Item::id let:item>
                <ActivityItem fresh={item.noticed_ms() > opened_before} item/>
            </For>
        </ol>
    }
}

/// When the activity was last read, and Check now.
#[component]
fn CheckLine(me: User, kept: RwSignal<Kept>) -> impl IntoView {
    let (store, session, unread) = (use_store(), use_session(), activity::use_unread());
    let checking = RwSignal::new(false);
    let failed = RwSignal::new(None::<String>);
    let check = move |_| {
        if checking.get_untracked() {
            return;
        }
        checking.set(true);
        failed.set(None);
        let (store, me) = (store.clone(), me.clone());
        let scopes = session.scopes();
        while_shown(async move {
            let done = store.check_activity(&me, &scopes, 0, true).await;
            checking.set(false);
            match done {
                Ok(_) => {
                    let (now, _, _) = activity::mark_read(&me.uuid);
                    kept.set(now);
                    unread.iter().for_each(|u| u.changed());
                }
                Err(e) => failed.set(Some(e.explain().get())),
            }
        });
    };
    view! {
        <div class="check-line">
            {move || {
                let read = kept.with(|k| k.read_ms);
                (read > 0).then(|| view! {
                    <span>{t::activity_last_checked()} " " <Time at=Some(Timestamp(read))/></span>
                })
            }}
            <button type="button" class="secondary" aria-busy=move || checking.get().to_string() on:click=check>
                {move || if checking.get() { t::activity_checking().get() } else { t::activity_check_now().get() }}
            </button>
            {move || failed.get().map(|why| view! { <p class="error" role="alert">{t::activity_could_not_check(why)}</p> })}
        </div>
    }
}

/// One activity. `fresh`: noticed since the page was last opened.
#[component]
fn ActivityItem(item: Item, fresh: bool) -> impl IntoView {
    let new_mark = fresh.then(|| view! { <span class="new-mark">{t::activity_new()}</span> });
    let body = match item {
        Item::Reply { reply, .. } => {
            let said = t::activity_replied(reply.author.shown_name().to_owned());
            view! {
                <p class="what"><Who user=reply.author.clone() face_only=true/> " " {said}</p>
                {quote_of(&reply)}
                <Said post=reply/>
            }
            .into_any()
        }
        Item::Mention { post, .. } => {
            let said = t::activity_mentioned(post.author.shown_name().to_owned());
            view! {
                <p class="what"><Who user=post.author.clone() face_only=true/> " " {said}</p>
                <Said post/>
            }
            .into_any()
        }
        Item::Liked { post, excerpt, more, .. } => view! {
            <p class="what">{t::activity_liked(more)}</p>
            <blockquote class="quote" dir="auto"><A href=AppPath::Thread(&post).href()>{excerpt}</A></blockquote>
        }
        .into_any(),
        Item::Followed { users, .. } => {
            let first = users.first().map(shown).unwrap_or_default();
            let said = match users.len() {
                0 | 1 => t::activity_followed_you(first),
                n => t::activity_followed((n - 1) as u64, first),
            };
            view! {
                <p class="what">{said}</p>
                <ul class="followers">
                    {users.into_iter().map(|u| view! {
                        <li><Who user=u.clone()/> <FollowButton uuid=u.uuid.clone() back=true/></li>
                    }).collect_view()}
                </ul>
            }
            .into_any()
        }
    };
    view! {
        <li class="activity-item" class:unread=fresh>
            {new_mark}
            {body}
        </li>
    }
}

/// A person's name (or uuid when only that is known).
fn shown(user: &User) -> String {
    if user.username.is_empty() {
        user.uuid.clone()
    } else {
        user.shown_name().to_owned()
    }
}

/// A person's avatar and name, linked to their profile; `face_only`: the
/// avatar alone (the sentence beside it names the person).
#[component]
fn Who(user: User, #[prop(optional)] face_only: bool) -> impl IntoView {
    let name = shown(&user);
    let href = if user.username.is_empty() {
        AppPath::ProfileByUuid(&user.uuid).href()
    } else {
        AppPath::Profile(&user.username).href()
    };
    view! {
        <A href=href attr:class="who">
            <Avatar src=user.avatar.clone() name=name.clone()/>
            {(!face_only).then(|| view! { <strong dir="auto">{name}</strong> })}
        </A>
    }
}

/// The post a reply answers, in one line.
fn quote_of(reply: &Post) -> Option<impl IntoView> {
    let Parent::Post(parent) = &reply.parent else { return None };
    let href = AppPath::Thread(&parent.uuid).href();
    let line = excerpt(&parent.content);
    Some(view! { <blockquote class="quote" dir="auto"><A href=href>{line}</A></blockquote> })
}

/// What someone wrote, as text, with when and a link to it in its thread.
#[component]
fn Said(post: Post) -> impl IntoView {
    let href = AppPath::Thread(&post.uuid).href();
    view! {
        <p class="said" dir="auto"><PostContent content=post.content.clone()/></p>
        <p class="meta"><Time at=post.created_at/> " · " <A href=href>{t::activity_open()}</A></p>
    }
}
