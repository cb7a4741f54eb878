//! The app's own catalog mechanism (`src/i18n`, compiled from the app's
//! sources as they are) on 30 of its messages; Web Storage stubbed.
#[path = "../../../../src/i18n/mod.rs"]
mod i18n;

/// What `i18n/language.rs` uses of the app's Web Storage.
mod browser {
    pub mod web_storage {
        pub enum Key {
            Language,
        }
        impl Key {
            pub fn name(&self) -> String {
                "perch.language".into()
            }
        }
        fn area() -> Option<web_sys::Storage> {
            leptos::prelude::window().local_storage().ok().flatten()
        }
        pub fn get(_: &Key) -> Option<String> {
            area()?.get_item("perch.language").ok().flatten()
        }
        pub fn set(_: &Key, value: &str) -> bool {
            area().is_some_and(|a| a.set_item("perch.language", value).is_ok())
        }
        pub fn on_change_elsewhere(_: impl Fn(&str, Option<String>) + 'static) {}
    }
}
use i18n::{language, t, Language};
use leptos::prelude::*;

#[component]
fn Page() -> impl IntoView {
    let n = RwSignal::new(3u64);
    view! {
        <p>{t::skip_to_content()}</p><p>{t::nav_home()}</p><p>{t::nav_profile()}</p><p>{t::sign_in()}</p>
        <p>{t::find_someone()}</p><p>{t::find()}</p><p>{t::finding()}</p><p>{t::find_no_one("@mira")}</p>
        <p>{t::signed_in_as()}</p><p>{t::keyboard_shortcuts()}</p><p>{t::sign_out_of("@mira")}</p>
        <p>{t::accounts()}</p><p>{t::switch_to("@ada")}</p><p>{t::add_an_account()}</p>
        <p>{move || t::unsent_drafts_would_go(n.get()).get()}</p><p>{t::keep_drafts()}</p><p>{t::discard_drafts()}</p>
        <p>{t::cancel()}</p><p>{t::language()}</p><p>{t::error_network()}</p><p>{t::error_server("503")}</p>
        <p>{move || t::error_rate_limited_for(n.get()).get()}</p><p>{t::reply()}</p><p>{t::post()}</p>
        <p>{t::replying_to_user("@ada")}</p><p>{t::post_text()}</p><p>{t::sending()}</p>
        <p>{move || t::replies_count(n.get()).get()}</p><p>{move || t::likes_count(n.get()).get()}</p><p>{t::load_more()}</p>
        <button on:click=move |_| { n.update(|n| *n += 1); language::switch(Language::De, true, None) }>"de"</button>
        <button on:click=move |_| language::switch(Language::Ar, true, None)>"ar"</button>
    }
}

fn main() {
    let start = LocalResource::new(language::start);
    leptos::mount::mount_to_body(move || move || start.get().map(|_| view! { <Page/> }));
}
