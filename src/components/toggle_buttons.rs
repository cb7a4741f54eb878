//! The Like and Follow buttons: they show the account's like or follow and
//! pass clicks to the store, which drives the requests (optimistic, folded,
//! rolled back, the server's state read back after a failure:
//! `store/relations.rs`, with the state machine in `store/toggle.rs`). An
//! action the token may not perform says why instead.

use super::states::{refusable, RefusalNote};
use crate::account::session::use_session;
use crate::i18n::t;
use crate::store::toggle::{shown_count, Toggle};
use crate::store::{use_store, ToggleKey};
use leptos::prelude::*;
use perch_model::{Operation, Subject};

#[component]
pub fn LikeButton(uuid: String, reply: bool) -> impl IntoView {
    let (session, store) = (use_session(), use_store());
    let post = store.post(&uuid);
    if session.user().is_none() {
        // Signed out: the count alone.
        let count = move || post.as_ref().map(|p| p.with(|p| p.like_count)).unwrap_or(0);
        return view! { <span>{move || t::likes_count(count()).get()}</span> }.into_any();
    }
    let toggle = store.like(&uuid);
    let error = store.toggle_error(&ToggleKey::Like(uuid.clone()));
    let refused = move || session.refusal(Operation::LikePost, Subject::of(reply));
    let count = {
        let (toggle, post) = (toggle.clone(), post.clone());
        move || shown_count(post.as_ref().map(|p| p.with(|p| p.like_count)).unwrap_or(0), &toggle.get())
    };
    let click = refusable(refused, move |_: leptos::ev::MouseEvent| store.click_like(&uuid));
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
            {t::like()} " " <span class="count">{move || crate::i18n::number(count() as f64)}</span>
        </button>
        <WaitingMark toggle=toggle.clone()/>
        {move || error.get().map(|e| view! { <span class="toggle-error" role="alert">{t::could_not_change_like(e.get())}</span> })}
        <RefusalNote shown=note/>
    }
    .into_any()
}

#[component]
pub fn FollowButton(uuid: String) -> impl IntoView {
    let (session, store) = (use_session(), use_store());
    let Some(me) = session.user().map(|u| u.uuid) else {
        return ().into_any();
    };
    if me == uuid {
        return ().into_any();
    }
    let toggle = store.follow(&uuid);
    let error = store.toggle_error(&ToggleKey::Follow(uuid.clone()));
    let refused = move || session.refusal(Operation::FollowUser, Subject::Post);
    let click = refusable(refused, move |_: leptos::ev::MouseEvent| store.click_follow(&uuid));
    let note = click.1;
    let click = click.0;
    let pressed = {
        let toggle = toggle.clone();
        move || toggle.with(Toggle::shown)
    };
    view! {
        <button type="button" class="toggle follow" aria-pressed=move || pressed().to_string()
            aria-disabled=move || refused().map(|_| "true") on:click=click>
            {let p = pressed.clone(); move || if p() { t::following().get() } else { t::follow().get() }}
        </button>
        <WaitingMark toggle=toggle.clone()/>
        {move || error.get().map(|e| view! { <span class="toggle-error" role="alert">{t::could_not_change_follow(e.get())}</span> })}
        <RefusalNote shown=note/>
    }
    .into_any()
}

/// "waiting" beside a like or follow whose request waits in the outbox.
#[component]
fn WaitingMark(toggle: ArcReadSignal<Toggle>) -> impl IntoView {
    move || toggle.with(Toggle::waiting).then(|| view! { <span class="waiting-mark">{t::toggle_waiting()}</span> })
}
