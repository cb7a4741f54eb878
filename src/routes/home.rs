//! `/`: the home timeline (built by the timeline issue).

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

#[component]
pub fn Home() -> impl IntoView {
    view! {
        <Title text="Home · Perch"/>
        <main id="main" class="page">
            <h1>"Home"</h1>
            <p>"Your timeline will appear here once you have signed in."</p>
            <p><A href="/signin">"Sign in"</A></p>
        </main>
    }
}
