//! The composer, for a new post or a reply: a counter that counts exactly
//! as the server does, the Locked switch, one send at a time (button or
//! Ctrl/Cmd+Enter), a draft kept per account and context (`drafts.rs`) and
//! shared with other tabs until the server confirms, text typed while a
//! send is under way kept, and the text kept on every failure with what
//! went wrong. "Add another post" makes it a thread (`thread_parts.rs`,
//! `store/thread.rs`), and a text too long for one post is offered as one.

use super::counter::{content_problem, Counter};
use super::mention::MentionSlot;
use super::thread_parts::{thread_work, ThreadWork};
use crate::account::session::use_session;
use crate::api::ApiError;
use crate::browser::web_storage::DraftContext;
use crate::i18n::t;
use crate::store::use_store;
use leptos::prelude::*;
use perch_model::{validate_content, ContentError, Operation, Subject};

/// Asked by the header's Write button: Home's composer, focused (and so
/// opened) once Home shows (`routes/home.rs`); the shell provides it.
#[derive(Clone, Copy)]
pub struct WriteAsked(pub RwSignal<bool>);

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
    let subject = Subject::of(parent.is_some());
    let is_reply = parent.is_some();
    let field_id = if is_reply { "reply-text" } else { "post-text" };
    let counter_id = format!("{field_id}-count");
    // Why the text cannot be sent is read with the field, as the count is.
    let problem_id = format!("{field_id}-problem");

    // A thread: the parts after the first (`store/thread.rs`).
    let parts = writing.parts.clone();
    let threaded = {
        let parts = parts.clone();
        Memo::new(move |_| parts.with(Vec::len))
    };
    // Empty (blank or invisible only) just keeps Send off; too long or a NUL
    // says why, with the server's own rule. A thread goes when every part may.
    let refusal = move || text.with(|t| validate_content(t).err().filter(|e| *e != ContentError::Empty));
    let empty = move || text.with(|t| validate_content(t) == Err(ContentError::Empty));
    let parts_invalid = {
        let parts = parts.clone();
        move || parts.with(|p| p.iter().any(|t| validate_content(t).is_err()))
    };
    let thread = {
        let (store, context) = (store.clone(), context.clone());
        move |work: ThreadWork| thread_work(store.clone(), context.clone(), field_id, work)
    };
    let send = Callback::new({
        let (store, context, thread) = (store.clone(), context.clone(), thread.clone());
        move |_: ()| match threaded.get_untracked() {
            0 => store.send_post(context.clone()),
            _ => thread(ThreadWork::Send),
        }
    });
    let add_part = {
        let thread = thread.clone();
        move |_| thread(ThreadWork::Add)
    };
    let split = move |_| thread(ThreadWork::Split);
    let typed = Callback::new({
        let (store, context) = (store.clone(), context.clone());
        move |value: String| store.typed(context.clone(), value, None)
    });
    let field = NodeRef::<leptos::html::Textarea>::new();
    let sending = Signal::<bool>::from(sending.read_only());
    let error = Signal::<Option<ApiError>>::from(error.read_only());
    let refused = move || session.refusal(Operation::SendPost, subject);
    let label = move || if is_reply { t::reply().get() } else { t::post().get() };
    // The account's other drafts, as a link to them all (`/drafts`),
    // counted again when a draft starts or ends here or in another tab,
    // not at every keystroke.
    let this = Memo::new(move |_| text.with(|t| !t.is_empty()));
    let others = Memo::new(move |_| {
        let this = this.get();
        let all = session.user().map_or(0, |me| crate::account::drafts::kept_unsent(&me.uuid));
        all.saturating_sub(usize::from(this))
    });
    // Home's composer is one line ("What's new?") until it has the focus
    // or holds something (a draft, a thread, a send under way, its error);
    // then it opens in place. A reply box is always open. A press inside
    // keeps it open while the focus moves to what was pressed (a browser
    // that does not focus buttons names no new target).
    let form = NodeRef::<leptos::html::Form>::new();
    let focus_within = RwSignal::new(false);
    let pressing = StoredValue::new(false);
    let open = Memo::new(move |_| {
        is_reply
            || focus_within.get()
            || this.get()
            || threaded.get() > 0
            || sending.get()
            || error.with(Option::is_some)
    });
    let left = move |ev: leptos::ev::FocusEvent| {
        use wasm_bindgen::JsCast;
        let to = ev.related_target().and_then(|t| t.dyn_into::<web_sys::Node>().ok());
        // Also run as the form leaves the page with the focus in it, its
        // state already gone: then nothing is done.
        let inside = to.is_some_and(|to| form.try_get_untracked().flatten().is_some_and(|f| f.contains(Some(&to))));
        if !inside && pressing.try_get_value() == Some(false) {
            let _ = focus_within.try_set(false);
        }
    };
    view! {
        <form class="composer" class:closed=move || !open.get() node_ref=form
            on:submit=move |ev| { ev.prevent_default(); send.run(()); }
            on:pointerdown=move |_| { pressing.try_set_value(true); }
            on:click=move |_| { pressing.try_set_value(false); }
            on:focusin=move |_| { pressing.try_set_value(false); let _ = focus_within.try_set(true); }
            on:focusout=left>
            {replying_to.map(|name| view! { <p class="replying-to">{t::replying_to_user(format!("@{name}"))}</p> })}
            <label for=field_id class:visually-hidden=move || !is_reply && threaded.get() == 0>{move || match threaded.get() {
                0 => t::post_text().get(),
                n => t::thread_part(n as u64 + 1, crate::i18n::number(1)).get(),
            }}</label>
            <div class="mention-field">
            <textarea
                node_ref=field
                id=field_id
                dir="auto"
                rows=move || if open.get() { "4" } else { "1" }
                placeholder=move || (!is_reply).then(|| t::whats_new().get())
                // The problem's id is named always: an id not on the page
                // is no description, so it counts only while shown.
                aria-describedby=format!("{counter_id} {problem_id}")
                prop:value=move || text.get()
                on:input=move |ev| typed.run(event_target_value(&ev))
                on:keydown=crate::browser::shortcuts::send_on_ctrl_enter(send)
            ></textarea>
            <MentionSlot field text typed/>
            </div>
            {let counter_id = counter_id.clone(); move || (threaded.get() > 0).then(|| view! {
                <div class="composer-row"><Counter text id=counter_id.clone()/></div>
            })}
            {let context = context.clone(); move || (threaded.get() > 0).then(|| view! {
                <super::thread_parts::ThreadParts context=context.clone() field_id send/>
            })}
            <div class="composer-row">
                {move || (threaded.get() == 0).then(|| view! { <Counter text id=counter_id.clone()/> })}
                <label class="switch lock-switch"><input type="checkbox" prop:checked={let l = locked.clone(); move || l.get()}
                    on:change=move |ev| locked.set(event_target_checked(&ev))/>
                    <super::icon::Icon icon=super::icon::Icon::Lock/><span>{t::locked_switch()}</span></label>
                <button type="button" class="secondary add-part" on:click=add_part>{t::add_another_post()}</button>
                <button type="submit" aria-busy=move || sending.get().to_string()
                    disabled=move || sending.get() || refusal().is_some() || empty() || parts_invalid() || refused().is_some()
                    title=move || refused().map(|r| r.text().get())>
                    {move || match (sending.get(), threaded.get()) {
                        (true, _) => t::sending().get(),
                        (false, 0) => label(),
                        (false, n) => t::post_all(n as u64 + 1).get(),
                    }}
                </button>
            </div>
            {move || (others.get() > 0).then(|| view! {
                <p class="other-drafts"><a href=crate::nav::AppPath::Drafts.href()>{t::other_drafts(others.get() as u64)}</a></p>
            })}
            // Too long for one post: offered as a thread, cut at sentence ends.
            {move || refusal().map(|e| view! {
                <p class="error" id=problem_id.clone()>{content_problem(&e)}</p>
                {matches!(e, ContentError::TooLong { .. }).then(|| view! {
                    <p><button type="button" class="secondary split-thread" on:click=split.clone()>{t::split_into_thread()}</button></p>
                })}
            })}
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
