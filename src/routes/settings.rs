//! `/settings`: every setting in one place. The language (the language
//! menu), Undo send (the outbox's), the account's mutes (people and words,
//! with Undo; `store/mutes.rs`), "Your Perch data" (the mutes and the
//! bookmarks as one file, exported and imported: `store/data_file.rs`), and what
//! is kept in this browser for the account (the local copy's size, with a
//! button that empties it, and what waits to be sent). Each setting keeps
//! its one home in the code; this page only shows them. Split out of the
//! main module in its own group.
//!
//! Words: later.

use crate::account::session::use_session;
use crate::browser::navigation::{PageHeading, Title};
use crate::components::language_menu::LanguageMenu;
use crate::components::later::{later, lazy, Meanwhile};
use crate::i18n::t;
use crate::nav::{while_shown, AppPath};
use crate::store::data_file;
use crate::store::mutes::{clean_word, use_mutes, Muted, Mutes};
use crate::store::use_store;
use leptos::prelude::*;
use leptos_router::components::A;
use wasm_bindgen::JsCast;

#[component]
pub fn SettingsPage() -> impl IntoView {
    later(settings_page::GROUP, settings_page::load, settings_page::draw, Meanwhile::Page)
}

lazy! { extras, fn settings_page() {
    let session = use_session();
    view! {
        <Title text=move || t::title_page(t::settings_title().get()).get()/>
        <main id="main" class="page settings">
            <PageHeading text=t::settings_title()/>
            <section aria-labelledby="settings-language">
                <h2 id="settings-language">{t::settings_language()}</h2>
                <LanguageMenu/>
            </section>
            {move || match (session.user(), use_mutes()) {
                (Some(me), Some(mutes)) => view! {
                    <section aria-labelledby="settings-sending">
                        <h2 id="settings-sending">{t::settings_sending()}</h2>
                        <label class="switch"><input type="checkbox" prop:checked=crate::store::outbox::undo_send()
                            on:change=move |ev| crate::store::outbox::set_undo_send(event_target_checked(&ev))/>" " {t::undo_send_setting()}</label>
                    </section>
                    <TimelineSettings account=me.uuid.clone()/>
                    <MutesSettings mutes/>
                    <DataSettings mutes username=me.username.clone() account=me.uuid.clone()/>
                    <KeptHere account=me.uuid.clone()/>
                }.into_any(),
                _ => {
                    let href = crate::account::oauth::signin_href(&AppPath::Settings.href());
                    view! { <p>{t::settings_signed_out()} " " <A href=href>{t::sign_in()}</A></p> }.into_any()
                }
            }}
        </main>
    }
}}

/// What Home shows: replies or not (`timeline/replies.rs`; a list has
/// the same choice on its page).
#[component]
fn TimelineSettings(account: String) -> impl IntoView {
    let hidden = {
        let account = account.clone();
        move || crate::timeline::replies::hidden(&account, &crate::timeline::Feed::Home)
    };
    let said = RwSignal::new(None::<(bool, String)>);
    let change = move |ev: leptos::ev::Event| {
        if !crate::timeline::replies::set_hidden(&account, &crate::timeline::Feed::Home, event_target_checked(&ev)) {
            said.set(Some((true, t::data_not_kept().get())));
        }
    };
    view! {
        <section aria-labelledby="settings-timelines">
            <h2 id="settings-timelines">{t::settings_timelines()}</h2>
            <label class="switch"><input type="checkbox" prop:checked=hidden on:change=change/>" " {t::hide_replies_home()}</label>
            <p class="note">{t::hide_replies_note()}</p>
            <crate::components::states::Said said/>
        </section>
    }
}

