//! The list of everything waiting to be sent (the header's count opens
//! it): each action in the order it will go, why it waits or why the
//! server refused it, with Retry, Edit (posts) and Discard.

use crate::browser::navigation::{PageHeading, Title};
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::waiting::{WaitingEditor, WaitingPost};
use crate::i18n::t;
use crate::nav::AppPath;
use crate::store::outbox::{Action, Waiting};
use crate::store::{use_store, Store};
use leptos::prelude::*;

#[component]
pub fn OutboxPage() -> impl IntoView {
    later(outbox_page::GROUP, outbox_page::load, outbox_page::draw, Meanwhile::Page)
}

lazy! { pages, fn outbox_page() {
    let waiting: Signal<Vec<Waiting>> = use_store().waiting().into();
    // A thread is one item, shown as its first part still waiting.
    let keys = move || {
        waiting.with(|list| crate::components::waiting::one_per_thread(list).map(|w| w.key.clone()).collect::<Vec<_>>())
    };
    view! {
        <Title text=move || t::title_page(t::outbox_title().get()).get()/>
        <main id="main" class="page outbox">
            <PageHeading text=t::outbox_title()/>
            <p>{t::outbox_intro()}</p>
            {move || waiting.with(Vec::is_empty).then(|| view! { <p class="empty">{t::outbox_empty()}</p> })}
            <ol class="outbox-list">
                <For each=keys key=|k| k.clone() let:key>
                    <li><WaitingAction key/></li>
                </For>
            </ol>
        </main>
    }
}}

/// What an action is, in words, with a link to what it acts on.
fn describe(store: &Store, w: &Waiting) -> AnyView {
    let handle = |uuid: &str, who: &str| {
        let name = store.user(uuid).map(|u| u.with_untracked(|u| u.username.clone())).unwrap_or_else(|| who.to_owned());
        format!("@{name}")
    };
    let post_link = |uuid: &str, text: String| view! { <a href=AppPath::Thread(uuid).href()>{text}</a> }.into_any();
    match &w.action {
        Action::Post { .. } => ().into_any(),
        Action::Edit { uuid, .. } => post_link(uuid, t::outbox_edit().get()),
        Action::Delete { uuid } => post_link(uuid, t::outbox_delete().get()),
        Action::Like { uuid, want, .. } => {
            post_link(uuid, if *want { t::outbox_like().get() } else { t::outbox_unlike().get() })
        }
        Action::Follow { uuid, want, who, .. } => {
            let text = if *want { t::outbox_follow(handle(uuid, who)) } else { t::outbox_unfollow(handle(uuid, who)) };
            view! { <a href=AppPath::ProfileByUuid(uuid).href()>{text.get()}</a> }.into_any()
        }
    }
}

/// One waiting action: a post as its card, anything else as a line.
#[component]
fn WaitingAction(key: String) -> impl IntoView {
    let store = use_store();
    let waiting = store.waiting();
    let entry = Memo::new({
        let key = key.clone();
        move |_| waiting.with(|list| list.iter().find(|w| w.key == key).cloned())
    });
    let editing = RwSignal::new(false);
    move || {
        let w = entry.get()?;
        if matches!(w.action, Action::Post { .. }) {
            return Some(view! { <WaitingPost key=w.key.clone()/> }.into_any());
        }
        let refused = w.refused.as_ref().map(|r| t::not_sent(r.error().explain().get()).get());
        let (s1, s2, k1, k2) = (store.clone(), store.clone(), w.key.clone(), w.key.clone());
        // An edit's text can be changed here too (a refused one, say too long).
        let edit = match &w.action {
            Action::Edit { content, locked, .. } => Some((content.clone(), *locked)),
            _ => None,
        };
        let editor = edit.clone().filter(|_| editing.get()).map(|(text, locked)| {
            view! { <WaitingEditor key=w.key.clone() text locked editing/> }
        });
        Some(view! {
            <div class="waiting-action">
                {describe(&store, &w)}
                {edit.map(|(text, _)| view! { <q dir="auto">{text}</q> })}
                <span class="waiting-mark" class:refused=refused.is_some()>{refused.clone().unwrap_or_else(|| t::waiting_to_send().get())}</span>
                {refused.is_some().then(|| view! { <button type="button" class="link-button" on:click=move |_| s1.retry_waiting(&k1)>{t::retry()}</button> })}
                {(editor.is_none() && matches!(w.action, Action::Edit { .. })).then(|| view! {
                    <button type="button" class="link-button" on:click=move |_| editing.set(true)>{t::edit()}</button>
                })}
                <button type="button" class="link-button" on:click=move |_| s2.discard_waiting(&k2)>{t::discard()}</button>
                {editor}
            </div>
        }.into_any())
    }
}
