//! What waits in the outbox, shown where it was made (`store/outbox/`
//! keeps and sends it): waiting posts and replies as cards marked
//! "Waiting to send", which can be edited, replied to or discarded (a
//! thread's parts as one card); the
//! mark on a post whose edit or deletion waits; the header's count, which
//! opens the list of everything waiting (`routes/outbox.rs`).

use super::counter::{content_problem, Counter};
use super::later::{later, lazy, Meanwhile};
use super::post_content::PostContent;
use crate::account::session::use_session;
use crate::i18n::t;
use crate::nav::AppPath;
use crate::store::outbox::{Action, Waiting, LOCAL};
use crate::store::use_store;
use leptos::prelude::*;
use leptos_router::components::A;
use perch_model::{validate_content, Parent, Post};

/// The waiting posts under `root` (a thread's post; Home: top-level ones),
/// each followed by the waiting replies to it.
#[component]
pub fn WaitingPosts(#[prop(optional)] root: Option<String>) -> impl IntoView {
    let waiting: Signal<Vec<Waiting>> = use_store().waiting().into();
    let under = Memo::new(move |_| {
        waiting.with(|list| posts_under(list, root.as_deref()).into_iter().map(|w| w.key).collect::<Vec<_>>())
    });
    // A long backlog shows its first cards here, and the rest in the list.
    let keys = move || under.with(|keys| keys.iter().take(SHOWN_HERE).cloned().collect::<Vec<_>>());
    let more = move || under.with(Vec::len).saturating_sub(SHOWN_HERE) as u64;
    view! {
        <For each=keys key=|k| k.clone() let:key>
            <WaitingPost key/>
        </For>
        {move || (more() > 0).then(|| view! {
            <p class="more-waiting"><A href=AppPath::Outbox.href()>{t::more_waiting(more())}</A></p>
        })}
    }
}

/// At most this many waiting posts are drawn where they were written.
const SHOWN_HERE: usize = 20;

/// Why an action is not sent yet, in words.
fn state_of(w: &Waiting) -> String {
    match &w.refused {
        Some(refusal) => t::not_sent(refusal.error().explain().get()).get(),
        None => t::waiting_to_send().get(),
    }
}

/// One waiting post or reply, as a card.
#[component]
pub fn WaitingPost(key: String) -> impl IntoView {
    let (store, session) = (use_store(), use_session());
    let waiting = store.waiting();
    let entry = Memo::new({
        let key = key.clone();
        move |_| waiting.with(|list| list.iter().find(|w| w.key == key).cloned())
    });
    let editing = RwSignal::new(false);
    let replying = RwSignal::new(false);
    move || {
        let me = session.user()?;
        let w = entry.get()?;
        if let Some(part) = w.part() {
            let first = part.first.clone();
            return Some(
                later(
                    waiting_thread::GROUP,
                    waiting_thread::load,
                    move || waiting_thread::draw(first.clone()),
                    Meanwhile::Nothing,
                )
                .into_any(),
            );
        }
        let post = waiting_post(&w, &me)?;
        let name = me.shown_name().to_owned();
        let key = w.key.clone();
        let parent = post.parent.uuid().map(str::to_owned);
        let replying_to = parent.map(|p| match p.starts_with(LOCAL) {
            true => view! { <p class="replying-to">{t::replying_to_waiting()}</p> }.into_any(),
            false => view! {
                <p class="replying-to">{t::replying_to_prefix_post()} " " <a href=AppPath::Thread(&p).href()>{t::a_post()}</a></p>
            }
            .into_any(),
        });
        let refused = w.refused.is_some();
        let (s1, s2) = (store.clone(), store.clone());
        let (k1, k2, k3) = (key.clone(), key.clone(), key.clone());
        let content = post.content.clone();
        let locked = post.locked;
        Some(view! {
            <article class="post waiting" data-waiting=key.clone() aria-label=t::waiting_to_send()>
                <header class="post-head">
                    <super::avatar::Avatar src=me.avatar.clone() name=name.clone()/>
                    <span class="author"><span class="display-name" dir="auto">{name}</span> " " <span class="handle">{format!("@{}", me.username)}</span></span>
                </header>
                {replying_to}
                {move || match editing.get() {
                    true => view! { <WaitingEditor key=k1.clone() text=content.clone() locked editing/> }.into_any(),
                    false => view! { <PostContent content=content.clone()/> }.into_any(),
                }}
                <footer class="post-meta">
                    <span class="waiting-mark" class:refused=refused>{state_of(&w)}</span>
                    {refused.then(|| view! { <button type="button" class="link-button" on:click=move |_| s1.retry_waiting(&k2)>{t::retry()}</button> })}
                    <button type="button" class="link-button" on:click=move |_| editing.set(true)>{t::edit()}</button>
                    {(!locked).then(|| view! {
                        <button type="button" class="link-button" aria-expanded=move || replying.get().to_string()
                            on:click=move |_| replying.update(|r| *r = !*r)>{t::reply()}</button>
                    })}
                    {match w.held() {
                        true => view! { <button type="button" class="link-button" on:click=move |_| s2.undo_waiting(&k3)>{t::undo()}</button> }.into_any(),
                        false => view! { <button type="button" class="link-button" on:click=move |_| s2.discard_waiting(&k3)>{t::discard()}</button> }.into_any(),
                    }}
                </footer>
                {move || replying.get().then(|| view! {
                    <super::composer::Composer parent=post.uuid.clone()/>
                })}
            </article>
        }.into_any())
    }
}

