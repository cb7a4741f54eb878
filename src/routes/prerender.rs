//! The first screen, rendered to HTML at build time (native builds only):
//! the signed-out sign-in page (the header, the offline notice's empty
//! place, the page) in every language, from
//! the same components and catalogs the wasm draws with. `index.html`'s
//! start puts the reader's language's copy on screen before the first
//! paint, and the wasm takes over from it (`browser::boot` and `index.html`,
//! docs/prerender.md).

use super::signin::SignIn;
use crate::account::session::Session;
use crate::components::header::SiteHeader;
use crate::i18n::{self, language, t, Language};
use leptos::prelude::*;
use leptos_router::components::Router;
use leptos_router::location::RequestUrl;
use perch_model::ClientConfig;
use std::path::Path;

/// Stands for the server's name while rendering: nothing is known at build
/// time about the server the app will be put in front of.
const SERVER: char = '\u{E000}';
/// Where the server's name goes in the HTML: `index.html` fills it in.
pub const SERVER_SLOT: &str = "<span data-perch-server></span>";

/// For each language the app offers, by code: `{"html": …, "title": …}`,
/// the sign-in screen and the tab's title. The catalogs are read from
/// `root/locales/`.
pub fn every_language(root: &Path) -> Result<String, String> {
    let _ = any_spawner::Executor::init_custom_executor(NothingLater);
    let mut all = serde_json::Map::new();
    for language in Language::OFFERED {
        let path = root.join(language.file());
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let catalog = language::read_text(language, &text)?;
        let (html, title) = signin_screen(catalog);
        all.insert(language.code().into(), serde_json::json!({ "html": html, "title": title }));
    }
    serde_json::to_string(&serde_json::Value::Object(all)).map_err(|e| e.to_string())
}

/// The header and the sign-in page of a visitor not signed in, as HTML,
/// and the page's title, in `catalog`'s language.
fn signin_screen(catalog: i18n::Catalog) -> (String, String) {
    let owner = Owner::new();
    owner.with(|| {
        i18n::install(catalog);
        let config = ClientConfig {
            api_base: format!("https://{SERVER}"),
            application_id: "perch".into(),
            local_copy_posts: None,
            activity_check_seconds: None,
        };
        let session = Session::nobody();
        let api = crate::api::Api::new(&config, session);
        provide_context(crate::store::Store::new(session, api.clone()));
        provide_context(api);
        provide_context(session);
        provide_context(config);
        provide_context(RequestUrl::new(crate::nav::AppPath::SignIn.href().as_str()));
        let html = view! {
            <Router>
                <SiteHeader/>
                <crate::components::offline::OfflineNotice/>
                <SignIn/>
            </Router>
        }
        .to_html();
        let title = t::title_page(t::sign_in().get()).get();
        (html.replace(SERVER, SERVER_SLOT), title)
    })
}

/// What a page starts for later (a read, a load, a wait for the paint)
/// does not run at build time: the render is the page's first frame only.
struct NothingLater;

impl any_spawner::CustomExecutor for NothingLater {
    fn spawn(&self, _: any_spawner::PinnedFuture<()>) {}
    fn spawn_local(&self, _: any_spawner::PinnedLocalFuture<()>) {}
    fn poll_local(&self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered() -> serde_json::Value {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&every_language(root).expect("rendered")).unwrap()
    }

    /// Each language's sign-in page, in its own words, with the slot for
    /// the server's name and nothing of the stand-in left.
    #[test]
    fn the_sign_in_page_is_rendered_in_every_language() {
        let all = rendered();
        for language in Language::OFFERED {
            let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(language.file())).unwrap();
            let words: serde_json::Value = serde_json::from_str(&text).unwrap();
            let screen = &all[language.code()];
            let html = screen["html"].as_str().unwrap();
            let sign_in = words["sign_in"].as_str().unwrap();
            assert!(html.contains(&format!(">{sign_in}</h1>")), "{}: {html}", language.code());
            assert!(html.contains("<header class=\"site-header\">"), "{}", language.code());
            assert!(html.contains("id=\"access-token\""), "{}", language.code());
            assert_eq!(html.matches(SERVER_SLOT).count(), 1, "{}", language.code());
            assert!(!html.contains(SERVER), "{}", language.code());
            assert_eq!(screen["title"], format!("{sign_in} · Perch"));
            // The language menu has every language, this one chosen.
            assert!(
                html.contains(&format!("value=\"{}\" lang=\"{}\" selected", language.code(), language.code())),
                "{html}"
            );
        }
    }

    /// A catalog that lacks a key is refused, as the browser refuses it.
    #[test]
    fn a_catalog_without_a_key_is_refused() {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("locales/en.json")).unwrap();
        let mut words: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).unwrap();
        assert!(language::read_text(Language::En, &text).is_ok());
        words.remove("sign_in");
        let without = serde_json::to_string(&words).unwrap();
        let refused = language::read_text(Language::En, &without).unwrap_err();
        assert!(refused.contains("sign_in"), "{refused}");
    }
}
