//! The page for an address that leads nowhere.

use crate::browser::navigation::Title;
use crate::i18n::t;
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <Title text=move || t::title_page(t::page_not_found().get()).get()/>
        <main id="main" class="page not-found">
            <crate::browser::navigation::PageHeading text=t::page_not_found()/>
            <p>{t::nothing_here()}</p>
            <p><A href=crate::nav::AppPath::Home.href()>{t::go_home()}</A></p>
        </main>
    }
}
