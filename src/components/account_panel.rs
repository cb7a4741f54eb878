//! The account menu's panel (the header's `AccountMenu` opens it): who is
//! signed in and what the token allows, the other accounts signed in here
//! with Switch, Add an account, the language, the pages kept in this
//! browser, the shortcuts' help, Undo send, and sign out of one or all.
//! Split out of the main module (`extras`) until the menu is first opened.
//!
//! Words: later.

use crate::account::session::use_session;
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::sign_out::SignOutButton;
use crate::i18n::t;
use crate::nav::{here, AppPath};
use leptos::prelude::*;
use leptos_router::components::A;

/// The panel of `user`'s menu: drawn once its module (and its words) came.
pub fn account_panel(user: perch_model::User) -> impl IntoView {
    later(panel::GROUP, panel::load, move || panel::draw(user.clone()), Meanwhile::Nothing)
}

lazy! { extras, fn panel(user: perch_model::User) {
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
