//! The pages, one file each, and the router that picks between them.
//!
//! `/user/:id` takes both `@username` and a uuid: the router matches whole
//! segments, so the `@` is read by the profile pages themselves.

mod activity;
mod bookmarks;
mod drafts;
mod home;
mod kept;
mod lists;
mod not_found;
mod oauth_callback;
mod outbox;
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;
mod profile;
mod search;
mod settings;
mod signin;
mod thread;
mod thread_tree;
mod user_list;

use crate::api::ApiError;
use crate::browser::clock::read_again_when_back;
use crate::browser::navigation::{restore_scroll, returning_to};
use crate::components::header::SiteHeader;
use crate::components::later::{later, lazy, placeholder, Meanwhile};
use crate::nav::while_shown;
use crate::store::{use_store, ListKey, Paged};
use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;
use perch_model::ClientConfig;

pub use not_found::NotFound;

/// The app's start: the session, the API client and `config` in context,
/// then, for a signed-out visit to the sign-in page or the OAuth callback,
/// the signed-out start ([`signed_out_start`], in the main module); for any
/// other address, or once the visitor leaves those two, the whole app's
/// start ([`app_shell`], split out: the store, the home timeline, the
/// outbox, the header and every route), which starts from the local copy
/// `kept` when it is the signed-in account's.
#[component]
pub fn Shell(
    config: ClientConfig,
    /// The local copy as `index.html` read it: (account, text).
    #[prop(default = None)]
    kept: Option<(String, String)>,
    /// The account's outbox as `index.html` read it.
    #[prop(default = None)]
    waiting: Option<(String, String)>,
) -> impl IntoView {
    crate::browser::web_storage::forget_unowned_drafts();
    crate::browser::web_storage::drop_sent_drafts();
    let session = crate::account::session::Session::restore();
    session.follow_other_tabs();
    // An account that ends here leaves nothing in Web Storage: its
    // relations, reading position, and its drafts unless they are kept.
    session.when_account_ends(crate::browser::web_storage::forget_account);
    session.when_account_ends(|account, _| crate::api::refresh::forget(account));
    let api = crate::api::Api::new(&config, session);
    provide_context(api);
    provide_context(session);
    crate::browser::navigation::install();
    provide_context(config);
    crate::browser::clock::provide();
    crate::browser::service_worker::register_service_worker();
    let signed_out_page = !session.is_signed_in()
        && window()
            .location()
            .pathname()
            .ok()
            .is_some_and(|p| p == crate::nav::AppPath::SignIn.href() || p == crate::account::oauth::CALLBACK_PATH);
    // Set once: the whole app, from the start or from the moment the
    // signed-out start is left; `true` when it comes after that start.
    let whole = RwSignal::new((!signed_out_page).then_some(false));
    move || match whole.get() {
        None => signed_out_start(whole),
        Some(after) => {
            let (kept, waiting) = (kept.clone(), waiting.clone());
            later(
                app_shell::GROUP,
                app_shell::load,
                move || app_shell::draw(kept.clone(), waiting.clone(), after),
                Meanwhile::Nothing,
            )
        }
    }
}

/// A signed-out visit to the sign-in page or the OAuth callback: the
/// signed-out header and those two pages, with nothing of an account's
/// (no store, timeline or outbox: they are the split `app_shell`). Any
/// other address, reached by a link or after signing in, loads the whole
/// app's start and hands over to it (`whole`), this start's page kept on
/// screen until it has come.
fn signed_out_start(whole: RwSignal<Option<bool>>) -> AnyView {
    provide_context(HandOver(whole));
    let (header_due, pages_due) = header_then_page(false);
    let elsewhere = move || {
        // Not while this start is drawn: the whole app takes its place
        // once its module is here.
        HandOver(whole).take_over();
        view! { <main id="main" class="page" aria-busy="true"></main> }
    };
    view! {
        <Router>
            {move || header_due.get().then(|| {
                crate::browser::boot::header_drawn();
                view! {
                    <crate::components::header::SignedOutHeader/>
                    <crate::components::offline::OfflinePlace/>
                    <crate::components::offline::UpdateNotice/>
                }
                .into_any()
            })}
            {move || if !pages_due.get() { placeholder(Meanwhile::Page) } else { view! {
            <Routes fallback=elsewhere>
                <Route path=path!("/signin") view=signin::SignIn/>
                <Route path=path!("/oauth/callback") view=oauth_callback::OAuthCallback/>
            </Routes>
            }.into_any() }}
        </Router>
    }
    .into_any()
}

