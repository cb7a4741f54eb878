//! `split.toml`'s rows, read with serde and checked on their own: every
//! module once, every group of words named by a module and every module's
//! group declared.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The main module's name in a plan and in the table's `[main]`.
pub const MAIN: &str = "main";

/// Where a split module sits, lowest first: a chunk goes to the most
/// specific module that every load needing it carries (`rule`).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    /// With the main module, before anyone signs in (sign-in).
    Start,
    /// The app's shell: every signed-in page loads it first.
    Shell,
    /// Loaded by every signed-in page after its paint, and before the
    /// paint of the later pages: the code they share goes here.
    Shared,
    /// A page: its own code, loaded when it is opened.
    Page,
    /// A feature loaded on demand on any signed-in page.
    Feature,
}

/// One row of the table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Module {
    pub name: String,
    pub layer: Layer,
    /// The router's paths it draws (leptos' syntax: `/post/:uuid`).
    #[serde(default)]
    pub routes: Vec<String>,
    /// Its group of words (`[words]`).
    pub words: String,
    /// A page whose first load does not wait for the shared layer (the
    /// pages a reader lands on first: Home, a thread, a profile).
    #[serde(default)]
    pub first_screen: bool,
    /// What `make size` last recorded, brotli bytes: its own file and, for a
    /// module with routes, the first load of its page.
    pub own: Option<u64>,
    pub load: Option<u64>,
    /// Why it is split apart, in a line.
    #[serde(default)]
    pub why: String,
}

/// The addresses the main module draws itself, and its recorded file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Main {
    #[serde(default)]
    pub routes: Vec<String>,
    pub own: Option<u64>,
}

/// `split.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// How far a recorded figure may grow before the size check fails.
    pub headroom_percent: u64,
    /// The groups of words: name -> where they are kept.
    pub words: BTreeMap<String, String>,
    #[serde(default)]
    pub main: Main,
    #[serde(rename = "module")]
    pub modules: Vec<Module>,
}

