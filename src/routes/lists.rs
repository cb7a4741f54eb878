//! `/lists` and `/lists/<id>`: the account's lists of people (kept in this
//! browser, `store/lists.rs`). `/lists` makes, renames, reorders and
//! deletes them (with Undo) and says how many new posts each has; a list's
//! page shows its members (add by @name, remove) and its timeline, which is
//! Home's code with the members as sources (`timeline::Feed::List`), shown
//! as Home's is (`components/timeline_view.rs`). Both pages, and "Add to
//! list", are the split module `page_lists`.
//!
//! Words: later.

use crate::account::session::use_session;
use crate::browser::dom::DomId;
use crate::browser::navigation::{PageHeading, Title};
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::timeline_view::TimelineView;
use crate::i18n::t;
use crate::nav::AppPath;
use crate::store::lists::{self, use_lists, Change, List, Lists};
use crate::store::use_store;
use crate::timeline::{Feed, HomeTimeline};
use leptos::prelude::*;
use leptos_router::components::A;
use std::cell::RefCell;
use std::collections::HashMap;

#[component]
pub fn ListsPage() -> impl IntoView {
    later(lists_page::GROUP, lists_page::load, lists_page::draw, Meanwhile::Page)
}

#[component]
pub fn OneListPage() -> impl IntoView {
    let id = crate::routes::param("id");
    // Its key among the kept pages (not an address: the id as it is).
    super::kept::showing(Memo::new(move |_| format!("/lists/{}", id.get())));
}

/// A list's page, drawn the first time it shows and kept while other pages
/// show (`kept.rs`).
pub fn kept_page(id: String) -> AnyView {
    later(list_page::GROUP, list_page::load, move || list_page::draw(id.clone()), Meanwhile::Page)
}

thread_local! {
    /// Each list's timeline, made when its page first opens and kept for
    /// the visit (going back finds it as it was, nothing read twice).
    static TIMELINES: RefCell<HashMap<String, HomeTimeline>> = RefCell::default();
}

/// The timeline of `list`, made the first time.
fn timeline_of(list: &List) -> HomeTimeline {
    if let Some(made) = TIMELINES.with(|t| t.borrow().get(&list.id).cloned()) {
        return made;
    }
    let session = use_session();
    let made = HomeTimeline::of_list(use_store(), session, list.id.clone(), list.members.clone());
    TIMELINES.with(|t| t.borrow_mut().insert(list.id.clone(), made.clone()));
    made
}

/// How many posts of `list` are newer than the newest it showed: its
/// timeline's count when it ran this visit, else what the store holds of
/// its members (read by Home, a profile…) after the list's reading
/// position. `None` for a list never read here.
fn new_posts_of(list: &List, me: &str) -> Option<usize> {
    if let Some(timeline) = TIMELINES.with(|t| t.borrow().get(&list.id).cloned()) {
        if timeline.state.with(|s| s.started()) {
            return Some(timeline.state.with(|s| s.new_count()));
        }
    }
    let newest = crate::timeline::reading::saved(me, &Feed::List(list.id.clone()))?.newest?;
    let store = use_store();
    let newer = store
        .every_post_untracked()
        .into_iter()
        .filter(|p| list.members.contains(&p.author.uuid))
        .filter(|p| p.created_at.is_some_and(|at| at.0 > newest.at) && !store.is_deleted(&p.uuid))
        .count();
    Some(newer)
}

lazy! { page_lists, fn lists_page() {
    let session = use_session();
    view! {
        <Title text=move || t::title_page(t::lists_title().get()).get()/>
        <main id="main" class="page lists">
            <PageHeading text=t::lists_title()/>
            {move || match (session.user(), use_lists()) {
                (Some(me), Some(lists)) => view! { <AllLists lists me=me.uuid/> }.into_any(),
                _ => {
                    let href = crate::account::oauth::signin_href(&AppPath::Lists.href());
                    view! { <p>{t::lists_signed_out()} " " <A href=href>{t::sign_in()}</A></p> }.into_any()
                }
            }}
        </main>
    }
}}