lazy! { composing, fn waiting_thread(first: String) { view! { <WaitingThread first/> } } }

/// The parts of a thread still waiting, as one card (split out with
/// `composing` until a thread waits): how many of the thread are sent, each
/// part's text and state (a refused one with why, and Edit), Retry for a
/// refused part, and Undo (held) or Discard, which takes every part still
/// waiting.
#[component]
fn WaitingThread(first: String) -> impl IntoView {
    let (store, session) = (use_store(), use_session());
    let waiting: Signal<Vec<Waiting>> = store.waiting().into();
    let parts = Memo::new(move |_| {
        waiting.with(|list| {
            list.iter().filter(|w| w.part().is_some_and(|p| p.first == first)).cloned().collect::<Vec<_>>()
        })
    });
    move || {
        let me = session.user()?;
        let parts = parts.get();
        let head = parts.first()?.clone();
        let of = head.part()?.of;
        let sent = head.part()?.index - 1;
        let name = me.shown_name().to_owned();
        let refused = parts.iter().find(|w| w.refused.is_some()).map(|w| w.key.clone());
        let (s1, s2, k) = (store.clone(), store.clone(), head.key.clone());
        let held = head.held();
        let each = parts.into_iter().map(|w| {
            let part = w.part().cloned()?;
            let Action::Post { content, locked, .. } = w.action.clone() else { return None };
            let editing = RwSignal::new(false);
            let key = w.key.clone();
            Some(view! {
                <li data-waiting=w.key.clone()>
                    <p class="part-label">{t::thread_part(u64::from(part.of), crate::i18n::number(part.index.into()))}</p>
                    {move || match editing.get() {
                        true => view! { <WaitingEditor key=key.clone() text=content.clone() locked editing/> }.into_any(),
                        false => view! { <PostContent content=content.clone()/> }.into_any(),
                    }}
                    <p class="post-meta">
                        <span class="waiting-mark" class:refused=w.refused.is_some()>{state_of(&w)}</span>
                        <button type="button" class="link-button" on:click=move |_| editing.set(true)>{t::edit()}</button>
                    </p>
                </li>
            })
        }).collect_view();
        Some(view! {
            <article class="post waiting thread-waiting" data-thread=head.part()?.first.clone() aria-label=t::thread_waiting(u64::from(of))>
                <header class="post-head">
                    <super::avatar::Avatar src=me.avatar.clone() name=name.clone()/>
                    <span class="author"><span class="display-name" dir="auto">{name}</span> " " <span class="handle">{format!("@{}", me.username)}</span></span>
                </header>
                <p class="thread-note">{t::thread_waiting(u64::from(of))} ". " {t::thread_sent(u64::from(of), crate::i18n::number(sent.into()))}</p>
                <ol class="thread-parts">{each}</ol>
                <footer class="post-meta">
                    {refused.map(|r| view! { <button type="button" class="link-button" on:click=move |_| s1.retry_waiting(&r)>{t::retry()}</button> })}
                    {match held {
                        true => view! { <button type="button" class="link-button" on:click=move |_| s2.undo_thread(&k)>{t::undo()}</button> }.into_any(),
                        false => view! { <button type="button" class="link-button" on:click=move |_| s2.discard_waiting(&k)>{t::discard()}</button> }.into_any(),
                    }}
                </footer>
            </article>
        }.into_any())
    }
}

