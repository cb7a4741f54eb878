//! The parts after the first of a thread being written in a composer
//! (`store/thread.rs` keeps and sends them): each its own box, labelled
//! "Post 2 of 3", with its own counter, @-mention completion and Remove.
//! Split out with `composing` until the person starts a thread.

use super::counter::{content_problem, Counter};
use super::later::{later, lazy, Meanwhile};
use super::mention::MentionSlot;
use crate::browser::dom::{self, DomId};
use crate::browser::web_storage::DraftContext;
use crate::i18n::t;
use crate::store::{use_store, Store};
use leptos::prelude::*;
use perch_model::{validate_content, ContentError};

/// What a composer asks of its thread, done by the code split out with the
/// parts: the composer itself carries none of it.
pub enum ThreadWork {
    /// A new part at the end; the focus goes into it.
    Add,
    /// The first box's text, too long, cut into parts.
    Split,
    /// Every part into the outbox.
    Send,
}

/// Does `work` for the thread in `context` (its first box `field_id`) once
/// the split module is here; when it cannot come, the composer says so
/// (its error, with the text kept).
pub fn thread_work(store: Store, context: DraftContext, field_id: &'static str, work: ThreadWork) {
    leptos::task::spawn_local(async move {
        let writing = store.writing(context.clone());
        if do_thread_work::draw(store, context, field_id, work).await.is_err() {
            writing.error.set(Some(crate::api::ApiError::Network(String::new())));
        }
    });
}

lazy! { composing, fn do_thread_work(store: Store, context: DraftContext, field_id: &'static str, work: ThreadWork) {
    match work {
        ThreadWork::Add => {
            store.add_part(context.clone());
            let n = store.writing(context).parts.with_untracked(Vec::len) + 1;
            dom::focus_later(DomId::ThreadPart(field_id, n));
        }
        ThreadWork::Split => store.split_into_thread(context),
        ThreadWork::Send => store.send_thread(context),
    }
} }

/// The parts after the first of the thread in `context`, whose first box is
/// `field_id`; Ctrl/Cmd+Enter in any of them runs `send`.
#[component]
pub fn ThreadParts(context: DraftContext, field_id: &'static str, send: Callback<()>) -> impl IntoView {
    later(
        thread_parts::GROUP,
        thread_parts::load,
        move || thread_parts::draw(context.clone(), field_id, send),
        Meanwhile::Nothing,
    )
}

lazy! { composing, fn thread_parts(context: DraftContext, field_id: &'static str, send: Callback<()>) {
    let parts = use_store().writing(context.clone()).parts;
    let count = {
        let parts = parts.clone();
        Memo::new(move |_| parts.with(Vec::len))
    };
    view! {
        <For each=move || 0..count.get() key=|i| *i let:i>
            <Part context=context.clone() field_id index=i count send/>
        </For>
    }
} }

/// Part `index + 2` of `count + 1`.
#[component]
fn Part(
    context: DraftContext,
    field_id: &'static str,
    index: usize,
    count: Memo<usize>,
    send: Callback<()>,
) -> impl IntoView {
    let store = use_store();
    let parts = store.writing(context.clone()).parts;
    let id = DomId::ThreadPart(field_id, index + 2).to_string();
    let counter_id = format!("{id}-count");
    let text = Signal::derive({
        let parts = parts.clone();
        move || parts.with(|p| p.get(index).cloned().unwrap_or_default())
    });
    let change = {
        let (store, context, parts) = (store.clone(), context.clone(), parts.clone());
        move |edit: &dyn Fn(&mut Vec<String>)| {
            let mut now = parts.get_untracked();
            edit(&mut now);
            store.parts_changed(context.clone(), now);
        }
    };
    let typed = Callback::new({
        let change = change.clone();
        move |value: String| {
            change(&|all: &mut Vec<String>| {
                if let Some(part) = all.get_mut(index) {
                    part.clone_from(&value);
                }
            })
        }
    });
    // Focus goes to the box before, which takes this one's place.
    let remove = move |_| {
        change(&|all: &mut Vec<String>| {
            if index < all.len() {
                all.remove(index);
            }
        });
        let before = if index == 0 { field_id.to_owned() } else { DomId::ThreadPart(field_id, index + 1).to_string() };
        request_animation_frame(move || dom::focus(dom::by_id(&before)));
    };
    let field = NodeRef::<leptos::html::Textarea>::new();
    let problem = move || text.with(|t| validate_content(t).err().filter(|e| *e != ContentError::Empty));
    view! {
        <div class="thread-part">
            <label for=id.clone()>{move || t::thread_part(count.get() as u64 + 1, crate::i18n::number(index as u64 + 2)).get()}</label>
            <div class="mention-field">
                <textarea node_ref=field id=id dir="auto" rows="3" aria-describedby=counter_id.clone()
                    prop:value=move || text.get()
                    on:input=move |ev| typed.run(event_target_value(&ev))
                    on:keydown=crate::browser::shortcuts::send_on_ctrl_enter(send)></textarea>
                <MentionSlot field text typed/>
            </div>
            <div class="composer-row">
                <Counter text id=counter_id/>
                <button type="button" class="link-button" on:click=remove>{t::remove_part()}</button>
            </div>
            {move || problem().map(|e| view! { <p class="error">{content_problem(&e)}</p> })}
        </div>
    }
}
