//! `/`: the home timeline (composed by the timeline issue). Until then it
//! says who is signed in and where to go.

use crate::navigation::PageHeading;
use crate::session::use_session;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

#[component]
pub fn Home() -> impl IntoView {
    let session = use_session();
    view! {
        <Title text="Home · Perch"/>
        <main id="main" class="page home">
            <PageHeading text="Home"/>
            {move || match session.user() {
                Some(user) => view! {
                    <p>"Signed in as " <strong>{user.display_name.clone()}</strong> "."</p>
                    <section aria-labelledby="new-post-heading">
                        <h2 id="new-post-heading">"New post"</h2>
                        <crate::components::composer::Composer/>
                    </section>
                    <p><A href=format!("/user/@{}", user.username)>"Your profile and posts"</A></p>
                }.into_any(),
                None => view! {
                    <p>"Perch shows your timeline once you have signed in."</p>
                    <p><A href="/signin">"Sign in"</A></p>
                }.into_any(),
            }}
        </main>
    }
}
