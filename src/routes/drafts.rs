//! `/drafts`: every unsent draft of the account in one place, newest first
//! (the new post, each reply with the post it answers, each edit with its
//! post), each with its first words and how long ago it was last typed in.
//! Continue opens it where it was written; Discard asks nothing and offers
//! Undo. Drafts are the store's (`store/writing.rs`, kept by
//! `account/drafts.rs`); other tabs' changes show at once. Split out in a
//! module of its own, `page_drafts` (it was in `extras` while the chunk
//! planner's model made a module of its own cost Activity 54 KB:
//! docs/size.md, "Drafts in a module of their own").
//!
//! Words: later.

use crate::browser::navigation::{PageHeading, Title};
use crate::browser::web_storage::DraftContext;
use crate::components::later::{later, lazy, Meanwhile};
use crate::i18n::t;
use crate::nav::{while_shown, AppPath};
use crate::store::{use_store, Store};
use leptos::prelude::*;
use leptos_router::components::A;

/// How many characters of a draft the list shows.
const FIRST_WORDS: usize = 120;

#[component]
pub fn DraftsPage() -> impl IntoView {
    later(drafts_page::GROUP, drafts_page::load, drafts_page::draw, Meanwhile::Page)
}

lazy! { page_drafts, fn drafts_page() {
    let session = crate::account::session::use_session();
    view! {
        <Title text=move || t::title_page(t::drafts_title().get()).get()/>
        <main id="main" class="page drafts">
            <PageHeading text=t::drafts_title()/>
            {move || match session.user() {
                Some(_) => view! { <DraftList/> }.into_any(),
                None => {
                    let href = crate::account::oauth::signin_href(&AppPath::Drafts.href());
                    view! { <p>{t::bookmarks_signed_out()} " " <A href=href>{t::sign_in()}</A></p> }.into_any()
                }
            }}
        </main>
    }
}}

/// The drafts, read again whenever one changes here or in another tab.
#[component]
fn DraftList() -> impl IntoView {
    let store = use_store();
    let changed = RwSignal::new(0u32);
    crate::browser::web_storage::on_change_elsewhere(move |name, _| {
        if name.starts_with("perch.draft.") {
            changed.update(|n| *n += 1);
        }
    });
    let drafts = Memo::new({
        let store = store.clone();
        move |_| {
            changed.track();
            store.drafts()
        }
    });
    // The posts replied to or edited that the store does not hold, read
    // once, so a draft says whom it answers.
    {
        let store = store.clone();
        let missing: Vec<String> = drafts
            .get_untracked()
            .into_iter()
            .filter_map(|(context, _, _)| match context {
                DraftContext::Reply(p) | DraftContext::Edit(p) => Some(p),
                DraftContext::New => None,
            })
            .filter(|p| store.post_untracked(p).is_none())
            .collect();
        if !missing.is_empty() && window().navigator().on_line() {
            while_shown(async move {
                for post in missing {
                    let _ = store.read_post(&post).await;
                }
            });
        }
    }
    let discarded = RwSignal::new(None::<(DraftContext, String, Vec<String>)>);
    let discard = Callback::new({
        let store = store.clone();
        move |(context, text): (DraftContext, String)| {
            let parts = store.writing(context.clone()).parts.get_untracked();
            store.discard_draft(context.clone());
            discarded.set(Some((context, text, parts)));
            changed.update(|n| *n += 1);
            crate::browser::dom::focus_later(crate::browser::dom::DomId::DraftUndo);
        }
    });
    let undo = {
        let store = store.clone();
        move |_| {
            if let Some((context, text, parts)) = discarded.get_untracked() {
                store.restore_draft(context, text, parts);
                discarded.set(None);
                changed.update(|n| *n += 1);
            }
        }
    };
    view! {
        <p class="note">{t::drafts_kept_here()}</p>
        {move || discarded.with(Option::is_some).then(|| view! {
            <p class="undo-bar" role="status">{t::draft_discarded()} " "
                <button type="button" class="secondary" id=crate::browser::dom::DomId::DraftUndo.to_string()
                    on:click=undo.clone()>{t::undo()}</button>
            </p>
        })}
        {move || drafts.with(Vec::is_empty).then(|| view! { <p class="empty">{t::no_drafts()}</p> })}
        <ul class="draft-list">
            {move || drafts.get().into_iter().map(|(context, text, at)| {
                view! { <DraftItem context text at discard store=store.clone()/> }
            }).collect_view()}
        </ul>
    }
}

/// One draft: what it is, its first words, how long ago, Continue and Discard.
#[component]
fn DraftItem(
    context: DraftContext,
    text: String,
    at: Option<u64>,
    discard: Callback<(DraftContext, String)>,
    store: Store,
) -> impl IntoView {
    let words: String = {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut cut: String = flat.chars().take(FIRST_WORDS).collect();
        if flat.chars().count() > FIRST_WORDS {
            cut.push('…');
        }
        cut
    };
    let what = match &context {
        DraftContext::New => view! { {t::draft_new()} }.into_any(),
        DraftContext::Reply(post) => {
            let author = store.post(post).map(|p| p.with_untracked(|p| p.author.username.clone()));
            // Drawn, not read once: the words follow a language switch.
            let what: crate::i18n::Text = match author {
                Some(name) => t::draft_reply_to(format!("@{name}")),
                None => t::draft_reply().into(),
            };
            view! { <a href=AppPath::Thread(post).href()>{what}</a> }.into_any()
        }
        DraftContext::Edit(post) => view! { <a href=AppPath::Thread(post).href()>{t::draft_edit()}</a> }.into_any(),
    };
    // A thread says how many posts it has.
    let thread = store.writing(context.clone()).parts.with_untracked(Vec::len);
    let thread =
        (thread > 0).then(|| view! { <span class="draft-thread">{t::thread_waiting(thread as u64 + 1)}</span> " " });
    let href = AppPath::continuing(&context).href();
    let when = at.map(|at| {
        let at = perch_model::Timestamp(at as i64);
        view! { <time datetime=at.to_rfc3339()>{move || crate::browser::clock::spoken(at, crate::browser::clock::now())}</time> }
    });
    let open = {
        let (store, context) = (store.clone(), context.clone());
        move |_| store.continuing_draft(&context)
    };
    let label = t::discard_draft(words.chars().take(40).collect::<String>());
    view! {
        <li class="draft">
            <p class="draft-what">{what} " " {thread} {when}</p>
            <p class="draft-words" dir="auto">{words}</p>
            <div class="actions">
                <a href=href class="button" on:click=open>{t::draft_continue()}</a>
                <button type="button" class="secondary" aria-label=label
                    on:click=move |_| discard.run((context.clone(), text.clone()))>{t::discard()}</button>
            </div>
        </li>
    }
}
