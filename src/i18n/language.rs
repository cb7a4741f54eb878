//! Which language the interface speaks: chosen from the browser's preferred
//! languages on the first visit, then as the reader picks it in the
//! language menu (kept and followed across tabs by
//! `browser/kept_language.rs`, which gives it here). Owns loading a catalog
//! (`locales/<code>.json`, which `index.html` starts fetching in parallel
//! with the wasm, else fetched through gloo-net), checking it, switching
//! with no reload, `<html lang dir>`, and the plural rules and number
//! writing of each language.

use super::{install, Catalog, Entry};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    En,
    De,
    Ar,
}

impl Language {
    /// The languages the menu offers, each with a catalog in `locales/`.
    pub const OFFERED: [Language; 3] = [Language::En, Language::De, Language::Ar];

    /// Its BCP 47 code, as `<html lang>` and `Intl` take it.
    pub const fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::De => "de",
            Language::Ar => "ar",
        }
    }

    /// The language a code names; `None` for any other text.
    pub fn from_code(code: &str) -> Option<Language> {
        Language::OFFERED.into_iter().find(|l| l.code() == code)
    }

    /// Its name in itself, as a language menu lists it.
    pub fn own_name(self) -> &'static str {
        match self {
            Language::En => "English",
            Language::De => "Deutsch",
            Language::Ar => "العربية",
        }
    }

    /// The writing direction of the interface in it.
    pub fn dir(self) -> &'static str {
        if self == Language::Ar {
            "rtl"
        } else {
            "ltr"
        }
    }

    /// Whether its clock runs to 24 hours ("15:04", "09:05") rather than
    /// twice to 12 ("3:04 PM"), as CLDR writes a short time in it.
    pub fn clock_24h(self) -> bool {
        self == Language::De
    }

    /// Where its catalog is, relative to the document's base: the words
    /// every start reads (the whole catalog in the sources).
    pub fn file(self) -> &'static str {
        match self {
            Language::En => "locales/en.json",
            Language::De => "locales/de.json",
            Language::Ar => "locales/ar.json",
        }
    }

    /// Where its later words are (`i18n`, "Words by page"), as the build
    /// writes them.
    pub fn later_file(self) -> &'static str {
        match self {
            Language::En => "locales/en.later.json",
            Language::De => "locales/de.later.json",
            Language::Ar => "locales/ar.later.json",
        }
    }

    /// The first offered language among the browser's preferred ones
    /// ("de-AT" takes German), English when none is.
    pub fn preferred(wanted: &[String]) -> Language {
        wanted
            .iter()
            .find_map(|w| {
                let base = w.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
                Language::OFFERED.into_iter().find(|l| l.code() == base)
            })
            .unwrap_or(Language::En)
    }
}

// One list of languages: build.rs's, which it checks `locales/`,
// `index.html` and `assets/sw.js` against and gives here as
// `t::LANGUAGES`. The enum names the same codes in the same order, or the
// app does not build.
const _: () = {
    let (listed, offered) = (&super::t::LANGUAGES, &Language::OFFERED);
    assert!(listed.len() == offered.len(), "Language::OFFERED and build.rs's LANGUAGES differ");
    let mut i = 0;
    while i < listed.len() {
        let (a, b) = (listed[i].as_bytes(), offered[i].code().as_bytes());
        assert!(a.len() == b.len(), "Language::OFFERED and build.rs's LANGUAGES differ");
        let mut j = 0;
        while j < a.len() {
            assert!(a[j] == b[j], "Language::OFFERED and build.rs's LANGUAGES differ");
            j += 1;
        }
        i += 1;
    }
};

/// The language to start in: the one kept from the menu, else the
/// browser's.
fn chosen(kept: Option<Language>) -> Language {
    if let Some(kept) = kept {
        return kept;
    }
    let wanted: Vec<String> =
        leptos::prelude::window().navigator().languages().iter().filter_map(|l| l.as_string()).collect();
    Language::preferred(&wanted)
}

