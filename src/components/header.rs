//! The site header: the skip link, the name, the navigation and the account
//! menu (who is signed in, what the token allows, the other accounts signed
//! in here with Switch, Add an account, sign out of one or all; split out
//! of the main module until first opened), and Find someone on its own row.

use crate::account::session::use_session;
use crate::components::account_panel::account_panel;
use crate::i18n::t;
use crate::nav::{here, AppPath};
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn SiteHeader() -> impl IntoView {
    let session = use_session();
    let items = move || match session.user() {
        Some(user) => view! {
            <li><A href=AppPath::Profile(&user.username).href()>{t::nav_profile()}</A></li>
            <li><ActivityLink account=user.uuid.clone()/></li>
            <li><A href=AppPath::Search.href() attr:class="search-link">{t::search_title()}</A></li>
            <crate::components::waiting::WaitingCount/>
            <li><AccountMenu/></li>
        }
        .into_any(),
        None => view! { <SignInItem/> }.into_any(),
    };
    let find = view! {
        <crate::components::find_person::FindPerson name=t::find_someone() id="find-someone" label=t::username_to_find() hide_label=true/>
    };
    header_frame(items, find)
}

/// The header of a signed-out visit to the sign-in page (and the OAuth
/// callback), drawn by the main module alone: the name, Home and Sign in.
/// Find someone, which reads through the store, is in the whole app's
/// header ([`SiteHeader`]), where a signed-out visitor finds it too.
#[component]
pub fn SignedOutHeader() -> impl IntoView {
    header_frame(view! { <SignInItem/> }, ())
}

/// What both headers are: the skip link, the name, the navigation with
/// Home first and `items` after it, then `after` on its own row.
fn header_frame(items: impl IntoView, after: impl IntoView) -> impl IntoView {
    view! {
        <a class="skip-link" href="#main">{t::skip_to_content()}</a>
        <header class="site-header">
            <A href=AppPath::Home.href() attr:class="brand">"Perch"</A>
            <nav aria-label=t::nav_main()>
                <ul>
                    <li><A href=AppPath::Home.href()>{t::nav_home()}</A></li>
                    {items}
                </ul>
            </nav>
            {after}
        </header>
    }
}

/// Sign in, coming back to this address once signed in.
#[component]
fn SignInItem() -> impl IntoView {
    let location = leptos_router::hooks::use_location();
    let href = move || crate::account::oauth::signin_href(&here(&location.pathname.get(), &location.search.get()));
    view! { <li><A href=href>{t::sign_in()}</A></li> }
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
/// module (`account_panel.rs`), drawn when it is first opened and kept after.
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
        crate::reactive::depend_on(location.pathname);
        crate::reactive::depend_on(location.search);
        close(false);
    });
    // Inside by the path the click took when it began: a button inside
    // that is gone once clicked (Retry, replaced by what it loaded) is no
    // longer in the menu by the time the click reaches the window.
    let outside = window_event_listener(leptos::ev::click, move |ev| {
        let inside = menu.get_untracked().is_some_and(|m| ev.composed_path().includes(&m, 0));
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
                account_panel(user.clone())
            })}
        </details>
    }
}