/// Changes a waiting post's or edit's text: what will be sent, not a
/// second request.
#[component]
pub fn WaitingEditor(key: String, text: String, locked: bool, editing: RwSignal<bool>) -> impl IntoView {
    let store = use_store();
    let field_id = format!("waiting-text-{key}");
    let counter_id = format!("waiting-count-{key}");
    let text = RwSignal::new(text);
    let locked = RwSignal::new(locked);
    let field = NodeRef::<leptos::html::Textarea>::new();
    let typed = Callback::new(move |value: String| text.set(value));
    let invalid = move || text.with(|t| validate_content(t).err());
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if invalid().is_none() {
            store.change_waiting(&key, text.get_untracked(), locked.get_untracked());
            editing.set(false);
        }
    };
    view! {
        <form class="edit-form" on:submit=save>
            <label for=field_id.clone()>{t::edit_post_text()}</label>
            <div class="mention-field">
                <textarea node_ref=field id=field_id dir="auto" rows="4" aria-describedby=counter_id.clone() prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                <super::mention::MentionSlot field text=Signal::from(text) typed/>
            </div>
            <div class="composer-row">
                <Counter text id=counter_id/>
                <label class="switch"><input type="checkbox" prop:checked=move || locked.get() on:change=move |ev| locked.set(event_target_checked(&ev))/>" " {t::locked_switch()}</label>
                <button type="submit" disabled=move || invalid().is_some()>{t::save()}</button>
                <button type="button" class="secondary" on:click=move |_| editing.set(false)>{t::cancel()}</button>
            </div>
            {move || invalid().map(|e| view! { <p class="error">{content_problem(&e)}</p> })}
        </form>
    }
}

/// On the account's post: its edit or deletion waits (or was refused),
/// with Undo (or Retry and Discard).
#[component]
pub fn WaitingMark(uuid: String) -> impl IntoView {
    let store = use_store();
    let entry = Memo::new({
        let store = store.clone();
        move |_| store.waiting_on(&uuid).filter(|w| matches!(w.action, Action::Edit { .. } | Action::Delete { .. }))
    });
    move || {
        let w = entry.get()?;
        let what = match w.action {
            Action::Delete { .. } => t::delete_waiting(),
            _ => t::edit_waiting(),
        };
        let refused = w.refused.is_some();
        let (s1, s2, k1, k2) = (store.clone(), store.clone(), w.key.clone(), w.key.clone());
        Some(view! {
            <span class="waiting-mark" class:refused=refused role="status">
                {what} {w.refused.as_ref().map(|_| format!(" · {}", state_of(&w)))}
            </span>
            {refused.then(|| view! { <button type="button" class="link-button" on:click=move |_| s1.retry_waiting(&k1)>{t::retry()}</button> })}
            <button type="button" class="link-button" on:click=move |_| s2.discard_waiting(&k2)>
                {if refused { t::discard() } else { t::undo() }}
            </button>
        })
    }
}

/// The header's count of waiting actions, a link to their list.
#[component]
pub fn WaitingCount() -> impl IntoView {
    let waiting: Signal<Vec<Waiting>> = use_store().waiting().into();
    // A thread counts once, as it shows.
    let count = move || waiting.with(|list| one_per_thread(list).count()) as u64;
    let shown = Memo::new(move |_| count() > 0);
    move || {
        shown.get().then(|| {
            view! {
                <A href=AppPath::Outbox.href() attr:class="waiting-count" attr:aria-label=move || t::waiting_count_label(count()).get()>
                    {move || t::waiting_count(count()).get()}
                </A>
            }
        })
    }
}

