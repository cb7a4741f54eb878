//! Editing and deleting one's own post, in place on its card. Offered only
//! to the author and only when the token allows it. An edit in progress is
//! a draft like any other (`drafts.rs`): it survives a reload, which opens
//! the edit again.

use super::counter::Counter;
use super::states::RefusalNote;
use super::toggle_buttons::refusable;
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
        let (draft, uuid) = (draft.clone(), uuid.clone());
        move |_| {
            draft.discard();
            editing.set(false);
            focus_later(format!("edit-button-{uuid}"));
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
                        focus_later(format!("edit-button-{uuid}"));
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

/// Gives focus to the element with `id` once the page has been redrawn (the
/// edit box when Edit opens it, the Edit button when Save or Cancel closes
/// it), as Pinafore does, so keyboard users stay where they were working.
fn focus_later(id: String) {
    request_animation_frame(move || focus(document().get_element_by_id(&id)));
}

fn focus(el: Option<web_sys::Element>) {
    use wasm_bindgen::JsCast;
    if let Some(el) = el {
        let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
    }
}

/// Whose card takes focus when post `uuid` is deleted: the next post of its
/// list, else the one before; `None` for the page heading.
fn neighbour_of(uuid: &str) -> Option<String> {
    let article = crate::navigation::card_of(uuid)?;
    let step = |next: bool| {
        let mut at = if next { article.next_element_sibling() } else { article.previous_element_sibling() };
        while let Some(el) = at {
            if el.has_attribute("data-uuid") && el.tag_name() == "ARTICLE" {
                return el.get_attribute("data-uuid");
            }
            at = if next { el.next_element_sibling() } else { el.previous_element_sibling() };
        }
        None
    };
    step(true).or_else(|| step(false))
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
    let edit_button_id = format!("edit-button-{uuid}");
    let (edit, edit_note) = refusable(move || reason(Operation::UpdatePost), {
        let uuid = uuid.clone();
        move |_: leptos::ev::MouseEvent| {
            editing.set(true);
            focus_later(format!("edit-{uuid}"));
        }
    });
    let (ask, delete_note) =
        refusable(move || reason(Operation::DeletePost), move |_: leptos::ev::MouseEvent| confirming.set(true));
    let delete = move |_| {
        deleting.set(true);
        let (api, store, uuid) = (api.clone(), store.clone(), uuid.clone());
        spawn_local(async move {
            match api.delete_post(&uuid).await {
                Ok(_) => {
                    let next = neighbour_of(&uuid);
                    store.post_deleted(&uuid);
                    request_animation_frame(move || {
                        let card = next.and_then(|n| crate::navigation::card_of(&n)).map(Into::into);
                        focus(card.or_else(|| document().query_selector("h1").ok().flatten()))
                    });
                }
                Err(e) => {
                    error.set(Some(e));
                    deleting.set(false);
                }
            }
        });
    };
    view! {
        <button type="button" class="link-button" id=edit_button_id
            aria-disabled=move || reason(Operation::UpdatePost).map(|_| "true") on:click=edit>"Edit"</button>
        <button type="button" class="link-button" aria-disabled=move || reason(Operation::DeletePost).map(|_| "true")
            on:click=ask>"Delete"</button>
        <RefusalNote shown=edit_note/>
        <RefusalNote shown=delete_note/>
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
