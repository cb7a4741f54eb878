//! The same page as `own/` with English text compiled in: the baseline.
use leptos::prelude::*;

#[component]
fn Page() -> impl IntoView {
    let n = RwSignal::new(3u64);
    view! {
        <p>"Skip to content"</p>
        <p>"Home"</p>
        <p>"Profile"</p>
        <p>"Sign in"</p>
        <p>"Find someone"</p>
        <p>"Find"</p>
        <p>"Finding…"</p>
        <p>"No one is called {handle} on this server."</p>
        <p>"Signed in as"</p>
        <p>"Keyboard shortcuts"</p>
        <p>"Sign out of {handle}"</p>
        <p>"Accounts"</p>
        <p>"Switch to {handle}"</p>
        <p>"Add an account"</p>
        <p>{move || format!("{} unsent drafts would go with it.", n.get())}</p>
        <p>"Keep drafts for the next sign-in"</p>
        <p>"Discard drafts"</p>
        <p>"Cancel"</p>
        <p>"Language"</p>
        <p>"Perch could not reach the server. Check your connection and try again."</p>
        <p>"The server had a problem ({status}). Try again in a moment."</p>
        <p>{move || format!("{} The server asks Perch to slow down. Try again in  seconds.", n.get())}</p>
        <p>"Reply"</p>
        <p>"Post"</p>
        <p>"Replying to {handle}"</p>
        <p>"Post text"</p>
        <p>"Sending…"</p>
        <p>{move || format!("{} replies", n.get())}</p>
        <p>{move || format!("{} likes", n.get())}</p>
        <p>"Load more"</p>
        <button on:click=move |_| n.update(|n| *n += 1)>"+"</button>
    }
}

fn main() {
    leptos::mount::mount_to_body(Page);
}