/// Loads the catalog to start in and puts it in use. `index.html` has
/// already asked for it (`window.perchCatalog`, with the language it chose
/// in `window.perchLanguage`); when that is missing or failed, it is
/// fetched here, and English when the chosen one cannot be had. `kept` is
/// the language the reader chose on an earlier visit, if any.
pub async fn start(kept: Option<Language>) -> Result<(), String> {
    let language = chosen(kept);
    let window = leptos::prelude::window();
    let asked = js_sys::Reflect::get(&window, &"perchLanguage".into()).ok().and_then(|v| v.as_string());
    let early = js_sys::Reflect::get(&window, &"perchCatalog".into())
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
        .filter(|_| asked.as_deref() == Some(language.code()));
    let mut problem = String::new();
    let mut fetched = Vec::new();
    for (language, early) in [(language, early), (language, None), (Language::En, None)] {
        // A fetch that already failed is not made again.
        if early.is_none() {
            if fetched.contains(&language) {
                continue;
            }
            fetched.push(language);
        }
        match catalog(language, early).await {
            Ok(catalog) => {
                apply(catalog);
                return Ok(());
            }
            Err(why) => {
                leptos::logging::warn!("{why}");
                problem = why;
            }
        }
    }
    Err(problem)
}

/// Switches to `language` at once, with no reload, with its later words
/// too when the ones in use have them. On failure the language in use
/// stays, and the error says why.
pub async fn switch(language: Language) -> Result<(), String> {
    let mut catalog = catalog(language, None).await?;
    if super::later_here() {
        catalog.add(later_part(language).await?);
    }
    apply(catalog);
    Ok(())
}

/// The later words of `language` (`i18n`, "Words by page").
pub async fn later_part(language: Language) -> Result<Catalog, String> {
    let json = fetch_json(language.later_file()).await.map_err(|why| format!("{}: {why}", language.later_file()))?;
    read(language, &json)
}

/// Shown instead of the app when not even English's words could be
/// loaded: the only words of Perch outside the catalogs, as there is none.
#[leptos::component]
pub fn NoWords(problem: String) -> impl leptos::IntoView {
    use leptos::prelude::*;
    view! {
        <main id="main" class="page config-problem">
            <h1>"Perch cannot start"</h1>
            <p class="error" role="alert">{problem}</p>
            <button type="button" on:click=|_| { let _ = window().location().reload(); }>"Try again"</button>
        </main>
    }
}

fn apply(catalog: Catalog) {
    if let Some(html) = leptos::prelude::document().document_element() {
        let _ = html.set_attribute("lang", catalog.language.code());
        let _ = html.set_attribute("dir", catalog.language.dir());
    }
    install(catalog);
}

/// The catalog of `language`: from `early` (the request `index.html`
/// started) when there is one, else fetched through gloo-net.
async fn catalog(language: Language, early: Option<js_sys::Promise>) -> Result<Catalog, String> {
    let json = match early {
        Some(promise) => JsFuture::from(promise).await.map_err(|_| "the early request failed".to_owned()),
        None => fetch_json(language.file()).await,
    };
    match json {
        Ok(json) => read(language, &json),
        Err(why) => Err(format!("{}: {why}", language.file())),
    }
}

/// The JSON at `file`, fetched through gloo-net.
async fn fetch_json(file: &str) -> Result<JsValue, String> {
    match gloo_net::http::Request::get(file).send().await {
        Ok(reply) if reply.ok() => match reply.text().await {
            Ok(text) => js_sys::JSON::parse(&text).map_err(|_| "not JSON".to_owned()),
            Err(why) => Err(why.to_string()),
        },
        Ok(reply) => Err(format!("the server answered {}", reply.status())),
        Err(why) => Err(why.to_string()),
    }
}

