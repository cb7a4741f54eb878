//! The Like and Follow buttons: optimistic, one request at a time, folded
//! clicks, and back to the server's state on failure (see `toggle.rs`).
//! An action the token may not perform is disabled, with the reason.

use crate::known::{self, Kind};
use crate::session::use_session;
use crate::store::use_store;
use crate::toggle::{shown_count, Next, Toggle};
use crate::use_api;
use leptos::prelude::*;
use leptos::task::spawn_local;
use perch_model::{FollowAction, LikeAction, Operation, Scope, Subject};

/// The reason an operation is not offered, naming the missing scopes.
fn refusal(op: Operation, subject: Subject, held: &[Scope]) -> Option<String> {
    let missing = op.missing(subject, held);
    (!missing.is_empty()).then(|| format!("Your sign-in does not allow this (it lacks {}).", Scope::join(&missing)))
}

/// Sends toggle requests until the toggle settles; `send` makes one request
/// and answers the state it left the server in.
fn drive<F, Fut>(toggle: ArcRwSignal<Toggle>, error: RwSignal<Option<String>>, send: F)
where
    F: Fn() -> Fut + 'static,
    Fut: std::future::Future<Output = Result<bool, crate::api::ApiError>> + 'static,
{
    spawn_local(async move {
        loop {
            match send().await {
                Ok(now) => {
                    if toggle.try_update(|t| t.answered(now)) != Some(Next::Send) {
                        break;
                    }
                }
                Err(e) => {
                    toggle.update(Toggle::failed);
                    error.set(Some(e.explain()));
                    break;
                }
            }
        }
    });
}

/// A click on a toggle button: flips it at once and, when a request is due,
/// sends `request` (which answers the state it left the server in) until
/// the toggle settles; `answered(was, now)` hears every answer.
fn on_click<R, Fut, A>(
    toggle: ArcRwSignal<Toggle>,
    error: RwSignal<Option<String>>,
    request: R,
    answered: A,
) -> impl Fn(leptos::ev::MouseEvent) + Clone + 'static
where
    R: Fn() -> Fut + Clone + 'static,
    Fut: std::future::Future<Output = Result<bool, crate::api::ApiError>> + 'static,
    A: Fn(bool, bool) + Clone + 'static,
{
    move |_| {
        error.set(None);
        if toggle.try_update(Toggle::click) != Some(Next::Send) {
            return;
        }
        let (settling, request, answered) = (toggle.clone(), request.clone(), answered.clone());
        drive(toggle.clone(), error, move || {
            let (toggle, request, answered) = (settling.clone(), request.clone(), answered.clone());
            async move {
                let was = toggle.with_untracked(Toggle::server);
                let now = request().await?;
                answered(was, now);
                Ok(now)
            }
        });
    }
}

#[component]
pub fn LikeButton(uuid: String, reply: bool) -> impl IntoView {
    let (session, store, api) = (use_session(), use_store(), use_api());
    let post = store.post(&uuid);
    let Some(me) = session.user().map(|u| u.uuid) else {
        // Signed out: the count alone.
        let count = move || post.as_ref().map(|p| p.with(|p| p.like_count)).unwrap_or(0);
        return view! { <span>{move || { let n = count(); format!("{n} {}", if n == 1 { "like" } else { "likes" }) }}</span> }.into_any();
    };
    let server_liked = post.as_ref().and_then(|p| p.with_untracked(|p| p.liked));
    let first = server_liked.or_else(|| known::recall(&me, Kind::Like, &uuid)).unwrap_or(false);
    let toggle = store.toggle(&format!("like:{uuid}"), first);
    if let Some(liked) = server_liked {
        toggle.update(|t| t.learn(liked));
    }
    let error = RwSignal::new(None::<String>);
    let refused = move || refusal(Operation::LikePost, Subject::of(reply), &session.scopes());
    let count = {
        let (toggle, post) = (toggle.clone(), post.clone());
        move || shown_count(post.as_ref().map(|p| p.with(|p| p.like_count)).unwrap_or(0), &toggle.get())
    };
    let click = on_click(
        toggle.clone(),
        error,
        {
            let (api, uuid) = (api.clone(), uuid.clone());
            move || {
                let (api, uuid) = (api.clone(), uuid.clone());
                async move { Ok(api.like(&uuid).await?.action == LikeAction::Liked) }
            }
        },
        move |was, now| {
            if now != was {
                if let Some(post) = store.post(&uuid) {
                    post.update(|p| {
                        p.like_count = if now { p.like_count + 1 } else { p.like_count.saturating_sub(1) };
                        p.liked = Some(now);
                    });
                }
            }
            known::remember(&me, Kind::Like, &uuid, now);
        },
    );
    let pressed = {
        let toggle = toggle.clone();
        move || toggle.with(Toggle::shown)
    };
    view! {
        <button type="button" class="toggle like" aria-pressed=move || pressed().to_string()
            disabled=move || refused().is_some() title=refused on:click=click>
            <span aria-hidden="true">{let p = pressed.clone(); move || if p() { "♥ " } else { "♡ " }}</span>
            "Like " <span class="count">{count}</span>
        </button>
        {move || error.get().map(|e| view! { <span class="toggle-error" role="alert">{format!("Could not change the like: {e}")}</span> })}
    }
    .into_any()
}