/// The signed-out start's way on for its callback page, once the first
/// account is signed in: the address becomes `path` (the code leaves the
/// history), the whole app's start is loaded and takes over, drawing the
/// page of `path`; the callback's page stays until then. Not in the whole
/// app (no context there): it loads the page afresh.
#[derive(Clone, Copy)]
pub struct HandOver(RwSignal<Option<bool>>);

impl HandOver {
    pub fn go_on(self, path: &str) {
        let replaced =
            window().history().and_then(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(path)));
        if replaced.is_err() {
            let _ = window().location().replace(path);
            return;
        }
        self.take_over();
    }

    /// Loads the whole app's start, which then takes over (or, when it
    /// could not come, says so).
    fn take_over(self) {
        leptos::task::spawn_local(async move {
            let _ = app_shell::load().await;
            let _ = self.0.try_set(Some(true));
        });
    }
}

/// When a start draws its header and its page: a task at a time after
/// this one, the header first (it takes the place of `index.html`'s frame),
/// then the page, its shape shown meanwhile as the frame showed it; one
/// task for all was long on a slow phone (issue 37). Both at once when
/// `now`. Each signal turns true in that order.
fn header_then_page(now: bool) -> (RwSignal<bool>, RwSignal<bool>) {
    let (header_due, pages_due) = (RwSignal::new(now), RwSignal::new(now));
    if !now {
        leptos::task::spawn_local(async move {
            crate::browser::pace::yield_now().await;
            if header_due.try_set(true).is_none() {
                crate::browser::pace::yield_now().await;
                let _ = pages_due.try_set(true);
            }
        });
    }
    (header_due, pages_due)
}

// The whole app's start, for every address but a signed-out visit to the
// sign-in page and the OAuth callback: split out of the main module, so a
// first visit to sign in loads none of it (docs/size.md, "The start
// without the account"). `after`: it takes over from the signed-out start,
// whose header and page were drawn: its own are drawn at once.
lazy! { app_shell, fn app_shell(kept: Option<(String, String)>, waiting: Option<(String, String)>, after: bool) {
    let (session, api) = (crate::account::session::use_session(), crate::api::use_api());
    let config = expect_context::<ClientConfig>();
    let kept = parse_kept(&config, kept);
    let store = crate::store::Store::new(session, api);
    // The store holds at least twice what the local copy seeds it with,
    // unless the host says otherwise (`store/bound.rs`).
    let held = crate::store::bound::POSTS_HELD.max(2 * copy_bound(&config));
    store.set_bound(config.store_posts.map_or(held, |n| n as usize));
    crate::store::mutes::Mutes::provide(session);
    crate::timeline::replies::follow_other_tabs();
    let timeline = crate::timeline::HomeTimeline::new(store.clone(), session);
    crate::browser::marks::mark("perch:shell");
    let saving = start_from_copy(&store, &timeline, kept, &config);
    crate::store::bookmarks::made_under_shell();
    crate::browser::marks::mark("perch:copy-seeded");
    // Not on the OAuth callback: there the session switches to the account
    // being added before the page leaves, and nothing of the account
    // before may be sent meanwhile. The page that follows sends it.
    if window().location().pathname().ok().as_deref() != Some(crate::account::oauth::CALLBACK_PATH) {
        store.start_outbox(waiting, crate::components::sending::SEND);
    }
    crate::browser::marks::mark("perch:outbox-started");
    crate::store::copy::tidy(session.all_untracked().into_iter().map(|s| s.user.uuid).collect());
    provide_context(timeline);
    provide_context(store);
    kept::Kept::provide();
    let watching = watch_activity_after_paint(session, &config);
    if let Some(bound) = saving {
        provide_context(bound);
    }
    provide_context(crate::components::composer::WriteAsked(RwSignal::new(false)));
    let help = crate::browser::shortcuts::Help(RwSignal::new(false));
    crate::browser::shortcuts::install(help);
    provide_context(help);
    // The shortcuts' help is split out of the main module until first asked for.
    let help_asked = Memo::new(move |before: Option<&bool>| before.copied().unwrap_or(false) || help.0.get());
    // After the signed-out start, at once: its header and page were on
    // screen until now.
    let (header_due, pages_due) = header_then_page(after);
    crate::browser::marks::mark("perch:shell-ready");
    view! {
        <Router>
            {move || header_due.get().then(|| {
                crate::browser::boot::header_drawn();
                view! {
                    <SiteHeader/>
                    <crate::components::offline::OfflineNotice/>
                    <crate::components::offline::UpdateNotice/>
                }
                .into_any()
            })}
            {crate::components::side_column::side_column(watching.into())}
            {move || help_asked.get().then(|| later(shortcuts_help::GROUP, shortcuts_help::load, shortcuts_help::draw, Meanwhile::Nothing))}
            {move || watching.get().then(|| later(background_work::GROUP, background_work::load, background_work::draw, Meanwhile::Background))}
            {move || if !pages_due.get() { placeholder(Meanwhile::Page) } else { pages() }}
        </Router>
    }
} }

