//! The site header: the skip link, the name, the navigation to every place
//! (icons with their names: a rail beside the column from 640 px, its names
//! shown from 1024 px; a tab bar along the foot of a phone's screen,
//! `style/main.css`), the Write button, what waits to be sent, and the
//! account menu (who is signed in, what the token allows, the other
//! accounts signed in here with Switch, Add an account, sign out of one or
//! all; split out of the main module until first opened).

use crate::account::session::use_session;
use crate::components::account_panel::account_panel;
use crate::components::icon::Icon;
use crate::i18n::t;
use crate::nav::{here, AppPath};
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn SiteHeader() -> impl IntoView {
    let session = use_session();
    let items = move || {
        match session.user() {
        Some(user) => view! {
            <li><ActivityLink account=user.uuid.clone()/></li>
            <li>{place(AppPath::Search.href(), Icon::Search, t::search_title(), "search-link")}</li>
            <li>{place(AppPath::Lists.href(), Icon::Lists, t::nav_lists(), "lists-place")}</li>
            <li class="rail-only">{place(AppPath::Bookmarks.href(), Icon::Bookmark, t::nav_bookmarks(), "bookmarks-place")}</li>
            <li class="rail-only"><DraftsLink account=user.uuid.clone()/></li>
            <li>{place(AppPath::Profile(&user.username).href(), Icon::Profile, t::nav_profile(), "profile-place")}</li>
            <li class="rail-only">{place(AppPath::Settings.href(), Icon::Settings, t::nav_settings(), "settings-place")}</li>
        }
        .into_any(),
        None => view! { <SignInItem/> }.into_any(),
    }
    };
    let after = move || {
        session.is_signed_in().then(|| {
            view! {
                <WriteButton/>
                <crate::components::waiting::WaitingCount/>
                <AccountMenu/>
            }
        })
    };
    header_frame(items, after)
}

/// The header of a signed-out visit to the sign-in page (and the OAuth
/// callback), drawn by the main module alone: the name, Home and Sign in.
#[component]
pub fn SignedOutHeader() -> impl IntoView {
    header_frame(view! { <SignInItem/> }, ())
}

/// What both headers are: the skip link, the name, the navigation with
/// Home first and `items` after it, then `after`.
fn header_frame(items: impl IntoView, after: impl IntoView) -> impl IntoView {
    view! {
        <a class="skip-link" href="#main">{t::skip_to_content()}</a>
        <header class="site-header">
            <A href=AppPath::Home.href() attr:class="brand">"Perch"</A>
            <nav aria-label=t::nav_main()>
                <ul>
                    <li>{place(AppPath::Home.href(), Icon::Home, t::nav_home(), "home-place")}</li>
                    {items}
                </ul>
            </nav>
            {after}
        </header>
    }
}

/// One place of the navigation: its icon and its name, the name shown
/// beside the icon on a wide screen, under it in the tab bar, and as a
/// tooltip on hover and focus where the rail shows icons only. The name
/// is the link's accessible name at every width.
fn place(href: String, icon: Icon, label: impl Into<crate::i18n::Text>, class: &'static str) -> impl IntoView {
    let label: crate::i18n::Text = label.into();
    view! {
        <A href=href attr:class=format!("place {class}")>
            <Icon icon/>
            <span class="place-label">{label}</span>
        </A>
    }
}

/// A place with a count beside its icon while there is one (hidden from
/// assistive technology: the link's name, `said`, includes it).
fn counted_place(
    href: String,
    icon: Icon,
    label: impl Into<crate::i18n::Text>,
    class: &'static str,
    count: Memo<u64>,
    said: impl Fn(u64) -> String + Send + Sync + 'static,
) -> impl IntoView {
    let label: crate::i18n::Text = label.into();
    // Read with `try_get`: a change of the count can be on its way to these
    // as the place is drawn again (a session that ends), its count gone.
    let shown = move || count.try_get().filter(|n| *n > 0);
    view! {
        <A href=href attr:class=format!("place {class}") attr:aria-label=move || shown().map(&said)>
            <Icon icon/>
            <span class="place-label">{label}</span>
            {move || shown().map(|n| view! {
                <span class="unread-count" aria-hidden="true">{crate::i18n::number(n)}</span>
            })}
        </A>
    }
}

/// Opens Home's composer, from any page (`routes/home.rs` focuses it once
/// Home shows).
#[component]
fn WriteButton() -> impl IntoView {
    let asked = expect_context::<crate::components::composer::WriteAsked>();
    let navigate = leptos_router::hooks::use_navigate();
    let location = leptos_router::hooks::use_location();
    let write = move |_| {
        if location.pathname.get_untracked() != AppPath::Home.href() {
            navigate(&AppPath::Home.href(), Default::default());
        }
        asked.0.set(true);
    };
    view! {
        <button type="button" class="write-button" on:click=write>
            <Icon icon=Icon::Write/>
            <span class="place-label">{t::nav_write()}</span>
        </button>
    }
}

/// Sign in, coming back to this address once signed in.
#[component]
fn SignInItem() -> impl IntoView {
    let location = leptos_router::hooks::use_location();
    let href = move || crate::account::oauth::signin_href(&here(&location.pathname.get(), &location.search.get()));
    view! {
        <li><A href=href attr:class="place signin-place"><Icon icon=Icon::SignIn/><span class="place-label">{t::sign_in()}</span></A></li>
    }
}

/// Activity, with the account's unread count; its name says the count to
/// assistive technology.
#[component]
fn ActivityLink(account: String) -> impl IntoView {
    let unread = crate::store::activity::use_unread();
    let count = Memo::new(move |_| u64::from(unread.map_or(0, |u| u.of(&account))));
    view! {
        {counted_place(AppPath::Activity.href(), Icon::Activity, t::nav_activity(), "activity-link", count,
            |n| t::activity_unread_label(n).get())}
    }
}

/// Drafts, with how many this account keeps unsent, counted again when
/// one is begun, sent or discarded here, in another tab, or on a new page.
#[component]
fn DraftsLink(account: String) -> impl IntoView {
    let location = leptos_router::hooks::use_location();
    let count = Memo::new(move |_| {
        crate::reactive::depend_on(location.pathname);
        crate::account::drafts::kept_unsent(&account) as u64
    });
    view! {
        {counted_place(AppPath::Drafts.href(), Icon::Drafts, t::nav_drafts(), "drafts-place", count,
            |n| t::nav_drafts_count(n).get())}
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
            <summary class:ended=move || session.ended()>
                <span class="summary-avatar" aria-hidden="true">
                    <crate::components::avatar::Avatar src=user.avatar.clone() name=user.shown_name().to_owned() decorative=true/>
                </span>
                <span class="handle">{handle}</span>
            </summary>
            {move || opened.get().then(|| {
                account_panel(user.clone())
            })}
        </details>
    }
}
