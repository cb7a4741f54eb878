//! The second column, from 1280 px (`style/main.css`): the account's
//! lists, each a click from its timeline, and the way to make one. Chosen
//! because a wide screen is where a person reads more than one timeline,
//! and the lists are otherwise a page away. Drawn once the page's own
//! reads are answered, and only on a screen that wide; small, so in the
//! shell rather than a module of its own that could fail to load.

use crate::i18n::t;
use crate::nav::AppPath;
use leptos::prelude::*;
use leptos_router::components::A;

/// The column, once `due` (the page's reads answered) on a wide screen;
/// hidden beside the lists' own page, which shows every list already (not
/// taken out: a return from there would draw it again).
pub fn side_column(due: Signal<bool>) -> impl IntoView {
    let wide = crate::browser::dom::wide_at_least("80rem");
    let location = leptos_router::hooks::use_location();
    let on_lists = Memo::new(move |_| location.pathname.with(|p| *p == AppPath::Lists.href()));
    move || (due.get() && wide.get()).then(|| side(on_lists))
}

fn side(hidden: Memo<bool>) -> impl IntoView {
    let lists = crate::store::lists::use_lists();
    let all = move || lists.map(|l| l.all()).unwrap_or_default();
    view! {
        <aside class="side-column" aria-labelledby="side-lists-heading" hidden=move || hidden.get()>
            <h2 id="side-lists-heading">{t::side_your_lists()}</h2>
            {move || all().is_empty().then(|| view! { <p class="note">{t::side_no_lists()}</p> })}
            <ul class="side-lists">
                {move || all().into_iter().map(|list| view! {
                    <li><A href=AppPath::List(&list.id).href()>
                        <crate::components::icon::Icon icon=crate::components::icon::Icon::Lists/>
                        <span dir="auto">{list.name}</span>
                    </A></li>
                }).collect_view()}
            </ul>
            <p><A href=AppPath::Lists.href()>{t::side_make_list()}</A></p>
        </aside>
    }
}
