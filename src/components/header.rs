//! The site header: the skip link, the name, the navigation and the account
//! menu (who is signed in, what the token allows, the other accounts signed
//! in here with Switch, Add an account, sign out of one or all; split out
//! of the main module until first opened), and Find someone on its own row.

use crate::account::session::use_session;
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::sign_out::SignOutButton;
use crate::i18n::t;
use crate::nav::{here, AppPath};
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn SiteHeader() -> impl IntoView {
    let session = use_session();
    view! {
        <a class="skip-link" href="#main">{t::skip_to_content()}</a>
        <header class="site-header">
            <A href=AppPath::Home.href() attr:class="brand">"Perch"</A>
            <nav aria-label=t::nav_main()>
                <ul>
                    <li><A href=AppPath::Home.href()>{t::nav_home()}</A></li>
                    {move || match session.user() {
                        Some(user) => view! {
                            <li><A href=AppPath::Profile(&user.username).href()>{t::nav_profile()}</A></li>
                            <li><ActivityLink account=user.uuid.clone()/></li>
                            <li><A href=AppPath::Search.href() attr:class="search-link">{t::search_title()}</A></li>
                            <crate::components::waiting::WaitingCount/>
                            <li><AccountMenu/></li>
                        }.into_any(),
                        None => {
                            let location = leptos_router::hooks::use_location();
                            let href = move || crate::account::oauth::signin_href(&here(&location.pathname.get(), &location.search.get()));
                            view! { <li><A href=href>{t::sign_in()}</A></li> }.into_any()
                        }
                    }}
                </ul>
            </nav>
            <crate::components::find_person::FindPerson name=t::find_someone() id="find-someone" label=t::username_to_find() hide_label=true/>
        </header>
    }
}

/// Activity, with the account's unread count; its name says the count to
/// assistive technology.
#[component]
fn ActivityLink(account: String) -> impl IntoView {
    let unread = crate::store::activity::use_unread();
    let count = Memo::new(move |_| unread.map_or(0, |u| u.of(&account)));
    view! {
        <A href=AppPath::Activity.href() attr:class="activity-link"
            attr:aria-label=move || (count.get() > 0).then(|| t::activity_unread_label(u64::from(count.get())).get())>
            {t::nav_activity()}
            {move || (count.get() > 0).then(|| view! { <span class="unread-count" aria-hidden="true">{count.get()}</span> })}
        </A>
    }
}

/// The account menu: a `<details>` whose panel is split out of the main
/// module (`account_panel`), drawn when it is first opened and kept after.
#[component]
fn AccountMenu() -> impl IntoView {
    let session = use_session();
    let user = session.user().unwrap_or_default();
    let opened = RwSignal::new(false);
    let menu = NodeRef::<leptos::html::Details>::new();
    let handle = format!("@{}", user.username);
    let close = move |focus_summary: bool| {
        let Some(m) = menu.get_untracked().filter(|m| m.open()) else { return };
        m.set_open(false);
        if focus_summary {
            if let Some(summary) =
                m.first_element_child().and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
            {
                let _ = summary.focus();
            }
        }
    };
    // It closes when a page is chosen in it (or anywhere), on Escape, and
    // on a click outside it: it never stays open over the next page.
    let location = leptos_router::hooks::use_location();
    Effect::new(move |_| {
        location.pathname.track();
        location.search.track();
        close(false);
    });
    let outside = window_event_listener(leptos::ev::click, move |ev| {
        let inside = menu.get_untracked().zip(ev.target()).is_some_and(|(m, t)| {
            wasm_bindgen::JsCast::dyn_ref::<web_sys::Node>(&t).is_some_and(|t| m.contains(Some(t)))
        });
        if !inside {
            close(false);
        }
    });
    on_cleanup(move || outside.remove());
    view! {
        <details class="account-menu" node_ref=menu
            on:keydown=move |ev| if ev.key() == "Escape" { close(true) }
            on:toggle=move |_| if menu.get_untracked().is_some_and(|m| m.open()) { opened.set(true) }>
            <summary class:ended=move || session.ended()><span class="handle">{handle}</span></summary>
            {move || opened.get().then(|| {
                let user = user.clone();
                later(account_panel::load, move || account_panel::draw(user.clone()), Meanwhile::Nothing)
            })}
        </details>
    }
}