/// The waiting posts to show under `root` (a thread's post, or `None`
/// for Home: top-level ones), with the waiting replies to them, in order.
/// A thread shows once, as its first part still waiting, where it was
/// written (even once its first parts are sent).
pub fn posts_under(list: &[Waiting], root: Option<&str>) -> Vec<Waiting> {
    let mut shown: Vec<Waiting> = Vec::new();
    for w in one_per_thread(list) {
        let Action::Post { parent, part, .. } = &w.action else { continue };
        if let Some(part) = part {
            if part.under.as_deref() == root {
                shown.push(w.clone());
            }
            continue;
        }
        let under = match parent.as_deref() {
            p if p == root => true,
            Some(p) => shown.iter().any(|s| s.post_id() == Some(p)),
            None => false,
        };
        if under {
            shown.push(w.clone());
        }
    }
    shown
}

/// The waiting actions as they show: a thread once, as its first part
/// still waiting; anything else as it is. In order, in one pass.
pub fn one_per_thread(list: &[Waiting]) -> impl Iterator<Item = &Waiting> {
    let mut seen = std::collections::HashSet::new();
    list.iter().filter(move |w| w.part().is_none_or(|p| seen.insert(p.first.as_str())))
}

/// The author a waiting post shows: the account.
pub fn waiting_post(w: &Waiting, me: &perch_model::User) -> Option<Post> {
    let Action::Post { id, content, locked, parent, .. } = &w.action else { return None };
    Some(Post {
        uuid: id.clone(),
        parent: parent.clone().map_or(Parent::None, Parent::Uuid),
        author: me.clone(),
        content: content.clone(),
        from: None,
        locked: *locked,
        reply_count: 0,
        like_count: 0,
        created_at: None,
        liked: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(id: &str, parent: Option<&str>) -> Waiting {
        let action = Action::Post {
            id: id.into(),
            content: format!("text of {id}"),
            locked: false,
            parent: parent.map(Into::into),
            part: None,
        };
        Waiting { key: format!("k-{id}"), action, made: 1, tried: None, tries: 0, after: 0, refused: None }
    }

    #[test]
    fn a_thread_shows_its_waiting_replies_and_theirs_in_order_and_home_its_top_level_posts() {
        let a = format!("{LOCAL}a");
        let list =
            vec![post(&a, None), post("r1", Some("thread")), post("r2", Some(&a)), post("other", Some("elsewhere"))];
        let keys = |root| posts_under(&list, root).into_iter().map(|w| w.key).collect::<Vec<_>>();
        assert_eq!(keys(None), vec![format!("k-{a}"), "k-r2".to_owned()]);
        assert_eq!(keys(Some("thread")), vec!["k-r1".to_owned()]);
        assert_eq!(keys(Some("nowhere")), Vec::<String>::new());
    }

    #[test]
    fn a_thread_shows_once_where_it_was_written_as_its_first_part_still_waiting() {
        let texts = ["a", "b", "c"].map(String::from);
        let mut n = 0;
        let mut key = || {
            n += 1;
            format!("t{n}")
        };
        let mut list = crate::store::thread::thread_of(&texts, false, None, 1, false, &mut key);
        list.extend(crate::store::thread::thread_of(&texts[..2], false, Some("p".into()), 1, false, &mut key));
        let keys = |list: &[Waiting], root| posts_under(list, root).into_iter().map(|w| w.key).collect::<Vec<_>>();
        assert_eq!(keys(&list, None), vec!["t1"]);
        assert_eq!(keys(&list, Some("p")), vec!["t4"]);
        // Its first part sent: the rest still show on Home, as one.
        list.remove(0);
        assert_eq!(keys(&list, None), vec!["t2"]);
        let keys: Vec<&str> = one_per_thread(&list).map(|w| w.key.as_str()).collect();
        assert_eq!(keys, ["t2", "t4"]);
    }
}