#[component]
pub fn FollowButton(uuid: String) -> impl IntoView {
    let (session, store, api) = (use_session(), use_store(), use_api());
    let Some(me) = session.user().map(|u| u.uuid) else {
        return ().into_any();
    };
    if me == uuid {
        return ().into_any();
    }
    let user = store.user(&uuid);
    let server_followed = user.as_ref().and_then(|u| u.with_untracked(|u| u.followed));
    let remembered = known::recall(&me, Kind::Follow, &uuid);
    let toggle = store.toggle(&format!("follow:{uuid}"), server_followed.or(remembered).unwrap_or(false));
    if let Some(followed) = server_followed {
        toggle.update(|t| t.learn(followed));
    } else if remembered.is_none() {
        // The first state comes from the signed-in user's following list,
        // fetched once for every button on the page, kept in the store.
        let list = store.list(&format!("following:{me}"));
        if list.with_untracked(|l| !l.loading && l.pages_loaded == 0) {
            list.update(|l| l.loading = true);
            let (api, store, list, me) = (api.clone(), store.clone(), list.clone(), me.clone());
            spawn_local(async move {
                let result = api.following(&me).await;
                list.update(|l| {
                    l.loading = false;
                    match result {
                        Ok(following) => {
                            l.items = store.put_user_refs(following.following);
                            l.pages_loaded = 1;
                            l.done = true;
                        }
                        Err(e) => l.error = Some(e),
                    }
                });
            });
        }
        let (toggle, me, uuid) = (toggle.clone(), me.clone(), uuid.clone());
        Effect::new(move |_| {
            if let Some(follows) = list.with(|l| (l.pages_loaded > 0).then(|| l.items.contains(&uuid))) {
                known::remember(&me, Kind::Follow, &uuid, follows);
                toggle.update(|t| t.learn(follows));
            }
        });
    }
    let error = RwSignal::new(None::<String>);
    let home = crate::home::use_home();
    let refused = move || refusal(Operation::FollowUser, Subject::Post, &session.scopes());
    let click = on_click(
        toggle.clone(),
        error,
        {
            let (api, uuid) = (api.clone(), uuid.clone());
            move || {
                let (api, uuid) = (api.clone(), uuid.clone());
                async move { Ok(api.follow(&uuid).await?.action == FollowAction::Followed) }
            }
        },
        move |was, now| {
            if now != was {
                if let Some(user) = store.user(&uuid) {
                    user.update(|u| {
                        u.follow_count = if now { u.follow_count + 1 } else { u.follow_count.saturating_sub(1) };
                        u.followed = Some(now);
                    });
                }
                if let Some(home) = &home {
                    home.follow_changed(&uuid, now);
                }
            }
            known::remember(&me, Kind::Follow, &uuid, now);
        },
    );
    let pressed = {
        let toggle = toggle.clone();
        move || toggle.with(Toggle::shown)
    };
    view! {
        <button type="button" class="toggle follow" aria-pressed=move || pressed().to_string()
            disabled=move || refused().is_some() title=refused on:click=click>
            {let p = pressed.clone(); move || if p() { "Following" } else { "Follow" }}
        </button>
        {move || error.get().map(|e| view! { <span class="toggle-error" role="alert">{format!("Could not change the follow: {e}")}</span> })}
    }
    .into_any()
}
