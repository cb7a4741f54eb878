//! The site header: the skip link, the name, and the navigation.

use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn SiteHeader() -> impl IntoView {
    view! {
        <a class="skip-link" href="#main">"Skip to content"</a>
        <header class="site-header">
            <A href="/" attr:class="brand">"Perch"</A>
            <nav aria-label="Main">
                <ul>
                    <li><A href="/">"Home"</A></li>
                    <li><A href="/signin">"Sign in"</A></li>
                </ul>
            </nav>
        </header>
    }
}