/// Every list, with the form that makes one and Undo after a delete.
#[component]
fn AllLists(lists: Lists, me: String) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let said = RwSignal::new(None::<(bool, String)>);
    let deleted = RwSignal::new(None::<(List, usize)>);
    let make = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(clean) = lists::clean_name(&name.get_untracked()) else {
            said.set(Some((true, t::list_name_invalid().get())));
            return;
        };
        let id = lists::new_id(&lists.all_untracked());
        if lists.all_untracked().len() >= lists::MOST_LISTS {
            said.set(Some((true, t::too_many_lists().get())));
        } else if lists.change(Change::Make { id, name: clean.clone() }) {
            name.set(String::new());
            said.set(Some((false, t::list_made(clean).get())));
        } else {
            said.set(Some((true, t::data_not_kept().get())));
        }
    };
    let delete = Callback::new(move |(list, at): (List, usize)| {
        if lists.change(Change::Delete(list.id.clone())) {
            deleted.set(Some((list, at)));
            said.set(None);
            crate::browser::dom::focus_later(DomId::ListUndo);
        }
    });
    let undo = move |_| {
        if let Some((list, at)) = deleted.get_untracked() {
            let id = list.id.clone();
            if lists.change(Change::Restore { list, at }) {
                deleted.set(None);
                crate::browser::dom::focus_later(DomId::ListLink(&id));
            }
        }
    };
    view! {
        <p class="note">{t::lists_kept_here()}</p>
        <form class="new-list" on:submit=make>
            <label for="new-list-name">{t::new_list()}</label>
            <div class="row">
                <input id="new-list-name" type="text" maxlength=lists::LONGEST_NAME.to_string() autocomplete="off"
                    prop:value=name on:input=move |ev| name.set(event_target_value(&ev))/>
                <button type="submit">{t::make_list()}</button>
            </div>
        </form>
        <crate::components::states::Said said/>
        {move || deleted.get().map(|(list, _)| view! {
            <p class="undo-bar" role="status">{t::list_deleted(list.name)} " "
                <button type="button" class="secondary" id=DomId::ListUndo.to_string() on:click=undo>{t::undo()}</button>
            </p>
        })}
        {move || lists.failed.get().then(|| view! { <p class="error" role="alert">{t::data_not_kept()}</p> })}
        {move || lists.all().is_empty().then(|| view! { <p class="empty">{t::no_lists_yet()}</p> })}
        <ol class="list-of-lists">
            {move || {
                let all = lists.all();
                let last = all.len().saturating_sub(1);
                all.into_iter().enumerate().map(|(at, list)| {
                    view! { <ListRow list at last lists me=me.clone() delete/> }
                }).collect_view()
            }}
        </ol>
    }
}

