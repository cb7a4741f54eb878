//! `/signin`: signing in with the server's OAuth page or with a token.

use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn SignIn() -> impl IntoView {
    let config = crate::use_config();
    view! {
        <Title text="Sign in · Perch"/>
        <main id="main" class="page">
            <h1>"Sign in"</h1>
            <p>"Perch signs in to the server at " <code>{config.api_base}</code> "."</p>
        </main>
    }
}
