//! `/`: the home timeline (`timeline/`) as the page shows it: the
//! composer above it, then the timeline as every timeline shows
//! (`components/timeline_view.rs`: "N new posts" instead of moving what is
//! being read, the sources that failed or are still loading, the empty
//! states). All behaviour (loading, checking for new posts, the reading
//! position) lives in `timeline/`.
//!
//! Home is drawn once per account and kept while other pages show
//! (`kept.rs`, issue 68): the route's [`HomePage`] only says that Home is
//! shown and sets the tab's title; the page is [`kept_page`].

use crate::account::session::use_session;
use crate::browser::navigation::{PageHeading, Title};
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::timeline_view::TimelineView;
use crate::i18n::t;
use crate::timeline::HomeTimeline;
use leptos::prelude::*;
use leptos_router::components::A;

/// The route `/`: Home is shown while this is. The page is [`kept_page`].
#[component]
pub fn HomePage() -> impl IntoView {
    // The page's data(): its first reads go while its code downloads.
    let home = expect_context::<HomeTimeline>();
    home.read_early();
    super::kept::showing(Memo::new(|_| "/".to_owned()));
    // The tab's title counts the new posts not shown yet, as "(3) Home · Perch".
    let new_posts = crate::components::timeline_view::new_posts_shown(&home);
    focus_composer_when_asked();
    view! {
        <Title text=move || match new_posts.get() {
            0 => t::title_home().get(),
            n => format!("({}) {}", crate::i18n::number(n as u64), t::title_home().get()),
        }/>
    }
}

/// The Write button's ask (`components/header.rs`): once Home shows, its
/// composer takes the focus, which opens it. Home's module may still be on
/// its way the first time: each frame looks again, while this route is
/// shown and the ask stands, at most [`WRITE_FRAMES`] frames.
fn focus_composer_when_asked() {
    let asked = expect_context::<crate::components::composer::WriteAsked>().0;
    let shown = super::kept::shown("/");
    let here = RwSignal::new(());
    Effect::new(move |_| {
        if !(asked.get() && shown.get()) {
            return;
        }
        leptos::task::spawn_local(async move {
            for _ in 0..WRITE_FRAMES {
                crate::browser::dom::after_paint().await;
                if here.try_get_untracked().is_none() || asked.try_get_untracked() != Some(true) {
                    return;
                }
                let id = crate::browser::dom::DomId::PostText.to_string();
                if let Some(field) = crate::browser::dom::by_id(&id) {
                    asked.set(false);
                    crate::browser::dom::focus(Some(field));
                    return;
                }
            }
            let _ = asked.try_set(false);
        });
    });
}

/// How many frames the Write button's ask waits for Home's composer.
const WRITE_FRAMES: u32 = 600;

/// Home itself, drawn once per account and kept (`kept.rs`).
pub fn kept_page() -> AnyView {
    later(home_page::GROUP, home_page::load, home_page::draw, Meanwhile::Page)
}

lazy! { page_home, fn home_page() {
    let session = use_session();
    let home = expect_context::<HomeTimeline>();
    let shown = crate::routes::kept::shown("/");
    let empty_home = || view! { <EmptyTimeline/> };
    view! {
        <main id="main" class="page home">
            <PageHeading text=t::nav_home()/>
            {move || match session.user() {
                Some(_) => view! {
                    <section aria-labelledby="new-post-heading" class="new-post">
                        <h2 id="new-post-heading" class="visually-hidden">{t::new_post()}</h2>
                        <crate::components::composer::Composer/>
                        <crate::components::waiting::WaitingPosts/>
                    </section>
                    <section aria-labelledby="timeline-heading">
                        <h2 id="timeline-heading" class="visually-hidden">{t::timeline()}</h2>
                        <TimelineView timeline=home.clone() no_sources=empty_home shown/>
                    </section>
                }.into_any(),
                None => view! {
                    <p>{t::home_signed_out()}</p>
                    <p><A href=crate::nav::AppPath::SignIn.href()>{t::sign_in()}</A></p>
                }.into_any(),
            }}
        </main>
    }
}}

/// What a new account sees: how to fill the timeline.
#[component]
fn EmptyTimeline() -> impl IntoView {
    view! {
        <div class="empty-timeline">
            <p><strong>{t::timeline_empty()}</strong></p>
            <p>{t::timeline_empty_help()}</p>
            <crate::components::find_person::FindPerson name=t::find_people_to_follow() id="find-person" label=t::username()/>
        </div>
    }
}