/// One list on `/lists`: its name (a link), how many people and new
/// posts, Rename, Move up and down, Delete.
#[component]
fn ListRow(
    list: List,
    at: usize,
    last: usize,
    lists: Lists,
    me: String,
    delete: Callback<(List, usize)>,
) -> impl IntoView {
    let renaming = RwSignal::new(false);
    let new_name = RwSignal::new(list.name.clone());
    let unread = new_posts_of(&list, &me).filter(|n| *n > 0);
    let (id, name) = (list.id.clone(), list.name.clone());
    let rename = {
        let id = id.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let Some(clean) = lists::clean_name(&new_name.get_untracked()) else { return };
            lists.change(Change::Rename { id: id.clone(), name: clean });
            renaming.set(false);
            crate::browser::dom::focus_later(DomId::ListLink(&id));
        }
    };
    let moving = {
        let id = id.clone();
        move |by: i32| {
            let id = id.clone();
            move |_| {
                if lists.change(Change::Move { id: id.clone(), by }) {
                    // The focus follows the button to the row's new place,
                    // or goes to the other one where this one is now off.
                    let now = at as i32 + by;
                    let up = if now == 0 || now == last as i32 { now != 0 } else { by < 0 };
                    crate::browser::dom::focus_later(DomId::ListMove(&id, up));
                }
            }
        }
    };
    let field = DomId::ListName(&id).to_string();
    view! {
        <li class="list-row">
            {let (id, shown, people) = (id.clone(), name.clone(), list.members.len() as u64); move || if renaming.get() {
                let field = field.clone();
                view! {
                    <form class="rename-list" on:submit=rename.clone()>
                        <label for=field.clone() class="visually-hidden">{t::list_name()}</label>
                        <input id=field type="text" maxlength=lists::LONGEST_NAME.to_string() autocomplete="off"
                            prop:value=new_name on:input=move |ev| new_name.set(event_target_value(&ev))
                            on:keydown=move |ev| if ev.key() == "Escape" { renaming.set(false) }/>
                        <button type="submit">{t::save()}</button>
                        <button type="button" class="secondary" on:click=move |_| renaming.set(false)>{t::cancel()}</button>
                    </form>
                }.into_any()
            } else {
                let shown = shown.clone();
                view! {
                    <p class="list-title">
                        <A href=AppPath::List(&id).href() attr:id=DomId::ListLink(&id).to_string() attr:class="list-link">
                            <span dir="auto">{shown}</span>
                        </A>
                        " " <span class="list-count">{t::people_count(people)}</span>
                        {unread.map(|n| view! { " " <span class="list-unread">{t::new_posts(n as u64)}</span> })}
                    </p>
                }.into_any()
            }}
            <div class="actions">
                <button type="button" class="secondary" aria-label=t::rename_list(list.name.clone())
                    on:click=move |_| {
                        renaming.set(true);
                        crate::browser::dom::focus_later(DomId::ListName(&list.id));
                    }>{t::rename()}</button>
                <button type="button" class="secondary" id=DomId::ListMove(&id, true).to_string() aria-label=t::move_list_up(name.clone())
                    disabled=at == 0 on:click=moving(-1)>"↑"</button>
                <button type="button" class="secondary" id=DomId::ListMove(&id, false).to_string() aria-label=t::move_list_down(name.clone())
                    disabled=at == last on:click=moving(1)>"↓"</button>
                <button type="button" class="secondary" aria-label=t::delete_list(name.clone())
                    on:click={
                        let list = List { id: id.clone(), name: name.clone(), members: list.members.clone() };
                        move |_| delete.run((list.clone(), at))
                    }>{t::delete()}</button>
            </div>
        </li>
    }
}

lazy! { page_lists, fn list_page(id: String) {
    let session = use_session();
    // The page is drawn again when its list goes (deleted in another tab)
    // or comes back (Undo), not at every change of it.
    let here = Memo::new({
        let id = id.clone();
        move |_| use_lists().is_some_and(|lists| lists.get(&id).is_some())
    });
    move || match (session.user(), use_lists()) {
        (Some(_), Some(lists)) => {
            // Read, not only tracked: a memo computes when read, and one
            // never computed follows nothing.
            let _present = here.get();
            view! { <OneList lists id=id.clone()/> }.into_any()
        }
        _ => view! {
            <main id="main" class="page list">
                <PageHeading text=t::lists_title()/>
                <p>{t::lists_signed_out()} " " <A href=crate::account::oauth::signin_href(&AppPath::Lists.href())>{t::sign_in()}</A></p>
            </main>
        }.into_any(),
    }
}}

