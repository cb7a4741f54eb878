//! The app's build script: checks the interface's message catalogs
//! (`locales/*.json`) and turns English's keys into typed functions, which
//! `src/i18n/mod.rs` includes as `t::…`.
//!
//! A catalog is a JSON object of `"key": "text"` or, for a count,
//! `"key": { "one": "…", "other": "…" }` with the plural forms its
//! language has (CLDR). Texts name their placeholders `{like_this}`; a
//! plural's count is `{count}`. The build fails, naming the file and the
//! key, when a catalog:
//! - misses one of English's keys, has one English does not, or orders
//!   them differently (the app reads entries by position);
//! - makes a text a plural or the other way round;
//! - drops a placeholder or adds one English does not fill;
//! - lacks a plural form its language needs, or has one it does not.
//!
//! So a key missing in the code is a compile error (no such function), a
//! wrong placeholder is one too (no such argument), and a catalog that is
//! not complete is one as well.
//!
//! It also decides which words every start reads and which come later
//! (`src/i18n/mod.rs`, "Words by page"): a message is a later one when
//! every `t::` that names it is in a file whose first lines say
//! `//! Words: later.`, a file drawn only by split modules whose words are
//! "later" in `split.toml`.
//!
//! And it checks that the sources agree with `split.toml`, the one
//! declaration of the split (docs/split.md): the build fails, with a
//! sentence saying what to add, when a route has no module, a module has no
//! caller, or a group of words is named nowhere (`perch_split::sources`).
//! Catalogs and the table are read with serde; the sources as Rust tokens.

use perch_split::sources::{self, Found};
use perch_split::Table;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::{env, fmt::Write, fs, path::Path};

/// The languages with a catalog, and their plural forms (CLDR cardinal
/// categories): the one list of the app's languages. The build fails when
/// `locales/`, `index.html`'s early choice or the service worker's kept
/// catalogs name others; it gives the list to the app as
/// `t::LANGUAGES`, and the `Language` enum must match it or the app does
/// not compile (`src/i18n/language.rs`).
const LANGUAGES: &[(&str, &[&str])] =
    &[("en", &["one", "other"]), ("de", &["one", "other"]), ("ar", &["zero", "one", "two", "few", "many", "other"])];

enum Entry {
    Text(String),
    Plural(Vec<(String, String)>),
}

fn main() {
    println!("cargo:rerun-if-changed=locales");
    println!("cargo:rerun-if-changed=index.html");
    println!("cargo:rerun-if-changed=assets/sw.js");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=split.toml");
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("locales");
    let read = |code: &str| {
        let path = dir.join(format!("{code}.json"));
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        catalog(&text).unwrap_or_else(|e| panic!("locales/{code}.json: {e}"))
    };
    let english = read("en");
    let mut problems = Vec::new();
    for &(code, forms) in LANGUAGES {
        problems.extend(check(code, forms, &english, &read(code)));
    }
    for entry in fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !LANGUAGES.iter().any(|(code, _)| name == format!("{code}.json")) {
            problems.push(format!("locales/{name}: not a language of build.rs's LANGUAGES"));
        }
    }
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).to_owned();
    for (file, before) in [("index.html", "var have = ["), ("assets/sw.js", "const languages = [")] {
        let text = fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let named = listed_after(&text, before);
        let codes: Vec<&str> = LANGUAGES.iter().map(|(code, _)| *code).collect();
        if named.as_deref() != Some(codes.as_slice()) {
            problems.push(format!("{file}: `{before}…]` names {named:?}, build.rs's LANGUAGES {codes:?}"));
        }
    }
    if !problems.is_empty() {
        panic!("the message catalogs are not complete:\n  {}", problems.join("\n  "));
    }
    let table = Table::read(&root).unwrap_or_else(|why| panic!("{why}"));
    let files = scan_sources(&root).unwrap_or_else(|why| panic!("{why}"));
    let disagreements = sources::check(&table, &files);
    if !disagreements.is_empty() {
        panic!("the sources and split.toml disagree (docs/split.md):\n  {}", disagreements.join("\n  "));
    }
    let later_groups: Vec<String> = table.with_words("later").map(|m| m.name.clone()).collect();
    let later = later_keys(&files, &english);
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("messages.rs");
    fs::write(out, generate(&english, &later, &later_groups)).unwrap();
}

/// The quoted words of the array that follows `before` in `text`
/// (`['en', 'de']`), or `None` when there is no such array.
fn listed_after<'a>(text: &'a str, before: &str) -> Option<Vec<&'a str>> {
    let rest = &text[text.find(before)? + before.len()..];
    let list = &rest[..rest.find(']')?];
    Some(list.split(',').map(|w| w.trim().trim_matches(|c| c == '\'' || c == '"')).filter(|w| !w.is_empty()).collect())
}

