//! Signing out, of the current account or of all: when unsent drafts,
//! actions waiting in the outbox, mutes or bookmarks would go with it, it asks first whether
//! to keep them for the account's next sign-in on this browser or to
//! discard them. Nothing typed or done is lost without the person saying so.

use crate::account::session::use_session;
use crate::api::use_api;
use crate::browser::web_storage;
use crate::i18n::{t, Text};
use leptos::prelude::*;

#[component]
pub fn SignOutButton(#[prop(into)] label: Text, #[prop(optional)] all: bool) -> impl IntoView {
    let session = use_session();
    let api = StoredValue::new(use_api());
    // How many drafts and waiting actions would go, once the button was
    // pressed and there were some.
    let asking = RwSignal::new(None::<(usize, usize, usize, usize, usize)>);
    let out = move |keep_drafts: bool| {
        api.with_value(
            |api| if all { session.sign_out_all(api, keep_drafts) } else { session.sign_out(api, keep_drafts) },
        )
    };
    let press = move |_| {
        let accounts = if all { session.all_untracked() } else { session.signed_untracked().into_iter().collect() };
        let drafts: usize = accounts.iter().map(|s| web_storage::count_drafts(&s.user.uuid)).sum();
        let waiting: usize = accounts.iter().map(|s| crate::store::outbox::count(&s.user.uuid)).sum();
        let mutes: usize = accounts.iter().map(|s| crate::store::mutes::count(&s.user.uuid)).sum();
        let bookmarks: usize = accounts.iter().map(|s| crate::store::bookmarks::count(&s.user.uuid)).sum();
        let lists: usize = accounts.iter().map(|s| crate::store::lists::read(&s.user.uuid).len()).sum();
        match drafts + waiting + mutes + bookmarks + lists {
            0 => out(false),
            _ => asking.set(Some((drafts, waiting, mutes, bookmarks, lists))),
        }
    };
    view! {
        <button type="button" on:click=press aria-expanded=move || asking.get().is_some().to_string()>{label}</button>
        {move || asking.get().map(|(drafts, waiting, mutes, bookmarks, lists)| view! {
            // Named by what it asks about: drafts, waiting actions, mutes, or several.
            <div class="confirm" role="group" aria-label=match (drafts > 0, waiting > 0, mutes > 0, bookmarks > 0, lists > 0) {
                (true, false, false, false, false) => t::unsent_drafts(),
                (false, true, false, false, false) => t::sign_out_waiting(),
                (false, false, true, false, false) => t::sign_out_mutes(),
                (false, false, false, true, false) => t::bookmarks_title(),
                (false, false, false, false, true) => t::lists_title(),
                _ => t::sign_out_kept(),
            }>
                {(drafts > 0).then(|| view! { <p>{t::unsent_drafts_would_go(drafts as u64)}</p> })}
                {(waiting > 0).then(|| view! { <p>{t::waiting_would_go(waiting as u64)}</p> })}
                {(mutes > 0).then(|| view! { <p>{t::mutes_would_go(mutes as u64)}</p> })}
                {(bookmarks > 0).then(|| view! { <p>{t::bookmarks_would_go(bookmarks as u64)}</p> })}
                {(lists > 0).then(|| view! { <p>{t::lists_would_go(lists as u64)}</p> })}
                <button type="button" on:click=move |_| out(true)>
                    {if waiting + mutes + bookmarks > 0 { t::keep_for_next_sign_in() } else { t::keep_drafts() }}
                </button>
                <button type="button" class="danger" on:click=move |_| out(false)>
                    {if waiting + mutes + bookmarks > 0 { t::discard_them() } else { t::discard_drafts() }}
                </button>
                <button type="button" class="secondary" on:click=move |_| asking.set(None)>{t::cancel()}</button>
            </div>
        })}
    }
}