/// One list's page: its members, then its timeline.
#[component]
fn OneList(lists: Lists, id: String) -> impl IntoView {
    let list = Memo::new({
        let id = id.clone();
        move |_| lists.get(&id)
    });
    // Kept while other pages show (`kept.rs`): the tab's title is its own
    // only while it shows.
    let shown = crate::routes::kept::shown(&format!("/lists/{id}"));
    let Some(first) = list.get_untracked() else {
        return view! {
            {move || shown.get().then(|| view! { <Title text=move || t::title_page(t::list_not_found().get()).get()/> })}
            <main id="main" class="page list">
                <PageHeading text=t::list_not_found()/>
                <p>{t::list_not_here()}</p>
                <p><A href=AppPath::Lists.href()>{t::all_lists()}</A></p>
            </main>
        }
        .into_any();
    };
    let timeline = timeline_of(&first);
    // Members added or removed (here, from a profile, in another tab)
    // join or leave the timeline as they change.
    Effect::new({
        let timeline = timeline.clone();
        move |_| {
            if let Some(list) = list.get() {
                timeline.set_members(list.members);
            }
        }
    });
    let name = Signal::derive(move || list.with(|l| l.as_ref().map(|l| l.name.clone())).unwrap_or_default());
    let new_posts = crate::components::timeline_view::new_posts_shown(&timeline);
    let empty_list = || view! { <p class="empty">{t::list_empty()}</p> };
    view! {
        {move || shown.get().then(|| view! {
            <Title text=move || match new_posts.get() {
                0 => t::title_page(name.get()).get(),
                n => format!("({}) {}", crate::i18n::number(n as u64), t::title_page(name.get()).get()),
            }/>
        })}
        <main id="main" class="page list">
            <PageHeading text=name/>
            <p class="list-meta">
                {move || t::people_count(list.with(|l| l.as_ref().map_or(0, |l| l.members.len())) as u64).get()}
                " · " <A href=AppPath::Lists.href()>{t::all_lists()}</A>
            </p>
            <Members lists id=id.clone() list/>
            <HideReplies feed=Feed::List(id.clone())/>
            <section aria-labelledby="list-timeline-heading">
                <h2 id="list-timeline-heading" class="visually-hidden">{t::list_posts()}</h2>
                {move || list.with(|l| l.is_some()).then(|| view! {
                    <TimelineView timeline=timeline.clone() no_sources=empty_list shown/>
                })}
            </section>
        </main>
    }
    .into_any()
}

/// A list's own choice to hide replies (`timeline/replies.rs`; Home's is
/// in the settings).
#[component]
fn HideReplies(feed: Feed) -> impl IntoView {
    let me = use_session().signed_untracked().map(|s| s.user.uuid).unwrap_or_default();
    let hidden = {
        let (me, feed) = (me.clone(), feed.clone());
        move || crate::timeline::replies::hidden(&me, &feed)
    };
    let said = RwSignal::new(None::<(bool, String)>);
    let change = move |ev: leptos::ev::Event| {
        if !crate::timeline::replies::set_hidden(&me, &feed, event_target_checked(&ev)) {
            said.set(Some((true, t::data_not_kept().get())));
        }
    };
    view! {
        <p class="list-options">
            <label class="switch"><input type="checkbox" prop:checked=hidden on:change=change/>" " {t::hide_replies_list()}</label>
        </p>
        <crate::components::states::Said said/>
    }
}

