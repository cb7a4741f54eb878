//! The Like and Follow buttons: optimistic, one request at a time, folded
//! clicks, and on failure the server's state read back, since the server may
//! have toggled though its answer was lost (the state machine is
//! `store/toggle.rs`; what the owner likes and follows is the store's,
//! `store/relations.rs`). An action the token may not perform is disabled,
//! with the reason.

use crate::api::{Api, ApiError};
use crate::session::use_session;
use crate::store::toggle::{shown_count, Next, Toggle};
use crate::store::{learn_follow_from_owner_list, read_follow_back, read_like_back, use_store, Store};
use crate::use_api;
use super::states::RefusalNote;
use leptos::prelude::*;
use leptos::task::spawn_local;
use perch_model::{FollowAction, LikeAction, Operation, Subject};

/// Which toggle a button drives, and on what.
#[derive(Clone)]
struct Target {
    kind: Kind,
    uuid: String,
    api: Api,
    store: Store,
}

#[derive(Clone, Copy)]
enum Kind {
    Like,
    Follow,
}

impl Target {
    /// One toggle request; answers the state it left the server in.
    async fn send(&self) -> Result<bool, ApiError> {
        Ok(match self.kind {
            Kind::Like => self.api.like(&self.uuid).await?.action == LikeAction::Liked,
            Kind::Follow => self.api.follow(&self.uuid).await?.action == FollowAction::Followed,
        })
    }

    /// The store hears every answer: the server went from `was` to `now`.
    fn answered(&self, was: bool, now: bool) {
        match self.kind {
            Kind::Like => self.store.like_answered(&self.uuid, was, now),
            Kind::Follow => self.store.follow_answered(&self.uuid, was, now),
        }
    }

    /// After a failure: asks the server what is true.
    async fn read_back(&self) {
        match self.kind {
            Kind::Like => read_like_back(&self.api, &self.store, &self.uuid).await,
            Kind::Follow => read_follow_back(&self.api, &self.store, &self.uuid).await,
        }
    }
}

/// Sends toggle requests until the toggle settles; after a failure, reads
/// the server's state back.
fn drive(target: Target, toggle: ArcRwSignal<Toggle>, error: RwSignal<Option<String>>) {
    spawn_local(async move {
        loop {
            let was = toggle.with_untracked(Toggle::server);
            match target.send().await {
                Ok(now) => {
                    target.answered(was, now);
                    if toggle.try_update(|t| t.answered(now)) != Some(Next::Send) {
                        break;
                    }
                }
                Err(e) => {
                    let wanted = toggle.with_untracked(Toggle::shown);
                    toggle.update(Toggle::failed);
                    error.set(Some(e.explain()));
                    target.read_back().await;
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
/// drives the toggle until it settles.
/// A click handler that, while the sign-in does not allow the action, says
/// why (the returned note) instead of acting.
pub(crate) fn refusable<E>(
    refused: impl Fn() -> Option<String> + Clone + 'static,
    act: impl Fn(E) + Clone + 'static,
) -> (impl Fn(E) + Clone + 'static, RwSignal<Option<String>>) {
    let note = RwSignal::new(None);
    let click = move |ev: E| match refused() {
        Some(reason) => note.set(Some(reason)),
        None => {
            note.set(None);
            act(ev)
        }
    };
    (click, note)
}

fn on_click(
    target: Target,
    toggle: ArcRwSignal<Toggle>,
    error: RwSignal<Option<String>>,
) -> impl Fn(leptos::ev::MouseEvent) + Clone + 'static {
    move |_| {
        error.set(None);
        if toggle.try_update(Toggle::click) == Some(Next::Send) {
            drive(target.clone(), toggle.clone(), error);
        }
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
    let click = refusable(refused, on_click(Target { kind: Kind::Like, uuid, api, store }, toggle.clone(), error));
    let note = click.1;
    let click = click.0;
    let pressed = {
        let toggle = toggle.clone();
        move || toggle.with(Toggle::shown)
    };
    view! {
        <button type="button" class="toggle like" aria-pressed=move || pressed().to_string()
            aria-disabled=move || refused().map(|_| "true") on:click=click>
            <span aria-hidden="true">{let p = pressed.clone(); move || if p() { "♥ " } else { "♡ " }}</span>
            "Like " <span class="count">{count}</span>
        </button>
        {move || error.get().map(|e| view! { <span class="toggle-error" role="alert">{format!("Could not change the like: {e}")}</span> })}
        <RefusalNote shown=note/>
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
    let click = refusable(refused, on_click(Target { kind: Kind::Follow, uuid, api, store }, toggle.clone(), error));
    let note = click.1;
    let click = click.0;
    let pressed = {
        let toggle = toggle.clone();
        move || toggle.with(Toggle::shown)
    };
    view! {
        <button type="button" class="toggle follow" aria-pressed=move || pressed().to_string()
            aria-disabled=move || refused().map(|_| "true") on:click=click>
            {let p = pressed.clone(); move || if p() { "Following" } else { "Follow" }}
        </button>
        {move || error.get().map(|e| view! { <span class="toggle-error" role="alert">{format!("Could not change the follow: {e}")}</span> })}
        <RefusalNote shown=note/>
    }
    .into_any()
}
