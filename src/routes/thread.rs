//! `/post/:uuid`: a post with its ancestors and replies.

use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn Thread() -> impl IntoView {
    let uuid = super::param("uuid");
    view! {
        <Title text="Post · Perch"/>
        <main id="main" class="page">
            <h1>"Post"</h1>
            <p>"Thread of post " <code>{move || uuid.get()}</code> "."</p>
        </main>
    }
}