/// The people on a list, in a disclosure: each with Remove, and a field
/// that adds someone by @name.
#[component]
fn Members(lists: Lists, id: String, list: Memo<Option<List>>) -> impl IntoView {
    let store = use_store();
    let members = Memo::new(move |_| list.with(|l| l.as_ref().map(|l| l.members.clone()).unwrap_or_default()));
    // People the list names by uuid alone get their names from the server.
    Effect::new({
        let store = store.clone();
        move |_| store.resolve_users(&members.get())
    });
    let who = RwSignal::new(String::new());
    let said = RwSignal::new(None::<(bool, String)>);
    let busy = RwSignal::new(false);
    // Open while the list is empty, and from the moment the person works in
    // it: adding the first person must not close what they are doing, nor
    // hide what was said about it (read out by its live region).
    let working = RwSignal::new(false);
    let field = NodeRef::<leptos::html::Input>::new();
    // Back in the field once someone is added or removed (the removed row
    // and its button are gone), so the next name can be typed at once.
    let to_field = move || {
        if let Some(field) = field.get_untracked() {
            let _ = field.focus();
        }
    };
    let removed = Callback::new(move |(handle, list_name): (String, String)| {
        working.set(true);
        said.set(Some((false, t::removed_from_list(handle, list_name).get())));
        to_field();
    });
    let add = {
        let (store, id) = (store.clone(), id.clone());
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            working.set(true);
            let typed = who.get_untracked().trim().trim_start_matches('@').to_owned();
            if typed.is_empty() || busy.get_untracked() {
                return;
            }
            busy.set(true);
            let (store, id) = (store.clone(), id.clone());
            crate::nav::while_shown(async move {
                let found = store.read_user(&format!("@{typed}")).await;
                let _ = busy.try_set(false);
                match found {
                    Ok(uuid) => {
                        let list_name = lists.get_untracked_name(&id);
                        if lists.change(Change::Member { id, uuid, on: true }) {
                            who.set(String::new());
                            said.set(Some((false, t::added_to_list(format!("@{typed}"), list_name).get())));
                            to_field();
                        } else {
                            said.set(Some((false, t::already_on_list(format!("@{typed}")).get())));
                        }
                    }
                    Err(e) if e.is_not_found() => {
                        said.set(Some((true, t::no_such_user(format!("@{typed}")).get())));
                    }
                    Err(e) => said.set(Some((true, e.explain().get()))),
                }
            });
        }
    };
    view! {
        <details class="list-members" open=move || working.get() || members.with(Vec::is_empty)>
            <summary>{t::list_members()} " (" {move || crate::i18n::number(members.with(Vec::len) as u64)} ")"</summary>
            <ul class="user-list">
                <For each=move || members.get() key=|uuid| uuid.clone() let:uuid>
                    <li><Member lists id=id.clone() uuid removed/></li>
                </For>
            </ul>
            <form class="add-to-this-list" on:submit=add>
                <label for="list-add-person">{t::add_person_to_list()}</label>
                <div class="row">
                    <input id="list-add-person" node_ref=field type="text" autocomplete="off" spellcheck="false" placeholder="@"
                        prop:value=who on:input=move |ev| who.set(event_target_value(&ev))/>
                    <button type="submit" disabled=move || busy.get()>{t::add_person()}</button>
                </div>
            </form>
            <crate::components::states::Said said/>
        </details>
    }
}

impl Lists {
    /// A list's name, untracked ("" when it is gone).
    fn get_untracked_name(&self, id: &str) -> String {
        self.all_untracked().into_iter().find(|l| l.id == id).map(|l| l.name).unwrap_or_default()
    }
}

/// One member: who they are (once known) and Remove, which says whom it
/// took off (`removed`: their @name and the list's name).
#[component]
fn Member(lists: Lists, id: String, uuid: String, removed: Callback<(String, String)>) -> impl IntoView {
    let store = use_store();
    let user = {
        let uuid = uuid.clone();
        Memo::new(move |_| store.user(&uuid).map(|u| u.get()))
    };
    let handle = {
        let uuid = uuid.clone();
        move || user.with(|u| u.as_ref().map(|u| format!("@{}", u.username))).unwrap_or_else(|| uuid.clone())
    };
    let remove = {
        let (uuid, handle) = (uuid.clone(), handle.clone());
        move |_| {
            // Read before the change, which lets this row go.
            let said = (handle(), lists.get_untracked_name(&id));
            if lists.change(Change::Member { id: id.clone(), uuid: uuid.clone(), on: false }) {
                removed.run(said);
            }
        }
    };
    view! {
        <div class="user-card">
            {move || match user.get() {
                Some(u) => {
                    let name = u.shown_name().to_owned();
                    view! {
                        <crate::components::avatar::Avatar src=u.avatar.clone() name=name.clone()/>
                        <a href=AppPath::Profile(&u.username).href() class="author">
                            <span class="display-name" dir="auto">{name}</span> " " <span class="handle">{format!("@{}", u.username)}</span>
                        </a>
                    }.into_any()
                }
                None => view! { <a href=AppPath::ProfileByUuid(&uuid).href()>{uuid.clone()}</a> }.into_any(),
            }}
            <button type="button" class="secondary" aria-label=move || t::remove_from_list(handle()).get()
                on:click=remove>{t::remove()}</button>
        </div>
    }
}
