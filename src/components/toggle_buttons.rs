//! The Like and Follow buttons: optimistic, one request at a time, folded
//! clicks, and on failure the server's state read back, since the server may
//! have toggled though its answer was lost (the state machine is
//! `store/toggle.rs`; what the owner likes and follows is the store's,
//! `store/relations.rs`). An action the token may not perform is disabled,
//! with the reason.

use crate::session::use_session;
use crate::store::toggle::{shown_count, Next, Toggle};
use crate::store::{learn_follow_from_owner_list, read_follow_back, read_like_back, use_store};
use crate::use_api;
use leptos::prelude::*;
use leptos::task::spawn_local;
use perch_model::{FollowAction, LikeAction, Operation, Subject};

/// Sends toggle requests until the toggle settles; `send` makes one request
/// and answers the state it left the server in; after a failure,
/// `read_back` asks the server what is true.
fn drive<F, Fut, B, BFut>(toggle: ArcRwSignal<Toggle>, error: RwSignal<Option<String>>, send: F, read_back: B)
where
    F: Fn() -> Fut + 'static,
    Fut: std::future::Future<Output = Result<bool, crate::api::ApiError>> + 'static,
    B: FnOnce() -> BFut + 'static,
    BFut: std::future::Future<Output = ()> + 'static,
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
                    let wanted = toggle.with_untracked(Toggle::shown);
                    toggle.update(Toggle::failed);
                    error.set(Some(e.explain()));
                    read_back().await;
                    // The server did what was asked; only its answer was lost.
                    if toggle.with_untracked(Toggle::shown) == wanted {
                        error.set(None);
                    }
                    break;
                }
            }
        }
    });
}

/// A click on a toggle button: flips it at once and, when a request is due,
/// sends `request` (which answers the state it left the server in) until
/// the toggle settles; `answered(was, now)` hears every answer.
fn on_click<R, Fut, A, B, BFut>(
    toggle: ArcRwSignal<Toggle>,
    error: RwSignal<Option<String>>,
    request: R,
    answered: A,
    read_back: B,
) -> impl Fn(leptos::ev::MouseEvent) + Clone + 'static
where
    R: Fn() -> Fut + Clone + 'static,
    Fut: std::future::Future<Output = Result<bool, crate::api::ApiError>> + 'static,
    A: Fn(bool, bool) + Clone + 'static,
    B: Fn() -> BFut + Clone + 'static,
    BFut: std::future::Future<Output = ()> + 'static,
{
    move |_| {
        error.set(None);
        if toggle.try_update(Toggle::click) != Some(Next::Send) {
            return;
        }
        let (settling, request, answered) = (toggle.clone(), request.clone(), answered.clone());
        drive(
            toggle.clone(),
            error,
            move || {
                let (toggle, request, answered) = (settling.clone(), request.clone(), answered.clone());
                async move {
                    let was = toggle.with_untracked(Toggle::server);
                    let now = request().await?;
                    answered(was, now);
                    Ok(now)
                }
            },
            read_back.clone(),
        );
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
        {
            let (store, uuid) = (store.clone(), uuid.clone());
            move |was, now| store.like_answered(&uuid, was, now)
        },
        {
            let (api, store) = (api.clone(), store.clone());
            move || {
                let (api, store, uuid) = (api.clone(), store.clone(), uuid.clone());
                async move { read_like_back(&api, &store, &uuid).await }
            }
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
        {
            let (store, uuid) = (store.clone(), uuid.clone());
            move |was, now| store.follow_answered(&uuid, was, now)
        },
        {
            let (api, store) = (api.clone(), store.clone());
            move || {
                let (api, store, uuid) = (api.clone(), store.clone(), uuid.clone());
                async move { read_follow_back(&api, &store, &uuid).await }
            }
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