/// The router's page, then Home and the lists' pages last shown, kept
/// while the other pages show (`kept.rs`): the page shown comes first in
/// the document. The kept pages are made first: the router leaves an owner
/// without the shell's contexts behind it.
fn pages() -> AnyView {
    let kept_pages = view! { <kept::KeptPages draw=draw_kept/> };
    view! {
        <Routes fallback=NotFound>
            <Route path=path!("/") view=home::HomePage/>
            <Route path=path!("/post/:uuid") view=thread::Thread/>
            <Route path=path!("/user/:id") view=profile::Profile/>
            <Route path=path!("/user/:id/followers") view=user_list::Followers/>
            <Route path=path!("/user/:id/following") view=user_list::Following/>
            <Route path=path!("/outbox") view=outbox::OutboxPage/>
            <Route path=path!("/activity") view=activity::ActivityPage/>
            <Route path=path!("/settings") view=settings::SettingsPage/>
            <Route path=path!("/bookmarks") view=bookmarks::BookmarksPage/>
            <Route path=path!("/drafts") view=drafts::DraftsPage/>
            <Route path=path!("/search") view=search::SearchPage/>
            <Route path=path!("/lists") view=lists::ListsPage/>
            <Route path=path!("/lists/:id") view=lists::OneListPage/>
            <Route path=path!("/signin") view=signin::SignIn/>
            <Route path=path!("/oauth/callback") view=oauth_callback::OAuthCallback/>
        </Routes>
        {kept_pages}
    }
    .into_any()
}

/// The kept page at `address` (`kept.rs`): Home, or a list's page.
fn draw_kept(address: &str) -> AnyView {
    match address.strip_prefix("/lists/") {
        Some(id) => lists::kept_page(id.to_owned()),
        None => home::kept_page(),
    }
}

lazy! { extras, fn shortcuts_help() { view! { <crate::components::shortcuts_help::ShortcutsHelp/> } } }

