//! `/user/:id/followers` and `/user/:id/following`: paged lists of users.

use super::UserKey;
use leptos::prelude::*;
use leptos_meta::Title;

#[derive(Clone, Copy)]
enum Which {
    Followers,
    Following,
}

#[component]
pub fn Followers() -> impl IntoView {
    view! { <UserList which=Which::Followers/> }
}

#[component]
pub fn Following() -> impl IntoView {
    view! { <UserList which=Which::Following/> }
}

#[component]
fn UserList(which: Which) -> impl IntoView {
    let id = super::param("id");
    let heading = move || {
        let who = UserKey::parse(&id.get()).label();
        match which {
            Which::Followers => format!("Followers of {who}"),
            Which::Following => format!("Followed by {who}"),
        }
    };
    view! {
        <Title text=move || format!("{} · Perch", heading())/>
        <main id="main" class="page">
            <h1>{heading}</h1>
        </main>
    }
}
