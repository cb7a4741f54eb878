//! The page for an address that leads nowhere.

use crate::browser::navigation::Title;
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <Title text="Page not found · Perch"/>
        <main id="main" class="page not-found">
            <crate::browser::navigation::PageHeading text="Page not found"/>
            <p>"Nothing lives at this address. It may have been mistyped, or the page may have moved."</p>
            <p><A href=super::AppPath::Home.href()>"Go to your home timeline"</A></p>
        </main>
    }
}