/// The unread count in the title and on the app's icon, and, once the
/// page's first screen is drawn and someone is signed in, the activity checks
/// (`store/activity/`), whose code is split out of the main module: true
/// once they may start.
fn watch_activity_after_paint(session: crate::account::session::Session, config: &ClientConfig) -> RwSignal<bool> {
    let unread = crate::store::activity::Unread::provide();
    Effect::new(move |_| {
        let count = session.user().map_or(0, |me| unread.of(&me.uuid));
        crate::browser::navigation::show_unread(count);
    });
    let every = config.activity_check_seconds.unwrap_or(crate::store::activity::EVERY_S);
    provide_context(ActivityEvery(every));
    // The checks' code and reads wait until the page is drawn and its own
    // reads are answered, still so after a paint and an idle moment (what
    // they read is drawn a few cards a task): on a slow network they
    // would share it with the page's first screen (docs/performance.md,
    // "The checks after the page's reads"). At the latest after 30 s.
    let settled = RwSignal::new(false);
    Effect::new(move |_| {
        if settled.get_untracked() || !crate::browser::boot::page_is_drawn() || crate::api::under_way() > 0 {
            return;
        }
        leptos::task::spawn_local(async move {
            crate::browser::dom::after_paint().await;
            crate::browser::dom::when_idle(2_000).await;
            if crate::api::under_way() == 0 {
                let _ = settled.try_set(true);
            }
        });
    });
    leptos::task::spawn_local(async move {
        crate::browser::clock::sleep(SETTLED_AT_THE_LATEST_MS).await;
        let _ = settled.try_set(true);
    });
    let watching = RwSignal::new(false);
    Effect::new(move |_| {
        if settled.get() && session.is_signed_in() && !watching.get_untracked() {
            watching.set(true);
        }
    });
    watching
}

/// When the activity checks start even though the page's reads are not
/// all answered (or no page was drawn).
const SETTLED_AT_THE_LATEST_MS: i64 = 30_000;

/// How often the activity is checked, in seconds.
#[derive(Clone, Copy)]
struct ActivityEvery(u32);

// The work a signed-in page does in the background, without the page's
// drawing: every signed-in page loads it once its first screen is drawn and
// its reads answered (issue 48: a module of its own, small). Activity's
// checks, and writing the local copy for the visit (`store/copy/saving.rs`:
// a tab hidden before this came is written as it comes). A signed-out visit
// never loads either.
lazy! { background, fn background_work() {
    let store = crate::store::use_store();
    let every = use_context::<ActivityEvery>().map_or(crate::store::activity::EVERY_S, |e| e.0);
    crate::store::activity::watch(store.clone(), every);
    if let Some(CopyBound(bound)) = use_context::<CopyBound>() {
        let state = expect_context::<crate::timeline::HomeTimeline>().state;
        crate::store::copy::keep_saving(store, bound, move |me| {
            state.with_untracked(|s| if s.me == me { s.merge.clone() } else { None })
        });
    }
} }

/// The local copy as read at the start, parsed.
pub type Kept = crate::store::copy::Copy<crate::timeline::merge::Merge>;

/// The copy `index.html` read at the start (`(account, text)`), parsed,
/// unless `config` keeps none; whose it is, the shell checks.
pub fn parse_kept(config: &ClientConfig, kept: Option<(String, String)>) -> Option<Kept> {
    let max = copy_bound(config);
    let (account, text) = kept?;
    (max > 0).then(|| crate::store::copy::parse(&account, &account, &text, max))?
}

/// The most posts the local copy keeps, as `config` says (0: none).
fn copy_bound(config: &ClientConfig) -> usize {
    config.local_copy_posts.map_or(crate::store::copy::POSTS_KEPT, |n| n as usize)
}

/// Seeds the store and the home timeline from the signed-in account's
/// local copy. Answers the most posts the copy written for the visit may
/// keep, or `None` when none is kept.
fn start_from_copy(
    store: &crate::store::Store,
    timeline: &crate::timeline::HomeTimeline,
    kept: Option<Kept>,
    config: &ClientConfig,
) -> Option<CopyBound> {
    use crate::store::copy;
    let max = copy_bound(config);
    let me = store.me();
    if max == 0 {
        me.iter().for_each(|me| copy::forget(me));
        return None;
    }
    if let Some(copy) = kept.filter(|copy| me.as_deref() == Some(copy.account.as_str())) {
        store.seed(&copy);
        if let Some(home) = copy.home {
            timeline.seed(&copy.account, home);
        }
    }
    Some(CopyBound(max))
}

/// The most posts the local copy written for the visit keeps.
#[derive(Clone, Copy)]
struct CopyBound(usize);