/// The account's mutes: the people and the words, each with Undo; a word
/// to add.
#[component]
fn MutesSettings(mutes: Mutes) -> impl IntoView {
    let muted = Memo::new(move |_| mutes.get());
    let word = RwSignal::new(String::new());
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if let Some(w) = clean_word(&word.get_untracked()) {
            mutes.change(|m| {
                if !m.words.iter().any(|k| k.to_lowercase() == w.to_lowercase()) {
                    m.words.insert(0, w);
                }
            });
            word.set(String::new());
        }
    };
    view! {
        <section aria-labelledby="settings-mutes" class="mutes">
            <h2 id="settings-mutes">{t::settings_mutes()}</h2>
            <p class="note">{t::mutes_never_told()}</p>
            <h3>{t::muted_people()}</h3>
            {move || {
                let people = muted.with(|m| m.people.clone());
                if people.is_empty() {
                    view! { <p class="empty">{t::no_one_muted()}</p> }.into_any()
                } else {
                    view! {
                        <ul class="muted-list">
                            {people.into_iter().map(|p| {
                                let handle = format!("@{}", p.username);
                                let label = t::unmute_user(handle.clone());
                                view! {
                                    <li><A href=AppPath::Profile(&p.username).href()>{handle}</A>
                                        " " <button type="button" class="secondary" aria-label=label
                                            on:click=move |_| mutes.unmute_person(&p.uuid)>{t::undo()}</button></li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any()
                }
            }}
            <h3>{t::muted_words()}</h3>
            <form class="mute-word" on:submit=add>
                <label for="mute-word">{t::word_to_mute()}</label>
                <div class="row">
                    <input id="mute-word" type="text" maxlength="100" aria-describedby="mute-word-help"
                        prop:value=word on:input=move |ev| word.set(event_target_value(&ev))/>
                    <button type="submit">{t::mute_word()}</button>
                </div>
                <p id="mute-word-help" class="help">{t::mute_word_help()}</p>
            </form>
            {move || {
                let words = muted.with(|m| m.words.clone());
                if words.is_empty() {
                    view! { <p class="empty">{t::no_word_muted()}</p> }.into_any()
                } else {
                    view! {
                        <ul class="muted-list">
                            {words.into_iter().map(|w| {
                                let label = t::unmute_word(w.clone());
                                let gone = w.clone();
                                view! {
                                    <li><span dir="auto">{w}</span>
                                        " " <button type="button" class="secondary" aria-label=label
                                            on:click=move |_| mutes.change(|m| m.words.retain(|k| k != &gone))>{t::undo()}</button></li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any()
                }
            }}
        </section>
    }
}

/// "Your Perch data": the mutes, the bookmarks and the lists as one file, exported and
/// imported (`store/data_file.rs`). A broken file changes nothing and says so.
#[component]
fn DataSettings(mutes: Mutes, username: String, account: String) -> impl IntoView {
    let said = RwSignal::new(None::<(bool, String)>);
    let bookmarks = crate::components::bookmark::bookmarks();
    let lists = crate::store::lists::use_lists();
    let export = {
        let account = account.clone();
        move |_| download(&format!("perch-data-{username}.json"), &data_file::export(&mutes.get(), &account))
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        input.set_value("");
        let (account, bookmarks) = (account.clone(), bookmarks.clone());
        while_shown(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string());
            let Some(data) = text.as_deref().and_then(data_file::read) else {
                said.set(Some((true, t::data_file_unreadable().get())));
                return;
            };
            let (muted, marked, listed) = (data.mutes.count(), data.bookmarks.len(), data.lists.len());
            if !data_file::keep_bookmarks(&account, data.bookmarks) {
                said.set(Some((true, t::data_not_kept().get())));
                return;
            }
            if listed > 0 && !lists.is_some_and(|l| l.change(crate::store::lists::Change::Import(data.lists))) {
                said.set(Some((true, t::data_not_kept().get())));
                return;
            }
            if let Some(bookmarks) = &bookmarks {
                bookmarks.read();
            }
            mutes.change(|m| merge(m, data.mutes));
            let mut text =
                format!("{} {}", t::mutes_imported(muted as u64).get(), t::bookmarks_imported(marked as u64).get());
            if listed > 0 {
                text = format!("{text} {}", t::lists_imported(listed as u64).get());
            }
            said.set(Some((false, text)));
        });
    };
    view! {
        <section aria-labelledby="settings-data">
            <h2 id="settings-data">{t::settings_data()}</h2>
            <p class="note">{t::data_help()}</p>
            <div class="actions">
                <button type="button" class="secondary" on:click=export>{t::export_data()}</button>
                <label class="file-button">{t::import_data()}
                    <input type="file" accept="application/json,.json" on:change=import/>
                </label>
            </div>
            <crate::components::states::Said said/>
        </section>
    }
}

/// `file`'s mutes added to `m`, each once.
fn merge(m: &mut Muted, file: Muted) {
    for p in file.people {
        if !m.mutes_person(&p.uuid) {
            m.people.push(p);
        }
    }
    for w in file.words {
        if !m.words.iter().any(|k| k.to_lowercase() == w.to_lowercase()) {
            m.words.push(w);
        }
    }
}

/// Offers `text` as a file named `name` (a Blob and a link clicked once).
fn download(name: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(link) =
        document().create_element("a").and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().map_err(Into::into))
    {
        link.set_href(&url);
        link.set_download(name);
        link.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// What this browser keeps for the account: the local copy (its size, and
/// a button that empties it) and what waits to be sent.
#[component]
fn KeptHere(account: String) -> impl IntoView {
    let store = use_store();
    let size = RwSignal::new(None::<Option<usize>>);
    let emptied = RwSignal::new(false);
    {
        let account = account.clone();
        while_shown(async move { size.set(Some(crate::store::copy::size(&account).await)) });
    }
    let waiting = store.waiting();
    let empty = move |_| {
        crate::store::copy::forget(&account);
        size.set(Some(None));
        emptied.set(true);
    };
    view! {
        <section aria-labelledby="settings-kept">
            <h2 id="settings-kept">{t::settings_kept()}</h2>
            <p>{move || match size.get() {
                Some(Some(bytes)) => t::kept_copy_size(kilobytes(bytes)).get(),
                Some(None) => t::kept_copy_none().get(),
                None => String::new(),
            }}</p>
            <p><A href=AppPath::Outbox.href()>{move || t::waiting_count_label(waiting.with(Vec::len) as u64).get()}</A></p>
            <button type="button" class="secondary" on:click=empty
                disabled=move || size.get().is_some_and(|s| s.is_none())>{t::empty_copy()}</button>
            {move || emptied.get().then(|| view! { <p role="status">{t::copy_emptied()}</p> })}
        </section>
    }
}

/// "12 KB", in the reader's digits.
fn kilobytes(bytes: usize) -> String {
    format!("{} KB", crate::i18n::number(bytes.div_ceil(1024) as u64))
}
