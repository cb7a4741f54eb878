//! The Like and Follow buttons: optimistic, one request at a time, folded
//! clicks, and back to the server's state on failure (the state machine is
//! `store/toggle.rs`; what the owner likes and follows is the store's,
//! `store/relations.rs`). An action the token may not perform is disabled,
//! with the reason.

use crate::session::use_session;
use crate::store::toggle::{shown_count, Next, Toggle};
use crate::store::{learn_follow_from_owner_list, use_store};
use crate::use_api;
use leptos::prelude::*;
use leptos::task::spawn_local;
use perch_model::{FollowAction, LikeAction, Operation, Subject};

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
    if session.user().is_none() {
        // Signed out: the count alone.
        let count = move || post.as_ref().map(|p| p.with(|p| p.like_count)).unwrap_or(0);
        return view! { <span>{move || { let n = count(); format!("{n} {}", if n == 1 { "like" } else { "likes" }) }}</span> }.into_any();
    }
    let toggle = store.like_toggle(&uuid);
    let error = RwSignal::new(None::<String>);
    let refused = move || session.refusal(Operation::LikePost, Subject::of(reply));
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
        move |was, now| store.like_answered(&uuid, was, now),
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
    let toggle = store.follow_toggle(&uuid);
    // Without the server's `followed`, the first state comes from the
    // owner's following list, loaded once for every button on the page.
    learn_follow_from_owner_list(&api, &store, &uuid);
    let error = RwSignal::new(None::<String>);
    let refused = move || session.refusal(Operation::FollowUser, Subject::Post);
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
        move |was, now| store.follow_answered(&uuid, was, now),
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
