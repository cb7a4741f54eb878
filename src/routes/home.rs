//! `/`: the home timeline (`timeline/`) as the page shows it: the
//! composer above it, then the timeline as every timeline shows
//! (`components/timeline_view.rs`: "N new posts" instead of moving what is
//! being read, the sources that failed or are still loading, the empty
//! states). All behaviour (loading, checking for new posts, the reading
//! position) lives in `timeline/`.

use crate::account::session::use_session;
use crate::browser::navigation::{PageHeading, Title};
use crate::components::later::{later, lazy, Meanwhile};
use crate::components::timeline_view::TimelineView;
use crate::i18n::t;
use crate::timeline::HomeTimeline;
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn HomePage() -> impl IntoView {
    // The page's data(): its first reads go while its code downloads.
    expect_context::<HomeTimeline>().read_early();
    later(home_page::GROUP, home_page::load, home_page::draw, Meanwhile::Page)
}

lazy! { page_home, fn home_page() {
    let session = use_session();
    let home = expect_context::<HomeTimeline>();
    let empty_home = || view! { <EmptyTimeline/> };
    // The tab's title counts the new posts not shown yet, as "(3) Home · Perch".
    let new_posts = {
        let state = expect_context::<HomeTimeline>().state;
        Memo::new(move |_| state.with(|s| s.new_count()))
    };
    view! {
        <Title text=move || match new_posts.get() {
            0 => t::title_home().get(),
            n => format!("({}) {}", crate::i18n::number(n as u64), t::title_home().get()),
        }/>
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
                        <TimelineView timeline=home.clone() no_sources=empty_home/>
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
