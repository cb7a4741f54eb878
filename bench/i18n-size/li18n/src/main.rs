//! The same page as `own/` with leptos_i18n 0.6 (plurals through ICU4X).
leptos_i18n::load_locales!();
use i18n::*;
use leptos::prelude::*;

#[component]
fn Page() -> impl IntoView {
    let i18n = use_i18n();
    let n = RwSignal::new(3u64);
    view! {
        <p>{t!(i18n, skip_to_content)}</p><p>{t!(i18n, nav_home)}</p><p>{t!(i18n, nav_profile)}</p><p>{t!(i18n, sign_in)}</p>
        <p>{t!(i18n, find_someone)}</p><p>{t!(i18n, find)}</p><p>{t!(i18n, finding)}</p><p>{t!(i18n, find_no_one, handle = "@mira")}</p>
        <p>{t!(i18n, signed_in_as)}</p><p>{t!(i18n, keyboard_shortcuts)}</p><p>{t!(i18n, sign_out_of, handle = "@mira")}</p>
        <p>{t!(i18n, accounts)}</p><p>{t!(i18n, switch_to, handle = "@ada")}</p><p>{t!(i18n, add_an_account)}</p>
        <p>{t!(i18n, unsent_drafts_would_go, count = move || n.get())}</p><p>{t!(i18n, keep_drafts)}</p><p>{t!(i18n, discard_drafts)}</p>
        <p>{t!(i18n, cancel)}</p><p>{t!(i18n, language)}</p><p>{t!(i18n, error_network)}</p><p>{t!(i18n, error_server, status = "503")}</p>
        <p>{t!(i18n, error_rate_limited_for, count = move || n.get())}</p><p>{t!(i18n, reply)}</p><p>{t!(i18n, post)}</p>
        <p>{t!(i18n, replying_to_user, handle = "@ada")}</p><p>{t!(i18n, post_text)}</p><p>{t!(i18n, sending)}</p>
        <p>{t!(i18n, replies_count, count = move || n.get())}</p><p>{t!(i18n, likes_count, count = move || n.get())}</p><p>{t!(i18n, load_more)}</p>
        <button on:click=move |_| { n.update(|n| *n += 1); i18n.set_locale(Locale::de) }>"de"</button>
        <button on:click=move |_| i18n.set_locale(Locale::ar)>"ar"</button>
    }
}

fn main() {
    leptos::mount::mount_to_body(|| view! { <I18nContextProvider><Page/></I18nContextProvider> });
}