impl Table {
    /// `split.toml` in `root`, read and checked.
    pub fn read(root: &Path) -> Result<Table, String> {
        let path = root.join("split.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Table::parse(&text)
    }

    /// A table from its text, checked on its own ([`Table::problems`]).
    pub fn parse(text: &str) -> Result<Table, String> {
        let table: Table = toml::from_str(text).map_err(|e| format!("split.toml: {e}"))?;
        let problems = table.problems();
        if problems.is_empty() {
            Ok(table)
        } else {
            Err(format!("split.toml:\n  {}", problems.join("\n  ")))
        }
    }

    /// What is wrong with the table itself, each as a sentence saying what
    /// to change.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for (i, m) in self.modules.iter().enumerate() {
            if m.name == MAIN || !m.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
                problems.push(format!("module \"{}\": a name is lower_snake_case and not \"{MAIN}\"", m.name));
            }
            if self.modules[..i].iter().any(|o| o.name == m.name) {
                problems.push(format!("module \"{}\" has two rows: keep one", m.name));
            }
            if !self.words.contains_key(&m.words) {
                problems.push(format!(
                    "module \"{}\" names the group of words \"{}\", which [words] does not declare: declare it or name one of {:?}",
                    m.name,
                    m.words,
                    self.words.keys().collect::<Vec<_>>()
                ));
            }
            if m.first_screen && m.layer != Layer::Page {
                problems.push(format!("module \"{}\": first_screen is for a page", m.name));
            }
        }
        for group in self.words.keys() {
            if !self.modules.iter().any(|m| &m.words == group) {
                problems.push(format!(
                    "the group of words \"{group}\" is named by no module: name it in a module's `words`, or remove it from [words]"
                ));
            }
        }
        let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
        for (owner, route) in self.routes() {
            if !route.starts_with('/') {
                problems.push(format!("{owner}'s route \"{route}\" does not start with /"));
            }
            if let Some(other) = seen.insert(route, owner) {
                if other != owner {
                    problems.push(format!("the route \"{route}\" is in {other}'s row and {owner}'s: keep one"));
                }
            }
        }
        problems
    }

    /// Every route, with the module that draws it (`main` for the main module's).
    pub fn routes(&self) -> Vec<(&str, &str)> {
        let main = self.main.routes.iter().map(|r| (MAIN, r.as_str()));
        main.chain(self.modules.iter().flat_map(|m| m.routes.iter().map(|r| (m.name.as_str(), r.as_str())))).collect()
    }

    pub fn module(&self, name: &str) -> Option<&Module> {
        self.modules.iter().find(|m| m.name == name)
    }

    /// The modules of `layer`.
    pub fn of_layer(&self, layer: Layer) -> impl Iterator<Item = &Module> {
        self.modules.iter().filter(move |m| m.layer == layer)
    }

    /// The modules whose words are in `group`.
    pub fn with_words<'a>(&'a self, group: &'a str) -> impl Iterator<Item = &'a Module> {
        self.modules.iter().filter(move |m| m.words == group)
    }

    /// What the first load of `module` carries, the main module aside, lowest
    /// layer first, `module` last: a start's page, nothing else; anything
    /// signed in, the shell; a later page (not `first_screen`) and a shared
    /// module, the shared layer before it.
    pub fn carries(&self, module: &Module) -> Vec<String> {
        let below = |layer: Layer| self.of_layer(layer).filter(|m| m.name != module.name).map(|m| m.name.clone());
        let mut carried: Vec<String> = Vec::new();
        if module.layer > Layer::Start {
            carried.extend(below(Layer::Shell));
        }
        if module.layer == Layer::Page && !module.first_screen {
            carried.extend(below(Layer::Shared));
        }
        carried.push(module.name.clone());
        carried
    }

    /// A route's pattern as `index.html`'s start matches a path against it:
    /// `/post/:uuid` -> `^/post/[^/]+$`.
    pub fn pattern(route: &str) -> String {
        let mut out = String::from("^");
        for segment in route.split('/').skip(1) {
            out.push('/');
            if segment.starts_with(':') {
                out.push_str("[^/]+");
            } else {
                for c in segment.chars() {
                    if !c.is_ascii_alphanumeric() && c != '_' && c != '-' {
                        out.push('\\');
                    }
                    out.push(c);
                }
            }
        }
        if route == "/" {
            return "^/$".into();
        }
        out.push('$');
        out
    }

    /// The limit of a recorded figure: it and the headroom.
    pub fn limit(&self, recorded: u64) -> u64 {
        recorded + recorded * self.headroom_percent / 100
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::TEST_TABLE as SMALL;

    #[test]
    fn a_table_reads_and_says_what_each_load_carries() {
        let table = Table::parse(SMALL).unwrap();
        let carries = |m: &str| table.carries(table.module(m).unwrap());
        assert_eq!(carries("page_signin"), ["page_signin"]);
        assert_eq!(carries("page_home"), ["app_shell", "page_home"]);
        assert_eq!(carries("page_drafts"), ["app_shell", "background", "page_drafts"]);
        assert_eq!(carries("composing"), ["app_shell", "composing"]);
        assert_eq!(carries("background"), ["app_shell", "background"]);
        assert_eq!(carries("app_shell"), ["app_shell"]);
    }

    #[test]
    fn a_group_of_words_named_nowhere_fails_with_what_to_do() {
        let text = SMALL.replace("words = \"later\"", "words = \"start\"");
        let err = Table::parse(&text).unwrap_err();
        assert!(err.contains("the group of words \"later\" is named by no module"), "{err}");
        let text = SMALL.replace("words = \"later\"", "words = \"afterwards\"");
        let err = Table::parse(&text).unwrap_err();
        assert!(err.contains("names the group of words \"afterwards\", which [words] does not declare"), "{err}");
    }

    #[test]
    fn a_row_without_its_group_of_words_or_twice_is_refused() {
        let text = SMALL.replace(
            "name = \"composing\"\nlayer = \"feature\"\nwords = \"start\"",
            "name = \"composing\"\nlayer = \"feature\"",
        );
        assert!(Table::parse(&text).unwrap_err().contains("missing field `words`"));
        let text = format!("{SMALL}[[module]]\nname = \"composing\"\nlayer = \"feature\"\nwords = \"start\"\n");
        assert!(Table::parse(&text).unwrap_err().contains("module \"composing\" has two rows"));
        let text = SMALL.replace("routes = [\"/drafts\"]", "routes = [\"/\"]");
        assert!(Table::parse(&text).unwrap_err().contains("the route \"/\" is in page_home's row and page_drafts's"));
    }

    #[test]
    fn a_route_becomes_the_pattern_the_start_matches() {
        assert_eq!(Table::pattern("/"), "^/$");
        assert_eq!(Table::pattern("/post/:uuid"), "^/post/[^/]+$");
        assert_eq!(Table::pattern("/user/:id/followers"), "^/user/[^/]+/followers$");
        assert_eq!(Table::pattern("/oauth/callback"), "^/oauth/callback$");
    }
}