/// Reads a parsed catalog file: an object of exactly `t`'s keys, in its
/// order (the fingerprint), each a string or an object of strings; or of
/// exactly the keys of one of its parts, the words every start reads or
/// the later ones (the other part's entries are then `Entry::Absent`). A
/// file of another build of the app, or anything else, is refused.
pub fn read(language: Language, json: &JsValue) -> Result<Catalog, String> {
    let refuse = |why: &str| Err(format!("{}: {why}", language.file()));
    if !json.is_object() || js_sys::Array::is_array(json) {
        return refuse("not a catalog");
    }
    let object: &js_sys::Object = json.unchecked_ref();
    let keys = js_sys::Object::keys(object);
    let mut hash: u32 = 0x811c_9dc5;
    for key in keys.iter() {
        for b in key.as_string().unwrap_or_default().bytes().chain([b'\n']) {
            hash ^= b as u32;
            hash = hash.wrapping_mul(0x0100_0193);
        }
    }
    let later = (0..super::t::COUNT).filter(|&i| super::is_later(i)).count();
    // Which messages the file holds: all, the start's or the later ones.
    let holds: fn(usize) -> bool = match (keys.length() as usize, hash) {
        (n, h) if n == super::t::COUNT && h == super::t::FINGERPRINT => |_: usize| true,
        (n, h) if n == super::t::COUNT - later && h == super::t::FINGERPRINT_START => |i| !super::is_later(i),
        (n, h) if n == later && h == super::t::FINGERPRINT_LATER => super::is_later,
        _ => return refuse("made for another version of Perch"),
    };
    let values = js_sys::Object::values(object);
    let mut values = values.iter();
    let mut entries = Vec::with_capacity(super::t::COUNT);
    for index in 0..super::t::COUNT {
        if !holds(index) {
            entries.push(Entry::Absent);
            continue;
        }
        let Some(value) = values.next() else { return refuse("made for another version of Perch") };
        let entry = if let Some(text) = value.as_string() {
            Entry::Text(text)
        } else if value.is_object() {
            let mut forms = Vec::new();
            for pair in js_sys::Object::entries(value.unchecked_ref()).iter() {
                let pair: js_sys::Array = pair.unchecked_into();
                match (pair.get(0).as_string(), pair.get(1).as_string()) {
                    (Some(form), Some(text)) => forms.push((form, text)),
                    _ => return refuse("a plural form that is not text"),
                }
            }
            Entry::Plural(forms)
        } else {
            return refuse("an entry that is not text");
        };
        entries.push(entry);
    }
    Ok(Catalog { language, entries })
}

/// The CLDR plural category of the whole number `count` in `language`
/// ("one", "few", …): the rules of CLDR 46 for integers, written out so
/// that no `Intl.PluralRules` (and the browser's locale data it loads, 30–45 ms
/// on a slow phone) is made before the first screen (issue 37).
pub fn plural_category(language: Language, count: u64) -> &'static str {
    match language {
        Language::En | Language::De => {
            if count == 1 {
                "one"
            } else {
                "other"
            }
        }
        Language::Ar => match (count, count % 100) {
            (0, _) => "zero",
            (1, _) => "one",
            (2, _) => "two",
            (_, 3..=10) => "few",
            (_, 11..=99) => "many",
            _ => "other",
        },
    }
}

/// `count` written in `language` as the browser's `Intl.NumberFormat`
/// writes it ("1,234", "1.234" in German, "1,234" in Arabic, whose CLDR
/// default is Latin digits), without making one.
pub fn number(language: Language, count: u64) -> String {
    let separator = match language {
        Language::En | Language::Ar => ',',
        Language::De => '.',
    };
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(separator);
        }
        out.push(digit);
    }
    out
}

