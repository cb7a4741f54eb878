//! "Find someone": a username, looked up exactly (the interface has no
//! search), then the profile; or, in words next to the field, that no one
//! has that name. Used in the header and in the empty timeline. The user
//! is read through the store, as every page reads.

use crate::i18n::{t, Text};
use crate::store::use_store;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// What was typed, as a username: trimmed, one leading `@` dropped.
pub fn wanted_username(typed: &str) -> Result<String, Text> {
    let name = typed.trim();
    let name = name.strip_prefix('@').unwrap_or(name);
    if name.is_empty() {
        Err(t::find_type_a_username().into())
    } else if name.chars().any(char::is_whitespace) {
        Err(t::find_no_spaces().into())
    } else if name.contains(['/', '?', '#', '@']) {
        Err(t::find_no_marks().into())
    } else {
        Ok(name.to_owned())
    }
}

#[component]
pub fn FindPerson(
    /// The search landmark's name, unique on the page.
    #[prop(into)]
    name: Text,
    /// The input's id, unique on the page.
    id: &'static str,
    /// The visible label.
    #[prop(into)]
    label: Text,
    /// Whether the label is shown or only read out.
    #[prop(optional)]
    hide_label: bool,
) -> impl IntoView {
    let (store, navigate) = (use_store(), use_navigate());
    let typed = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<Text>);
    let busy = RwSignal::new(false);
    let message_id = format!("{id}-message");
    let find = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        let name = match wanted_username(&typed.get_untracked()) {
            Ok(name) => name,
            Err(why) => return problem.set(Some(why)),
        };
        let go = {
            let navigate = navigate.clone();
            move |name: &str| {
                typed.set(String::new());
                problem.set(None);
                navigate(&crate::nav::AppPath::Profile(name).href(), Default::default());
            }
        };
        if store.user_by_key(&format!("@{name}")).is_some() {
            return go(&name);
        }
        busy.set(true);
        let store = store.clone();
        crate::nav::while_shown(async move {
            let answer = store.read_user(&format!("@{name}")).await;
            busy.set(false);
            match answer {
                Ok(_) => go(&name),
                Err(e) if e.is_not_found() => problem.set(Some(t::find_no_one(format!("@{name}")))),
                // Signed out, or the token may not read users: the profile
                // page says so, with a way to sign in.
                Err(crate::api::ApiError::Unauthorized(_) | crate::api::ApiError::Forbidden { .. }) => go(&name),
                Err(e) => problem.set(Some(e.explain())),
            }
        });
    };
    view! {
        <form class="find-person" role="search" aria-label=name on:submit=find>
            <label for=id class:visually-hidden=hide_label>{label}</label>
            <input id=id type="search" placeholder=t::username_placeholder() autocomplete="off" autocapitalize="none" spellcheck="false"
                enterkeyhint="go" aria-describedby=message_id.clone() aria-invalid=move || problem.with(Option::is_some).to_string()
                prop:value=move || typed.get()
                on:input=move |ev| { typed.set(event_target_value(&ev)); problem.set(None); }/>
            <button type="submit" disabled=move || busy.get()>{move || if busy.get() { t::finding().get() } else { t::find().get() }}</button>
            <p id=message_id class="find-message error" role="status">{move || problem.get().map(|why| why.get())}</p>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::wanted_username;

    #[test]
    fn a_typed_name_becomes_a_username_or_a_reason() {
        assert_eq!(wanted_username("  @mira "), Ok("mira".into()));
        assert_eq!(wanted_username("mira"), Ok("mira".into()));
        assert_eq!(wanted_username("Léa_2"), Ok("Léa_2".into()));
        assert!(wanted_username("").is_err());
        assert!(wanted_username("@").is_err());
        assert!(wanted_username("mi ra").is_err());
        assert!(wanted_username("../admin").is_err());
        assert!(wanted_username("a@b").is_err());
    }
}