/// What is wrong with `catalog`, the catalog of `code`, against English's.
fn check(code: &str, forms: &[&str], english: &[(String, Entry)], catalog: &[(String, Entry)]) -> Vec<String> {
    let mut problems = Vec::new();
    let at = |key: &str| format!("locales/{code}.json, \"{key}\"");
    for (i, (key, _)) in english.iter().enumerate() {
        if !catalog.iter().any(|(k, _)| k == key) {
            problems.push(format!("{}: missing", at(key)));
        } else if catalog.get(i).map(|(k, _)| k) != Some(key) {
            problems.push(format!("{}: not in English's order (entry {})", at(key), i + 1));
        }
    }
    for (key, entry) in catalog {
        let Some((_, english_entry)) = english.iter().find(|(k, _)| k == key) else {
            problems.push(format!("{}: not one of English's keys", at(key)));
            continue;
        };
        let wanted = placeholders_of(english_entry);
        match (entry, english_entry) {
            (Entry::Text(text), Entry::Text(_)) => {
                // In any order: a language puts the day before the month.
                let (mut have, mut sorted_wanted) = (placeholders(text), wanted.clone());
                have.sort_unstable();
                sorted_wanted.sort_unstable();
                if have != sorted_wanted {
                    problems.push(format!(
                        "{}: placeholders {:?}, English has {:?}",
                        at(key),
                        placeholders(text),
                        wanted
                    ));
                }
            }
            (Entry::Plural(given), Entry::Plural(_)) => {
                let named: Vec<&str> = given.iter().map(|(f, _)| f.as_str()).collect();
                let mut sorted_given = named.clone();
                sorted_given.sort_unstable();
                let mut sorted_forms = forms.to_vec();
                sorted_forms.sort_unstable();
                if sorted_given != sorted_forms {
                    problems.push(format!("{}: plural forms {named:?}, the language has {forms:?}", at(key)));
                }
                for (form, text) in given {
                    let have = placeholders(text);
                    let missing = wanted.iter().filter(|p| *p != "count" && !have.contains(p));
                    let unknown = have.iter().filter(|p| !wanted.contains(p));
                    for p in missing.chain(unknown) {
                        problems.push(format!(
                            "{}, form \"{form}\": placeholder {{{p}}} does not match English's {wanted:?}",
                            at(key)
                        ));
                    }
                }
            }
            _ => problems.push(format!("{}: a text in one catalog and a plural in the other", at(key))),
        }
    }
    problems
}

/// The placeholders `{name}` of a text, each once, in order of appearance.
fn placeholders(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find('}') else { break };
        let name = &rest[..close];
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
            if !found.iter().any(|f| f == name) {
                found.push(name.to_owned());
            }
            rest = &rest[close + 1..];
        }
    }
    found
}

/// The placeholders of an entry: for a plural, of all its forms.
fn placeholders_of(entry: &Entry) -> Vec<String> {
    match entry {
        Entry::Text(text) => placeholders(text),
        Entry::Plural(forms) => {
            let mut all = vec!["count".to_owned()];
            for (_, text) in forms {
                for p in placeholders(text) {
                    if !all.contains(&p) {
                        all.push(p);
                    }
                }
            }
            all
        }
    }
}

