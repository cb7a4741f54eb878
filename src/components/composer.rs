//! The composer, for a new post or a reply: a counter that counts exactly
//! as the server does, the Locked switch, one send at a time (button or
//! Ctrl/Cmd+Enter), a draft kept per account and context (`drafts.rs`) and
//! shared with other tabs until the server confirms, text typed while a
//! send is under way kept, and the text kept on every failure with what
//! went wrong.

use super::counter::{content_problem, Counter};
use crate::account::session::use_session;
use crate::api::ApiError;
use crate::browser::web_storage::DraftContext;
use crate::i18n::t;
use crate::store::use_store;
use leptos::prelude::*;
use perch_model::{validate_content, ContentError, Operation, Subject};

#[component]
pub fn Composer(
    /// The post replied to; a new top-level post when `None`.
    #[prop(optional)]
    parent: Option<String>,
    /// Who is replied to, for the reply box's caption.
    #[prop(optional)]
    replying_to: Option<String>,
) -> impl IntoView {
    let (session, store) = (use_session(), use_store());
    let context = parent.clone().map_or(DraftContext::New, DraftContext::Reply);
    // The draft's state is the store's: a send that outlives this page ends
    // there, and a composer opened again on this draft shows it.
    let writing = store.writing(context.clone());
    let text = Signal::<String>::from(writing.text.read_only());
    let (locked, sending, error) = (writing.locked.clone(), writing.busy.clone(), writing.error.clone());
    store.follow_draft_elsewhere(context.clone(), false);
    let subject = Subject::of(parent.is_some());
    let is_reply = parent.is_some();
    let field_id = if is_reply { "reply-text" } else { "post-text" };
    let counter_id = format!("{field_id}-count");
    // Why the text cannot be sent is read with the field, as the count is.
    let problem_id = format!("{field_id}-problem");

    // Empty (blank or invisible only) just keeps Send off; too long or a NUL
    // says why, with the server's own rule.
    let refusal = move || text.with(|t| validate_content(t).err().filter(|e| *e != ContentError::Empty));
    let empty = move || text.with(|t| validate_content(t) == Err(ContentError::Empty));
    let send = Callback::new({
        let (store, context) = (store.clone(), context.clone());
        move |_: ()| store.send_post(context.clone())
    });
    let typed = {
        let (store, context) = (store.clone(), context.clone());
        move |value: String| store.typed(context.clone(), value, None)
    };
    let sending = Signal::<bool>::from(sending.read_only());
    let error = Signal::<Option<ApiError>>::from(error.read_only());
    let refused = move || session.refusal(Operation::SendPost, subject);
    let label = move || if is_reply { t::reply().get() } else { t::post().get() };
    // The account's other drafts, as a link to them all (`/drafts`),
    // counted again as this one changes and when another tab writes one.
    let elsewhere = RwSignal::new(0u32);
    crate::browser::web_storage::on_change_elsewhere(move |name, _| {
        if name.starts_with("perch.draft.") {
            elsewhere.update(|n| *n += 1);
        }
    });
    // Counted when this draft starts or ends, not at every keystroke.
    let this = Memo::new(move |_| text.with(|t| !t.is_empty()));
    let others = Memo::new(move |_| {
        elsewhere.track();
        let this = this.get();
        let all = session.user().map_or(0, |me| crate::browser::web_storage::count_drafts(&me.uuid));
        all.saturating_sub(usize::from(this))
    });
    view! {
        <form class="composer" on:submit=move |ev| { ev.prevent_default(); send.run(()); }>
            {replying_to.map(|name| view! { <p class="replying-to">{t::replying_to_user(format!("@{name}"))}</p> })}
            <label for=field_id>{t::post_text()}</label>
            <textarea
                id=field_id
                dir="auto"
                rows="4"
                // The problem's id is named always: an id not on the page
                // is no description, so it counts only while shown.
                aria-describedby=format!("{counter_id} {problem_id}")
                prop:value=move || text.get()
                on:input=move |ev| typed(event_target_value(&ev))
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                        ev.prevent_default();
                        send.run(());
                    }
                }
            ></textarea>
            <div class="composer-row">
                <Counter text id=counter_id/>
                <label class="switch"><input type="checkbox" prop:checked={let l = locked.clone(); move || l.get()}
                    on:change=move |ev| locked.set(event_target_checked(&ev))/>" " {t::locked_switch()}</label>
                <button type="submit" aria-busy=move || sending.get().to_string()
                    disabled=move || sending.get() || refusal().is_some() || empty() || refused().is_some()
                    title=move || refused().map(|r| r.text().get())>
                    {move || if sending.get() { t::sending().get() } else { label() }}
                </button>
            </div>
            {move || (others.get() > 0).then(|| view! {
                <p class="other-drafts"><a href=crate::nav::AppPath::Drafts.href()>{t::other_drafts(others.get() as u64)}</a></p>
            })}
            {move || refusal().map(|e| view! { <p class="error" id=problem_id.clone()>{content_problem(&e)}</p> })}
            {move || refused().map(|r| view! { <p class="error">{r.text()} " " <super::states::AskToAllow missing=r.missing/></p> })}
            {move || error.get().map(|e| {
                let retry = matches!(e, ApiError::Network(_) | ApiError::Server { .. } | ApiError::RateLimited { .. });
                view! {
                    <div class="error-box" role="alert">
                        <p>{e.explain()} " " {t::text_is_kept()}</p>
                        {retry.then(|| view! { <button type="button" on:click=move |_| send.run(())>{t::retry()}</button> })}
                    </div>
                }
            })}
        </form>
    }
}
