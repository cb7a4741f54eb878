//! The first screen, rendered to HTML at build time (native builds only):
//! the signed-out sign-in page (the header, the offline notice's empty
//! place, the page) in every language, from
//! the same components and catalogs the wasm draws with. `index.html`'s
//! start puts the reader's language's copy on screen before the first
//! paint, and the wasm takes over from it (`browser::boot` and `index.html`,
//! docs/prerender.md).

use super::signin::SignIn;
use crate::account::session::Session;
use crate::components::header::SignedOutHeader;
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

/// For each language the app offers, by code: `{"html": …, "title": …,
/// "words": …, "later_words": …}`, the sign-in screen, the tab's title,
/// and the two parts of its catalog as the app serves them (JSON text,
/// `i18n`, "Words by page"). The catalogs are read from `root/locales/`.
/// The screen is drawn with the start's words alone: one that reads a
/// later word is refused.
pub fn every_language(root: &Path) -> Result<String, String> {
    let _ = any_spawner::Executor::init_custom_executor(NothingLater);
    let mut all = serde_json::Map::new();
    for language in Language::OFFERED {
        let path = root.join(language.file());
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let catalog = language::read_text(language, &text)?;
        let (words, later_words) = (language::part_text(&catalog, false), language::part_text(&catalog, true));
        let start = i18n::Catalog {
            language,
            entries: catalog
                .entries
                .into_iter()
                .enumerate()
                .map(|(i, entry)| if i18n::is_later(i) { i18n::Entry::Absent } else { entry })
                .collect(),
        };
        let absent_before = i18n::absent_reads();
        let (html, title) = signin_screen(start);
        if i18n::absent_reads() != absent_before {
            return Err(format!("{}: the sign-in page reads a word that comes later (build.rs)", language.code()));
        }
        all.insert(
            language.code().into(),
            serde_json::json!({ "html": html, "title": title, "words": words, "later_words": later_words }),
        );
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
            store_posts: None,
            activity_check_seconds: None,
        };
        let session = Session::nobody();
        let api = crate::api::Api::new(&config, session);
        provide_context(api);
        provide_context(session);
        provide_context(config);
        provide_context(RequestUrl::new(crate::nav::AppPath::SignIn.href().as_str()));
        let html = view! {
            <Router>
                <SignedOutHeader/>
                <crate::components::offline::OfflinePlace/>
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

    /// A JSON object's entries in the order written (the app's reading
    /// checks the order).
    fn ordered(text: &str) -> Vec<(String, serde_json::Value)> {
        struct Ordered(Vec<(String, serde_json::Value)>);
        impl<'de> serde::Deserialize<'de> for Ordered {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Entries;
                impl<'de> serde::de::Visitor<'de> for Entries {
                    type Value = Ordered;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                        let mut all = Vec::new();
                        while let Some(entry) = map.next_entry()? {
                            all.push(entry);
                        }
                        Ok(Ordered(all))
                    }
                }
                d.deserialize_map(Entries)
            }
        }
        serde_json::from_str::<Ordered>(text).unwrap().0
    }

    /// Each language's catalog is served in two parts that together hold
    /// every key once, in the catalog's order: the start's words (the
    /// header's, sign-in's, Home's) and the later pages' (Settings',
    /// Activity's), each with the language's own text.
    #[test]
    fn the_words_come_in_two_parts_the_later_pages_apart() {
        let all = rendered();
        let english =
            ordered(&std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("locales/en.json")).unwrap());
        let english_keys: Vec<&String> = english.iter().map(|(k, _)| k).collect();
        for language in Language::OFFERED {
            let screen = &all[language.code()];
            let part = |name: &str| ordered(screen[name].as_str().unwrap());
            let (start, later) = (part("words"), part("later_words"));
            let named = |part: &[(String, serde_json::Value)], key: &str| part.iter().any(|(k, _)| k == key);
            assert!(
                named(&start, "sign_in") && named(&start, "nav_home") && named(&start, "post"),
                "{}",
                language.code()
            );
            assert!(named(&later, "settings_title") && named(&later, "activity_title"), "{}", language.code());
            assert!(!named(&start, "settings_title") && !named(&later, "sign_in"), "{}", language.code());
            // Together, every key once, each part in the catalog's order.
            let in_order = |part: &[(String, serde_json::Value)]| {
                let at: Vec<usize> =
                    part.iter().map(|(k, _)| english_keys.iter().position(|e| *e == k).unwrap()).collect();
                at.windows(2).all(|w| w[0] < w[1])
            };
            assert!(in_order(&start) && in_order(&later), "{}", language.code());
            assert_eq!(start.len() + later.len(), english_keys.len(), "{}", language.code());
            let source: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(language.file())).unwrap(),
            )
            .unwrap();
            for (key, value) in start.iter().chain(&later) {
                assert_eq!(&source[key], value, "{}: {key}", language.code());
            }
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
