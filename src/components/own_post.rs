//! Editing and deleting one's own post, in place on its card (the edit
//! form split out of the main module until first opened). Offered only
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
        move |_| {
            store.cancel_edit(&uuid);
            dom::focus_later(DomId::EditButton(&uuid));
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
            let focus_to = uuid.clone();
            // If the page has gone, the save still ends in the store.
            store.save_edit(
                &uuid,
                shown.then(move |closed| {
                    if closed {
                        dom::focus_later(DomId::EditButton(&focus_to));
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

/// Edit and Delete for the author; Delete asks first.
#[component]
pub fn OwnActions(post: ArcReadSignal<Post>) -> impl IntoView {
    let (store, session) = (use_store(), crate::account::session::use_session());
    let (uuid, subject) = post.with_untracked(|p| (p.uuid.clone(), Subject::of(p.parent.is_reply())));
    let confirming = RwSignal::new(false);
    let deleting = RwSignal::new(false);
    let error = RwSignal::new(None::<crate::api::ApiError>);
    let reason = move |op: Operation| session.refusal(op, subject);
    let edit_button_id = DomId::EditButton(&uuid).to_string();
    let (edit, edit_note) = refusable(move || reason(Operation::UpdatePost), {
        let (store, uuid) = (store.clone(), uuid.clone());
        move |_: leptos::ev::MouseEvent| {
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
    let (ask, delete_note) =
        refusable(move || reason(Operation::DeletePost), move |_: leptos::ev::MouseEvent| confirming.set(true));
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
                    dom::focus(card.or_else(|| document().query_selector("h1").ok().flatten()))
                }),
                Err(e) => {
                    error.set(Some(e));
                    deleting.set(false);
                }
            }),
        );
    };
    view! {
        <button type="button" class="link-button" id=edit_button_id
            aria-disabled=move || reason(Operation::UpdatePost).map(|_| "true") on:click=edit>{t::edit()}</button>
        <button type="button" class="link-button" aria-disabled=move || reason(Operation::DeletePost).map(|_| "true")
            on:click=ask>{t::delete()}</button>
        <RefusalNote shown=edit_note/>
        <RefusalNote shown=delete_note/>
        {move || confirming.get().then(|| view! {
            <span class="confirm" role="group" aria-label=t::confirm_deletion()>
                {t::delete_this_post()} " "
                <button type="button" class="danger" disabled=move || deleting.get() on:click=delete.clone()>{t::delete_post()}</button>
                <button type="button" class="secondary" on:click=move |_| confirming.set(false)>{t::cancel()}</button>
            </span>
        })}
        {move || error.get().map(|e| view! { <span class="toggle-error" role="alert">{t::could_not_delete(e.explain().get())}</span> })}
    }
}
