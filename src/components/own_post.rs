//! Editing and deleting one's own post, in place on its card, chosen in
//! its "⋯" (the edit form split out of the main module until first
//! opened). Offered only
//! to the author and only when the token allows it. An edit in progress is
//! a draft like any other (`drafts.rs`): it survives a reload, which opens
//! the edit again.

use super::counter::Counter;
use super::later::{later, lazy, Meanwhile};
use super::states::{refusable, RefusalNote};
use crate::browser::dom::{self, DomId};
use crate::browser::web_storage::DraftContext;
use crate::i18n::t;
use crate::nav::WhileShown;
use crate::store::use_store;
use leptos::prelude::*;
use perch_model::{validate_content, Operation, Post, Subject};

/// The form that replaces a post's content while it is edited, split out
/// of the main module (`edit_form`): its state is the store's
/// (`store/writing.rs`), so a save that outlives the page ends there.
#[component]
pub fn EditForm(post: ArcReadSignal<Post>) -> impl IntoView {
    later(edit_form::GROUP, edit_form::load, move || edit_form::draw(post.clone()), Meanwhile::Nothing)
}

lazy! { pages, fn edit_form(post: ArcReadSignal<Post>) {
    let store = use_store();
    let (uuid, content) = post.with_untracked(|p| (p.uuid.clone(), p.content.clone()));
    let context = DraftContext::Edit(uuid.clone());
    let writing = store.writing(context.clone());
    let text = Signal::<String>::from(writing.text.read_only());
    let (locked, saving, error) =
        (writing.locked.clone(), Signal::<bool>::from(writing.busy.read_only()), writing.error);
    let typed = Callback::new({
        let (store, context) = (store.clone(), context.clone());
        // Unchanged text is no draft.
        move |value: String| store.typed(context.clone(), value, Some(&content))
    });
    let field = NodeRef::<leptos::html::Textarea>::new();
    let cancel = {
        let (store, uuid) = (store.clone(), uuid.clone());
        move |ev: leptos::ev::MouseEvent| {
            let card = dom::card_of_event(&ev);
            store.cancel_edit(&uuid);
            if let Some(card) = card {
                dom::focus_more_later(card);
            }
        }
    };
    let invalid = move || text.with(|t| validate_content(t).err());
    let field_id = DomId::EditText(&uuid).to_string();
    let counter_id = DomId::EditCount(&uuid).to_string();
    let shown = WhileShown::here();
    let save = {
        let uuid = uuid.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            if saving.get_untracked() || invalid().is_some() {
                return;
            }
            let card = dom::card_of_event(&ev);
            // If the page has gone, the save still ends in the store.
            store.save_edit(
                &uuid,
                shown.then(move |closed| {
                    if let Some(card) = card.filter(|_| closed) {
                        dom::focus_more_later(card);
                    }
                }),
            );
        }
    };
    view! {
        <form class="edit-form" on:submit=save>
            <label for=field_id.clone()>{t::edit_post_text()}</label>
            <div class="mention-field">
                <textarea node_ref=field id=field_id dir="auto" rows="4" aria-describedby=counter_id.clone() prop:value=move || text.get()
                    on:input=move |ev| typed.run(event_target_value(&ev))></textarea>
                <crate::components::mention::MentionSlot field text typed/>
            </div>
            <div class="composer-row">
                <Counter text id=counter_id/>
                <label class="switch"><input type="checkbox" prop:checked={let l = locked.clone(); move || l.get()} on:change=move |ev| locked.set(event_target_checked(&ev))/>" " {t::locked_switch()}</label>
                <button type="submit" disabled=move || saving.get() || invalid().is_some()>{move || if saving.get() { t::saving().get() } else { t::save().get() }}</button>
                <button type="button" class="secondary" on:click=cancel>{t::cancel()}</button>
            </div>
            {move || invalid().map(|e| view! { <p class="error">{crate::components::counter::content_problem(&e)}</p> })}
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e.explain()} " " {t::changes_are_kept()}</p> })}
        </form>
    }
}}