/// One function per key, in English's order: `index` is the entry's
/// position in every catalog. A message with nothing to fill is a `Msg`
/// (a copyable index); one with placeholders or a count is a `Text`.
fn generate(english: &[(String, Entry)], later: &[bool], later_groups: &[String]) -> String {
    let mut code = String::new();
    let keys: Vec<&str> = english.iter().map(|(k, _)| k.as_str()).collect();
    writeln!(code, "/// How many messages a catalog holds.\npub const COUNT: usize = {};", keys.len()).unwrap();
    let (mut bits, mut start_keys, mut later_keys) = (vec![0u64; keys.len().div_ceil(64)], Vec::new(), Vec::new());
    for (i, key) in keys.iter().enumerate() {
        if later[i] {
            bits[i / 64] |= 1 << (i % 64);
            later_keys.push(*key);
        } else {
            start_keys.push(*key);
        }
    }
    writeln!(
        code,
        "/// Which messages come later (bit `i % 64` of word `i / 64`), with the split modules of `LATER_GROUPS`.\npub const LATER: [u64; {}] = {bits:?};",
        bits.len()
    )
    .unwrap();
    writeln!(
        code,
        "/// The split modules whose words come with them (split.toml's words = \"later\").\npub const LATER_GROUPS: [&str; {}] = {later_groups:?};",
        later_groups.len()
    )
    .unwrap();
    writeln!(
        code,
        "/// FNV-1a of the keys every start reads, and of the later ones, as [`FINGERPRINT`].\npub const FINGERPRINT_START: u32 = {};\npub const FINGERPRINT_LATER: u32 = {};",
        fingerprint(&start_keys),
        fingerprint(&later_keys)
    )
    .unwrap();
    let codes: Vec<String> = LANGUAGES.iter().map(|(c, _)| format!("{c:?}")).collect();
    writeln!(
        code,
        "/// The app's languages, as build.rs lists them.\npub const LANGUAGES: [&str; {}] = [{}];",
        codes.len(),
        codes.join(", ")
    )
    .unwrap();
    writeln!(
        code,
        "/// FNV-1a of the keys, each followed by a newline: a catalog of another build is refused.\npub const FINGERPRINT: u32 = {};",
        fingerprint(&keys)
    )
    .unwrap();
    let quoted: Vec<String> = keys.iter().map(|k| format!("{k:?}")).collect();
    writeln!(
        code,
        "/// The keys, in this order: the build-time render reads a catalog by them (`language::read_text`).\n#[cfg(not(target_arch = \"wasm32\"))]\npub const KEYS: [&str; COUNT] = [{}];",
        quoted.join(", ")
    )
    .unwrap();
    for (index, (key, entry)) in english.iter().enumerate() {
        let sample = match entry {
            Entry::Text(text) => text.clone(),
            Entry::Plural(forms) => forms.iter().map(|(f, t)| format!("{f}: {t}")).collect::<Vec<_>>().join(" | "),
        };
        writeln!(code, "\n/// {}", sample.replace('\n', " ")).unwrap();
        let names = placeholders_of(entry);
        let (plural, names): (bool, Vec<&String>) = match entry {
            Entry::Text(_) => (false, names.iter().collect()),
            Entry::Plural(_) => (true, names.iter().filter(|n| *n != "count").collect()),
        };
        if !plural && names.is_empty() {
            writeln!(code, "pub fn {key}() -> Msg {{ Msg({index}) }}").unwrap();
            continue;
        }
        let mut params: Vec<String> = Vec::new();
        if plural {
            params.push("count: u64".into());
        }
        params.extend(names.iter().map(|n| format!("{n}: impl Into<Arg>")));
        let args: Vec<String> = names.iter().map(|n| format!("(\"{n}\", {n}.into())")).collect();
        let count = if plural { "Some(count)" } else { "None" };
        writeln!(
            code,
            "pub fn {key}({}) -> Text {{ Text::new({index}, {count}, vec![{}]) }}",
            params.join(", "),
            args.join(", ")
        )
        .unwrap();
    }
    code
}

/// Every `.rs` file under `src/`, read as tokens: path (`src/…`) -> what
/// it declares.
fn scan_sources(root: &Path) -> Result<BTreeMap<String, Found>, String> {
    let mut files = BTreeMap::new();
    let mut dirs = vec![root.join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                let name = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                let found = sources::scan(&text).map_err(|e| format!("{name}: {e}"))?;
                files.insert(name, found);
            }
        }
    }
    Ok(files)
}

/// For each of English's keys, whether its words come later: every file
/// that names it (`t::key`) says `sources::LATER_MARK`. A key no file names
/// is a later one too. (That a marked file puts code only in modules whose
/// words are later is `sources::check`'s.)
fn later_keys(files: &BTreeMap<String, Found>, english: &[(String, Entry)]) -> Vec<bool> {
    english.iter().map(|(key, _)| !files.values().any(|f| !f.later_mark && f.words.contains(key))).collect()
}

fn fingerprint(keys: &[&str]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for key in keys {
        for b in key.bytes().chain([b'\n']) {
            hash ^= b as u32;
            hash = hash.wrapping_mul(0x0100_0193);
        }
    }
    hash
}

/// A catalog, read with serde_json: an object whose values are strings or
/// objects of strings (a plural's forms), keys kept in their order.
fn catalog(text: &str) -> Result<Vec<(String, Entry)>, String> {
    let Ordered(raw) = serde_json::from_str::<Ordered<Raw>>(text).map_err(|e| e.to_string())?;
    let mut entries = Vec::new();
    for (i, (key, value)) in raw.into_iter().enumerate() {
        if !key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') {
            return Err(format!("key \"{key}\": keys are lower_snake_case"));
        }
        if entries.iter().take(i).any(|(k, _): &(String, Entry)| *k == key) {
            return Err(format!("key \"{key}\" appears twice"));
        }
        let entry = match value {
            Raw::Text(text) => Entry::Text(text),
            Raw::Plural(Ordered(forms)) => Entry::Plural(forms),
        };
        entries.push((key, entry));
    }
    Ok(entries)
}

/// A catalog's value as JSON has it.
#[derive(serde::Deserialize)]
#[serde(untagged, expecting = "a text, or an object of a plural's forms")]
enum Raw {
    Text(String),
    Plural(Ordered<String>),
}

/// A JSON object's entries in their order (a map would sort them, and the
/// app reads entries by position).
struct Ordered<V>(Vec<(String, V)>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Ordered<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for Entries<V> {
            type Value = Ordered<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered<V>, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Ordered(entries))
            }
        }
        deserializer.deserialize_map(Entries(std::marker::PhantomData))
    }
}
