//! Editing and deleting one's own post, in place on its card. Offered only
//! to the author and only when the token allows it. An edit in progress is
//! a draft like any other (`drafts.rs`): it survives a reload, which opens
//! the edit again.

use super::counter::Counter;
use crate::api::ApiError;
use crate::drafts::{Draft, LocalStorage};
use crate::storage::DraftContext;
use crate::store::use_store;
use crate::use_api;
use leptos::prelude::*;
use leptos::task::spawn_local;
use perch_model::{validate_content, Operation, Post, PostUpdate, Subject};

/// The form that replaces a post's content while it is edited.
#[component]
pub fn EditForm(post: ArcRwSignal<Post>, editing: RwSignal<bool>) -> impl IntoView {
    let (api, store) = (use_api(), use_store());
    let (uuid, content, was_locked) = post.with_untracked(|p| (p.uuid.clone(), p.content.clone(), p.locked));
    let draft = std::sync::Arc::new(edit_draft(&uuid));
    let kept = draft.restore();
    let text = RwSignal::new(if kept.is_empty() { content.clone() } else { kept });
    let key_name = draft.key_name();
    crate::storage::on_change_elsewhere(move |name, value| {
        if name == key_name {
            if let Some(value) = value {
                text.set(value);
            }
        }
    });
    let typed = {
        let draft = draft.clone();
        move |value: String| {
            // Unchanged text is no draft.
            if value == content {
                draft.discard();
            } else {
                draft.typed(&value);
            }
            text.set(value);
        }
    };
    let cancel = {
        let draft = draft.clone();
        move |_| {
            draft.discard();
            editing.set(false);
        }
    };
    let locked = RwSignal::new(was_locked);
    let saving = RwSignal::new(false);
    let error = RwSignal::new(None::<ApiError>);
    let invalid = move || text.with(|t| validate_content(t).err());
    let field_id = format!("edit-{uuid}");
    let counter_id = format!("edit-{uuid}-count");
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if saving.get_untracked() || invalid().is_some() {
            return;
        }
        saving.set(true);
        let update = PostUpdate { content: Some(text.get_untracked()), locked: Some(locked.get_untracked()) };
        let (api, store, uuid, draft) = (api.clone(), store.clone(), uuid.clone(), draft.clone());
        spawn_local(async move {
            match api.update_post(&uuid, &update).await {
                Ok(post) => {
                    store.post_edited(post);
                    // Typed while saving: the box stays open with it.
                    if update.content.as_deref() == Some(&text.get_untracked()) {
                        draft.discard();
                        editing.set(false);
                    }
                }
                Err(e) => error.set(Some(e)),
            }
            saving.set(false);
        });
    };
    view! {
        <form class="edit-form" on:submit=save>
            <label for=field_id.clone()>"Edit post text"</label>
            <textarea id=field_id dir="auto" rows="4" aria-describedby=counter_id.clone() prop:value=move || text.get()
                on:input=move |ev| typed(event_target_value(&ev))></textarea>
            <div class="composer-row">
                <Counter text id=counter_id/>
                <label class="switch"><input type="checkbox" prop:checked=move || locked.get() on:change=move |ev| locked.set(event_target_checked(&ev))/>" Locked (nobody may reply)"</label>
                <button type="submit" disabled=move || saving.get() || invalid().is_some()>{move || if saving.get() { "Saving…" } else { "Save" }}</button>
                <button type="button" class="secondary" on:click=cancel>"Cancel"</button>
            </div>
            {move || invalid().map(|e| view! { <p class="error">{e.to_string()}</p> })}
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e.explain()}" Your changes are kept."</p> })}
        </form>
    }
}

/// The signed-in account's draft of an edit of post `uuid`.
pub fn edit_draft(uuid: &str) -> Draft<LocalStorage> {
    let account = crate::session::use_session().signed_untracked().map(|s| s.user.uuid).unwrap_or_default();
    Draft::new(LocalStorage, &account, DraftContext::Edit(uuid.to_owned()))
}

/// Edit and Delete for the author; Delete asks first.
#[component]
pub fn OwnActions(post: ArcRwSignal<Post>, editing: RwSignal<bool>) -> impl IntoView {
    let (api, store, session) = (use_api(), use_store(), crate::session::use_session());
    let (uuid, subject) = post.with_untracked(|p| (p.uuid.clone(), Subject::of(p.parent.is_reply())));
    let confirming = RwSignal::new(false);
    let deleting = RwSignal::new(false);
    let error = RwSignal::new(None::<ApiError>);
    let reason = move |op: Operation| session.refusal(op, subject);
    let delete = move |_| {
        deleting.set(true);
        let (api, store, uuid) = (api.clone(), store.clone(), uuid.clone());
        spawn_local(async move {
            match api.delete_post(&uuid).await {
                Ok(_) => store.post_deleted(&uuid),
                Err(e) => {
                    error.set(Some(e));
                    deleting.set(false);
                }
            }
        });
    };
    view! {
        <button type="button" class="link-button" disabled=move || reason(Operation::UpdatePost).is_some()
            title=move || reason(Operation::UpdatePost) on:click=move |_| editing.set(true)>"Edit"</button>
        <button type="button" class="link-button" disabled=move || reason(Operation::DeletePost).is_some()
            title=move || reason(Operation::DeletePost) on:click=move |_| confirming.set(true)>"Delete"</button>
        {move || confirming.get().then(|| view! {
            <span class="confirm" role="group" aria-label="Confirm deletion">
                "Delete this post? This cannot be undone. "
                <button type="button" class="danger" disabled=move || deleting.get() on:click=delete.clone()>"Delete post"</button>
                <button type="button" class="secondary" on:click=move |_| confirming.set(false)>"Cancel"</button>
            </span>
        })}
        {move || error.get().map(|e| view! { <span class="toggle-error" role="alert">{format!("Could not delete: {}", e.explain())}</span> })}
    }
}
