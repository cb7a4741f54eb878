//! `/oauth/callback`: where the server's sign-in page sends the browser back.

use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn OAuthCallback() -> impl IntoView {
    view! {
        <Title text="Signing in · Perch"/>
        <main id="main" class="page">
            <h1>"Signing in"</h1>
            <p role="status">"Finishing sign-in…"</p>
        </main>
    }
}