/// Reads a catalog file's text outside the browser (the first screen's
/// render at build time, `src/bin/prerender.rs`): each of `t`'s keys, by
/// name. A key missing, or an entry that is neither text nor plural forms,
/// is refused, as [`read`] refuses them.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_text(language: Language, text: &str) -> Result<Catalog, String> {
    let refuse = |why: String| Err(format!("{}: {why}", language.file()));
    let object: std::collections::HashMap<String, serde_json::Value> = match serde_json::from_str(text) {
        Ok(object) => object,
        Err(e) => return refuse(e.to_string()),
    };
    let mut entries = Vec::with_capacity(super::t::COUNT);
    for key in super::t::KEYS {
        let entry = match object.get(key) {
            Some(serde_json::Value::String(text)) => Entry::Text(text.clone()),
            Some(serde_json::Value::Object(forms)) => {
                let mut plural = Vec::new();
                for (form, text) in forms {
                    match text.as_str() {
                        Some(text) => plural.push((form.clone(), text.to_owned())),
                        None => return refuse(format!("{key}: a plural form that is not text")),
                    }
                }
                Entry::Plural(plural)
            }
            _ => return refuse(format!("{key}: missing, or not text")),
        };
        entries.push(entry);
    }
    Ok(Catalog { language, entries })
}

/// The part of `catalog` every start reads (`later` false) or the later
/// one, as the JSON text the app serves and [`read`] reads: its keys in
/// `t`'s order (native: the build writes it, `perch-prerender`).
#[cfg(not(target_arch = "wasm32"))]
pub fn part_text(catalog: &Catalog, later: bool) -> String {
    let mut object = String::from("{");
    for (index, (key, entry)) in super::t::KEYS.iter().zip(&catalog.entries).enumerate() {
        if super::is_later(index) != later {
            continue;
        }
        let value = match entry {
            Entry::Text(text) => serde_json::Value::from(text.as_str()),
            Entry::Plural(forms) => {
                serde_json::Value::Object(forms.iter().map(|(f, t)| (f.clone(), t.as_str().into())).collect())
            }
            Entry::Absent => continue,
        };
        if object.len() > 1 {
            object.push(',');
        }
        object.push_str(&serde_json::Value::from(*key).to_string());
        object.push(':');
        object.push_str(&value.to_string());
    }
    object.push('}');
    object
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_offered_preferred_language_is_taken() {
        let wanted = |list: &[&str]| Language::preferred(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(wanted(&["fr-FR", "de-AT", "en"]), Language::De);
        assert_eq!(wanted(&["AR"]), Language::Ar);
        assert_eq!(wanted(&["fr", "es"]), Language::En);
        assert_eq!(wanted(&[]), Language::En);
    }

    #[test]
    fn only_known_codes_name_a_language() {
        assert_eq!(Language::from_code("ar"), Some(Language::Ar));
        assert_eq!(Language::from_code("../de"), None);
        assert_eq!(Language::from_code("DE"), None);
    }

    #[test]
    fn plural_categories_are_cldrs_for_whole_numbers() {
        let of = |language, counts: &[u64]| counts.iter().map(|&n| plural_category(language, n)).collect::<Vec<_>>();
        assert_eq!(of(Language::En, &[0, 1, 2, 21]), ["other", "one", "other", "other"]);
        assert_eq!(of(Language::De, &[0, 1, 2, 101]), ["other", "one", "other", "other"]);
        assert_eq!(
            of(Language::Ar, &[0, 1, 2, 3, 10, 11, 99, 100, 101, 102, 103, 111, 1000]),
            ["zero", "one", "two", "few", "few", "many", "many", "other", "other", "other", "few", "many", "other"]
        );
    }

    #[test]
    fn numbers_are_grouped_by_thousands_in_each_languages_way() {
        assert_eq!(number(Language::En, 0), "0");
        assert_eq!(number(Language::En, 999), "999");
        assert_eq!(number(Language::En, 1000), "1,000");
        assert_eq!(number(Language::De, 1_234_567), "1.234.567");
        assert_eq!(number(Language::Ar, 12_345), "12,345");
        assert_eq!(number(Language::En, u64::MAX), "18,446,744,073,709,551,615");
    }
}
