//! `/user/@:username` and `/user/:uuid`: a profile and its posts.

use super::UserKey;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

#[component]
pub fn Profile() -> impl IntoView {
    let id = super::param("id");
    let key = Memo::new(move |_| UserKey::parse(&id.get()));
    view! {
        <Title text=move || format!("{} · Perch", key.get().label())/>
        <main id="main" class="page">
            <h1>{move || key.get().label()}</h1>
            <nav aria-label="Lists">
                <A href=move || format!("/user/{}/followers", id.get())>"Followers"</A>
                " · "
                <A href=move || format!("/user/{}/following", id.get())>"Following"</A>
            </nav>
        </main>
    }
}
