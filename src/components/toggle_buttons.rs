//! The Like and Follow buttons, one toggle drawn two ways: they show the account's like or follow and
//! pass clicks to the store, which drives the requests (optimistic, folded,
//! rolled back, the server's state read back after a failure:
//! `store/relations.rs`, with the state machine in `store/toggle.rs`). An
//! action the token may not perform says why instead.

use super::icon::Icon;
use super::states::{refusable, RefusalNote};
use crate::account::session::use_session;
use crate::i18n::{t, Text};
use crate::store::toggle::{shown_count, Toggle};
use crate::store::{use_store, ToggleKey};
use leptos::prelude::*;
use perch_model::{Operation, Subject};

#[component]
pub fn LikeButton(uuid: String, reply: bool) -> impl IntoView {
    let (session, store) = (use_session(), use_store());
    let post = store.post(&uuid);
    let likes = move || post.as_ref().map(|p| p.with(|p| p.like_count)).unwrap_or(0);
    if session.user().is_none() {
        // Signed out: the count alone.
        return view! {
            <span class="like-count">
                <Icon icon=Icon::Like/>
                <span aria-hidden="true">{let likes = likes.clone(); move || crate::i18n::number(likes())}</span>
                <span class="visually-hidden">{move || t::likes_count(likes()).get()}</span>
            </span>
        }
        .into_any();
    }
    let toggle = store.like(&uuid);
    let shown = toggle.clone();
    let count = move || crate::i18n::number(shown_count(likes(), &shown.get()));
    // Named "Like 3" (a name, not hidden text: a card has no box out of
    // the page's flow to lay out); the heart is filled when pressed (CSS).
    let name = {
        let count = count.clone();
        move || format!("{} {}", t::like().get(), count())
    };
    let face = move |_pressed: bool| {
        let count = count.clone();
        view! {
            <Icon icon=Icon::Like/>
            <span class="count">{count}</span>
        }
        .into_any()
    };
    let refusal = (Operation::LikePost, Subject::of(reply));
    ToggleButton(ToggleButtonProps {
        key: ToggleKey::Like(uuid),
        toggle,
        refusal,
        face: std::sync::Arc::new(face),
        name: Some(std::sync::Arc::new(name)),
        failed: |why| t::could_not_change_like(why),
    })
    .into_any()
}

/// Follow or unfollow `uuid`; `back`: says "Follow back" (to a new follower).
#[component]
pub fn FollowButton(uuid: String, #[prop(optional)] back: bool) -> impl IntoView {
    let (session, store) = (use_session(), use_store());
    let Some(me) = session.user().map(|u| u.uuid) else {
        return ().into_any();
    };
    if me == uuid {
        return ().into_any();
    }
    let toggle = store.follow(&uuid);
    let face = move |pressed: bool| {
        match (pressed, back) {
            (true, _) => t::following().get(),
            (false, true) => t::follow_back().get(),
            (false, false) => t::follow().get(),
        }
        .into_any()
    };
    ToggleButton(ToggleButtonProps {
        key: ToggleKey::Follow(uuid),
        toggle,
        refusal: (Operation::FollowUser, Subject::Post),
        face: std::sync::Arc::new(face),
        name: None,
        failed: |why| t::could_not_change_follow(why),
    })
    .into_any()
}

/// What a drawn toggle says, pressed or not.
type Face = std::sync::Arc<dyn Fn(bool) -> AnyView + Send + Sync>;
/// A toggle's name when what it shows is not one (an icon and a count).
type Name = std::sync::Arc<dyn Fn() -> String + Send + Sync>;

/// One toggle, as a like and a follow both draw it: pressed as the store
/// shows it, the click passed to the store, "waiting" while it waits in
/// the outbox, why the last change failed, and why the token may not.
#[component]
fn ToggleButton(
    key: ToggleKey,
    toggle: ArcReadSignal<Toggle>,
    /// The operation and subject the token's scopes must allow.
    refusal: (Operation, Subject),
    face: Face,
    name: Option<Name>,
    /// "Could not change …", with the reason.
    failed: fn(String) -> Text,
) -> impl IntoView {
    let (session, store) = (use_session(), use_store());
    let error = store.toggle_error(&key);
    let class = match &key {
        ToggleKey::Like(_) => "toggle like",
        ToggleKey::Follow(_) => "toggle follow",
    };
    let refused = move || session.refusal(refusal.0, refusal.1);
    let (click, note) = refusable(refused, move |_: leptos::ev::MouseEvent| match &key {
        ToggleKey::Like(uuid) => store.click_like(uuid),
        ToggleKey::Follow(uuid) => store.click_follow(uuid),
    });
    let pressed = {
        let toggle = toggle.clone();
        move || toggle.with(Toggle::shown)
    };
    let drawn = {
        let pressed = pressed.clone();
        move || face(pressed())
    };
    view! {
        <button type="button" class=class aria-pressed=move || pressed().to_string()
            aria-label=name.map(|name| move || name())
            aria-disabled=move || refused().map(|_| "true") on:click=click>
            {drawn}
        </button>
        <WaitingMark toggle=toggle/>
        {move || error.get().map(|e| view! { <span class="toggle-error" role="alert">{failed(e.get())}</span> })}
        <RefusalNote shown=note/>
    }
}

/// "waiting" beside a like or follow whose request waits in the outbox.
#[component]
fn WaitingMark(toggle: ArcReadSignal<Toggle>) -> impl IntoView {
    move || toggle.with(Toggle::waiting).then(|| view! { <span class="waiting-mark">{t::toggle_waiting()}</span> })
}