/// Edit and Delete for the author, in the card's "⋯" (`post_card.rs`):
/// Edit opens the edit form in place, Delete asks first, in the card's
/// footer ([`DeleteQuestion`]); either closes the menu (`close`). Each says
/// why it cannot when the token does not allow it.
#[component]
pub fn OwnMenuItems(
    post: ArcReadSignal<Post>,
    confirming: RwSignal<bool>,
    close: Callback<web_sys::Element>,
) -> impl IntoView {
    let (store, session) = (use_store(), crate::account::session::use_session());
    let (uuid, subject) = post.with_untracked(|p| (p.uuid.clone(), Subject::of(p.parent.is_reply())));
    let reason = move |op: Operation| session.refusal(op, subject);
    let (edit, edit_note) = refusable(move || reason(Operation::UpdatePost), {
        let (store, uuid) = (store.clone(), uuid.clone());
        move |ev: leptos::ev::MouseEvent| {
            if let Some(card) = dom::card_of_event(&ev) {
                close.run(card);
            }
            store.open_edit(&uuid);
            // Into the edit box once its code is here (at once, mostly).
            let uuid = uuid.clone();
            leptos::task::spawn_local(async move {
                if edit_form::load().await.is_ok() {
                    dom::focus_later(DomId::EditText(&uuid));
                }
            });
        }
    });
    let (ask, delete_note) = refusable(
        move || reason(Operation::DeletePost),
        move |ev: leptos::ev::MouseEvent| {
            confirming.set(true);
            if let Some(card) = dom::card_of_event(&ev) {
                close.run(card.clone());
                // The question takes the focus: its answer is one key away.
                request_animation_frame(move || {
                    dom::focus(card.query_selector(".confirm button.danger").ok().flatten())
                });
            }
        },
    );
    view! {
        <button type="button" class="menu-item edit-own" aria-disabled=move || reason(Operation::UpdatePost).map(|_| "true")
            on:click=edit><super::icon::Icon icon=super::icon::Icon::Edit/> {t::edit()}</button>
        <RefusalNote shown=edit_note/>
        <button type="button" class="menu-item delete-own" aria-disabled=move || reason(Operation::DeletePost).map(|_| "true")
            on:click=ask><super::icon::Icon icon=super::icon::Icon::Delete/> {t::delete()}</button>
        <RefusalNote shown=delete_note/>
    }
}

/// "Delete this post?" in the card's footer once Delete was chosen in
/// "⋯", and what the deletion came to when it failed.
#[component]
pub fn DeleteQuestion(post: ArcReadSignal<Post>, confirming: RwSignal<bool>) -> impl IntoView {
    let store = use_store();
    let uuid = post.with_untracked(|p| p.uuid.clone());
    let deleting = RwSignal::new(false);
    let error = RwSignal::new(None::<crate::api::ApiError>);
    let shown = WhileShown::here();
    let delete = move |_| {
        deleting.set(true);
        // Where focus goes once the card is gone, found while it is here.
        let next = dom::neighbour_of(&uuid);
        // If the page has gone, the deletion still ends in the store.
        store.delete_post(
            &uuid,
            shown.then(move |result| match result {
                // Waits in the outbox: the card stays, marked.
                Ok(false) => {
                    confirming.set(false);
                    deleting.set(false);
                }
                Ok(true) => request_animation_frame(move || {
                    let card = next.and_then(|n| dom::card_of(&n)).map(Into::into);
                    dom::focus(
                        card.or_else(|| document().query_selector(&format!("h1:not(.{} *)", dom::AWAY)).ok().flatten()),
                    )
                }),
                Err(e) => {
                    error.set(Some(e));
                    deleting.set(false);
                }
            }),
        );
    };
    let cancel = move |ev: leptos::ev::MouseEvent| {
        confirming.set(false);
        if let Some(card) = dom::card_of_event(&ev) {
            dom::focus_more_later(card);
        }
    };
    view! {
        {move || confirming.get().then(|| view! {
            <span class="confirm" role="group" aria-label=t::confirm_deletion()>
                {t::delete_this_post()} " "
                <button type="button" class="danger" disabled=move || deleting.get() on:click=delete.clone()>{t::delete_post()}</button>
                <button type="button" class="secondary" on:click=cancel>{t::cancel()}</button>
            </span>
        })}
        {move || error.get().map(|e| view! { <span class="toggle-error" role="alert">{t::could_not_delete(e.explain().get())}</span> })}
    }
}