/// The user a `/user/:id` address names, from the store or the server:
/// the user once known, the error if reading failed, and a retry.
pub(crate) fn use_user(
    id: Memo<String>,
) -> (Signal<Option<perch_model::User>>, RwSignal<Option<ApiError>>, Callback<()>) {
    let store = use_store();
    let error = RwSignal::new(None);
    let attempt = RwSignal::new(0u32);
    load_unless_held(Wanted::User, id, attempt, error);
    let user = Signal::derive(move || store.user_by_key(&id.get()).map(|u| u.get()));
    (user, error, Callback::new(move |_| attempt.update(|n| *n += 1)))
}

/// What a page reads unless the store has it ([`load_unless_held`]).
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Wanted {
    /// A user, by `@username` or uuid.
    User,
    /// A post, by uuid (a deleted one is not read again).
    Post,
}

/// The one "read it unless the store has it" of a page: each time `key`
/// changes (or `attempt` is bumped, a retry), nothing happens when the key
/// is empty or the store has the `wanted` thing; else it is read for as
/// long as the page is shown, and the error lands in `error`. One effect
/// and one task for every page that uses it.
pub(crate) fn load_unless_held(
    wanted: Wanted,
    key: Memo<String>,
    attempt: RwSignal<u32>,
    error: RwSignal<Option<ApiError>>,
) {
    let store = use_store();
    Effect::new(move |_| {
        let key = key.get();
        attempt.track();
        error.set(None);
        let held = match wanted {
            Wanted::User => store.user_by_key(&key).is_some(),
            Wanted::Post => store.post_untracked(&key).is_some() || store.is_deleted(&key),
        };
        if key.is_empty() || held {
            return;
        }
        let store = store.clone();
        while_shown(async move {
            let read = match wanted {
                Wanted::User => store.read_user(&key).await.map(drop),
                Wanted::Post => store.read_post(&key).await,
            };
            if let Err(e) = read {
                error.set(Some(e));
            }
        });
    });
}

/// What a page showing one of the store's lists works with.
pub(crate) struct ListPage {
    pub list: Signal<Paged>,
    pub load_more: Callback<()>,
    /// Shows what reading again found ("Show N new …").
    pub show_new: Callback<()>,
    /// This address was reached with Back or Forward.
    pub returning: Memo<bool>,
}

/// The one way a page shows a list of the store (a thread's replies, a
/// profile's posts, a follow list): each time the page's address `param`
/// changes, it opens the list under `key` (`None` while not known), from
/// memory and read again, else its first page; on Back it gives the scroll
/// and focus back; it reads the list again when the reader comes back to
/// the tab after a while. The reads are the page's: they stop with it.
pub(crate) fn use_list(param: Memo<String>, key: Memo<Option<ListKey>>) -> ListPage {
    let store = use_store();
    let returning = returning_to(param);
    let list = Signal::derive({
        let store = store.clone();
        move || key.get().map(|k| store.list(&k).get()).unwrap_or_default()
    });
    let load_more = Callback::new({
        let store = store.clone();
        move |_| {
            let (Some(key), store) = (key.get_untracked(), store.clone()) else { return };
            while_shown(async move { store.load_more(key).await });
        }
    });
    let read_again = Callback::new({
        let store = store.clone();
        move |_: ()| {
            let (Some(key), store) = (key.get_untracked(), store.clone()) else { return };
            while_shown(async move { store.read_again(key).await });
        }
    });
    Effect::new({
        let store = store.clone();
        move |_| {
            let back = returning.get();
            let Some(key) = key.get() else { return };
            if back && store.list(&key).with_untracked(|l| l.pages_loaded > 0) {
                restore_scroll();
            }
            let store = store.clone();
            while_shown(async move { store.open(key).await });
        }
    });
    read_again_when_back(read_again);
    let show_new = Callback::new(move |_: ()| {
        if let Some(key) = key.get_untracked() {
            store.show_new(&key);
        }
    });
    ListPage { list, load_more, show_new, returning }
}

/// A route parameter, or "" when absent.
pub(crate) fn param(name: &'static str) -> Memo<String> {
    let params = leptos_router::hooks::use_params_map();
    Memo::new(move |_| params.read().get(name).unwrap_or_default())
}
