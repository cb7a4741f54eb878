//! "Add to list" beside a person (their profile, a Following list, the
//! "⋯" of their post): a
//! button that opens, below it, the account's lists as checkboxes (checked
//! where the person is a member; a change is kept at once and said), and a
//! field that makes a new list with the person on it. The panel is split
//! out with the lists' pages (`page_lists`); the button alone is here.

use crate::components::later::{later, lazy, Meanwhile};
use crate::i18n::t;
use crate::nav::AppPath;
use crate::store::lists::{self, use_lists, Change};
use leptos::prelude::*;
use leptos_router::components::A;

/// The button and, once opened, its panel.
#[component]
pub fn AddToList(uuid: String, username: String) -> impl IntoView {
    let open = RwSignal::new(false);
    let button = NodeRef::<leptos::html::Button>::new();
    let panel_id = format!("lists-for-{uuid}");
    let close = move || {
        open.set(false);
        if let Some(b) = button.get_untracked() {
            let _ = b.focus();
        }
    };
    view! {
        <div class="add-to-list" on:keydown=move |ev| if ev.key() == "Escape" && open.get_untracked() {
            // This panel closes, not a menu it is in.
            ev.stop_propagation();
            close()
        }>
            <button type="button" class="secondary" node_ref=button aria-expanded=move || open.get().to_string()
                aria-controls=panel_id.clone() on:click=move |_| open.update(|o| *o = !*o)>{t::add_to_list()}</button>
            {move || open.get().then(|| {
                let (uuid, username, id) = (uuid.clone(), username.clone(), panel_id.clone());
                later(list_choices::GROUP, list_choices::load, move || list_choices::draw(uuid.clone(), username.clone(), id.clone()), Meanwhile::Nothing)
            })}
        </div>
    }
}

lazy! { page_lists, fn list_choices(uuid: String, username: String, id: String) {
    view! { <ListChoices uuid username id/> }
} }

/// The account's lists for one person, and a new list with them.
#[component]
fn ListChoices(uuid: String, username: String, id: String) -> impl IntoView {
    let Some(lists) = use_lists() else { return ().into_any() };
    let handle = format!("@{username}");
    let said = RwSignal::new(None::<(bool, String)>);
    let new_name = RwSignal::new(String::new());
    let field = format!("{id}-new");
    let make = {
        let (uuid, handle) = (uuid.clone(), handle.clone());
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let Some(name) = lists::clean_name(&new_name.get_untracked()) else {
                said.set(Some((true, t::list_name_invalid().get())));
                return;
            };
            if lists.all_untracked().len() >= lists::MOST_LISTS {
                said.set(Some((true, t::too_many_lists().get())));
                return;
            }
            let list = lists::new_id(&lists.all_untracked());
            let made = lists.change(Change::Make { id: list.clone(), name: name.clone() })
                && lists.change(Change::Member { id: list, uuid: uuid.clone(), on: true });
            if made {
                new_name.set(String::new());
                said.set(Some((false, t::added_to_list(handle.clone(), name).get())));
            } else {
                said.set(Some((true, t::data_not_kept().get())));
            }
        }
    };
    let (panel, legend, label) = (id.clone(), t::lists_of(handle.clone()), t::new_list_with(handle.clone()));
    view! {
        <div class="list-choices" id=panel>
            <fieldset>
                <legend>{legend}</legend>
                {move || lists.all().is_empty().then(|| view! { <p class="empty">{t::no_lists_yet()}</p> })}
                <ul>
                    // Keyed: a change redraws no box, so the focus stays on the one pressed.
                    <For each=move || lists.all() key=|list| (list.id.clone(), list.name.clone()) let:list>
                        {
                            let box_id = format!("{id}-{}", list.id);
                            let on = {
                                let (list, uuid) = (list.id.clone(), uuid.clone());
                                move || lists.get(&list).is_some_and(|l| l.members.contains(&uuid))
                            };
                            let (uuid, handle) = (uuid.clone(), handle.clone());
                            let name = list.name.clone();
                            let toggle = move |ev: leptos::ev::Event| {
                                let on = event_target_checked(&ev);
                                let changed = lists.change(Change::Member { id: list.id.clone(), uuid: uuid.clone(), on });
                                let text = match (changed, on) {
                                    (false, _) if lists.failed.get_untracked() => (true, t::data_not_kept().get()),
                                    (_, true) => (false, t::added_to_list(handle.clone(), list.name.clone()).get()),
                                    (_, false) => (false, t::removed_from_list(handle.clone(), list.name.clone()).get()),
                                };
                                said.set(Some(text));
                            };
                            view! {
                                <li><input type="checkbox" id=box_id.clone() prop:checked=on on:change=toggle/>
                                    " " <label for=box_id dir="auto">{name}</label></li>
                            }
                        }
                    </For>
                </ul>
            </fieldset>
            <form class="row" on:submit=make>
                <label for=field.clone() class="visually-hidden">{label}</label>
                <input id=field type="text" maxlength=lists::LONGEST_NAME.to_string() autocomplete="off"
                    placeholder=t::new_list() prop:value=new_name on:input=move |ev| new_name.set(event_target_value(&ev))/>
                <button type="submit" class="secondary">{t::make_list()}</button>
            </form>
            <crate::components::states::Said said/>
            <p><A href=AppPath::Lists.href()>{t::all_lists()}</A></p>
        </div>
    }
    .into_any()
}
