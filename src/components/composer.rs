//! The composer, for a new post or a reply: a counter that counts exactly
//! as the server does, the Locked switch, one send at a time (button or
//! Ctrl/Cmd+Enter), a draft kept per account and context (`drafts.rs`) and
//! shared with other tabs until the server confirms, text typed while a
//! send is under way kept, and the text kept on every failure with what
//! went wrong.

use super::counter::Counter;
use crate::api::ApiError;
use crate::drafts::{Draft, LocalStorage};
use crate::session::use_session;
use crate::storage::DraftContext;
use crate::store::use_store;
use crate::use_api;
use leptos::prelude::*;
use leptos::task::spawn_local;
use perch_model::{validate_content, ContentError, NewPost, Operation, Subject};

#[component]
pub fn Composer(
    /// The post replied to; a new top-level post when `None`.
    #[prop(optional)]
    parent: Option<String>,
    /// Who is replied to, for the reply box's caption.
    #[prop(optional)]
    replying_to: Option<String>,
) -> impl IntoView {
    let (session, store, api) = (use_session(), use_store(), use_api());
    let account = session.signed_untracked().map(|s| s.user.uuid).unwrap_or_default();
    let context = parent.clone().map_or(DraftContext::New, DraftContext::Reply);
    let draft = std::sync::Arc::new(Draft::new(LocalStorage, &account, context));
    let text = RwSignal::new(draft.restore());
    // Another tab typing in the same draft: show it here too, so neither
    // tab's text silently replaces the other's.
    let key_name = draft.key_name();
    crate::storage::on_change_elsewhere(move |name, value| {
        if name == key_name {
            text.set(value.unwrap_or_default());
        }
    });
    let locked = RwSignal::new(false);
    let sending = RwSignal::new(false);
    let error = RwSignal::new(None::<ApiError>);
    let subject = Subject::of(parent.is_some());
    let is_reply = parent.is_some();
    let field_id = if is_reply { "reply-text" } else { "post-text" };
    let counter_id = format!("{field_id}-count");

    let over = move || text.with(|t| matches!(validate_content(t), Err(ContentError::TooLong { .. })));
    let empty = move || text.with(|t| t.trim().is_empty());
    let send = {
        let (draft, parent) = (draft.clone(), parent.clone());
        Callback::new(move |_: ()| {
            if sending.get_untracked() || over() || empty() {
                return;
            }
            sending.set(true);
            error.set(None);
            let body =
                NewPost { content: text.get_untracked(), locked: locked.get_untracked(), parent: parent.clone() };
            let (api, store, draft) = (api.clone(), store.clone(), draft.clone());
            // Not scoped to the page: a send finishes even if the person moves on.
            spawn_local(async move {
                match api.send_post(&body).await {
                    Ok(post) => {
                        store.post_sent(post);
                        let left = draft.sent(&body.content, &text.get_untracked());
                        if left.is_empty() {
                            locked.set(false);
                        }
                        text.set(left);
                    }
                    Err(e) => error.set(Some(e)),
                }
                sending.set(false);
            });
        })
    };

    let refused = move || session.refusal(Operation::SendPost, subject);
    let label = if is_reply { "Reply" } else { "Post" };
    view! {
        <form class="composer" on:submit=move |ev| { ev.prevent_default(); send.run(()); }>
            {replying_to.map(|name| view! { <p class="replying-to">{format!("Replying to @{name}")}</p> })}
            <label for=field_id>"Post text"</label>
            <textarea
                id=field_id
                dir="auto"
                rows="4"
                aria-describedby=counter_id.clone()
                prop:value=move || text.get()
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    draft.typed(&value);
                    text.set(value);
                }
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                        ev.prevent_default();
                        send.run(());
                    }
                }
            ></textarea>
            <div class="composer-row">
                <Counter text id=counter_id/>
                <label class="switch"><input type="checkbox" prop:checked=move || locked.get()
                    on:change=move |ev| locked.set(event_target_checked(&ev))/>" Locked (nobody may reply)"</label>
                <button type="submit" aria-busy=move || sending.get().to_string()
                    disabled=move || sending.get() || over() || empty() || refused().is_some()
                    title=refused>
                    {move || if sending.get() { "Sending…" } else { label }}
                </button>
            </div>
            {move || over().then(|| view! { <p class="error">{text.with(|t| validate_content(t).err().map(|e| e.to_string()).unwrap_or_default())}</p> })}
            {move || refused().map(|r| view! { <p class="error">{r}</p> })}
            {move || error.get().map(|e| {
                let retry = matches!(e, ApiError::Network(_) | ApiError::Server { .. } | ApiError::RateLimited { .. });
                view! {
                    <div class="error-box" role="alert">
                        <p>{e.explain()}" Your text is kept."</p>
                        {retry.then(|| view! { <button type="button" on:click=move |_| send.run(())>"Retry"</button> })}
                    </div>
                }
            })}
        </form>
    }
}