lazy! { extras, fn account_panel(user: perch_model::User) {
    let session = use_session();
    let signed = session.signed_untracked();
    let known = signed.as_ref().is_some_and(|s| s.scopes_known);
    let help = expect_context::<crate::browser::shortcuts::Help>();
    view! {
        <div class="account-panel">
            {move || session.ended().then(|| {
                let location = leptos_router::hooks::use_location();
                let again = crate::account::oauth::signin_href(&here(&location.pathname.get_untracked(), &location.search.get_untracked()));
                view! { <p class="ended" role="status">{t::account_ended()} " " <a href=again>{t::sign_in_again()}</a></p> }
            })}
            <p>{t::signed_in_as()} " " <strong dir="auto">{user.shown_name().to_owned()}</strong> " " <span class="handle">{format!("@{}", user.username)}</span></p>
            <p class="scopes-title">{if known { t::scopes_known() } else { t::scopes_learned() }}</p>
            <ul class="scopes">
                {move || session.scopes().into_iter().map(|s| view! { <li><code>{s.as_str()}</code></li> }).collect_view()}
            </ul>
            <Accounts current=user.clone()/>
            <crate::components::language_menu::LanguageMenu/>
            <A href=AppPath::Lists.href() attr:class="lists-link">{t::lists_title()}</A>
            <A href=AppPath::Bookmarks.href() attr:class="bookmarks-link">{t::bookmarks_title()}</A>
            <A href=AppPath::Drafts.href() attr:class="drafts-link">{t::drafts_title()}</A>
            <A href=AppPath::Settings.href() attr:class="settings-link">{t::settings_title()}</A>
            <button type="button" on:click=move |_| help.0.set(true)>{t::keyboard_shortcuts()}</button>
            <label class="switch"><input type="checkbox" prop:checked=crate::store::outbox::undo_send()
                on:change=move |ev| crate::store::outbox::set_undo_send(event_target_checked(&ev))/>" " {t::undo_send_setting()}</label>
            <SignOutButton label=t::sign_out_of(format!("@{}", user.username))/>
            {move || (!session.others().is_empty()).then(|| view! { <SignOutButton label=t::sign_out_of_all() all=true/> })}
        </div>
    }
}}

/// Every account signed in here, the current one marked, the others one
/// click from being current; and the way to add one.
#[component]
fn Accounts(current: perch_model::User) -> impl IntoView {
    let session = use_session();
    let add = crate::account::oauth::add_account_href();
    let entry = |user: &perch_model::User| {
        let name = user.shown_name().to_owned();
        view! {
            <crate::components::avatar::Avatar src=user.avatar.clone() name=name.clone()/>
            <span class="account-names"><strong dir="auto">{name}</strong> <span class="handle">{format!("@{}", user.username)}</span></span>
        }
    };
    view! {
        <ul class="accounts" aria-label=t::accounts()>
            <li aria-current="true">{entry(&current)}</li>
            {move || session.others().into_iter().map(|other| {
                let uuid = other.user.uuid.clone();
                let label = t::switch_to(format!("@{}", other.user.username));
                let ended = other.ended.then(|| view! { <span class="ended">{t::signed_out_sign_in_again()}</span> });
                let unread = crate::store::activity::use_unread().map_or(0, |u| u.of(&other.user.uuid));
                let unread = (unread > 0).then(|| view! { <span class="unread-count">{t::activity_unread_short(u64::from(unread))}</span> });
                view! {
                    <li>{entry(&other.user)} {ended} {unread}
                        <button type="button" class="secondary" aria-label=label on:click=move |_| session.switch_to(&uuid)>{t::switch()}</button>
                    </li>
                }
            }).collect_view()}
        </ul>
        {move || session.can_add().then(|| view! { <a class="add-account" href=add.clone()>{t::add_an_account()}</a> })}
    }
}
