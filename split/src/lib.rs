//! The split of the app's wasm, declared once in `split.toml` (docs/split.md):
//! each split module with its layer, the addresses it draws and its group
//! of words. It owns:
//! - the table's types and its reading ([`Table::read`], [`Table::parse`]);
//! - the checks that the sources agree with it ([`sources`]), which the app's
//!   `build.rs` runs, so a forgotten registration fails the build with a
//!   sentence saying what to add;
//! - the fixed rule that places each chunk the splitter cuts ([`rule`]),
//!   which the xtask runs.

pub mod rule;
pub mod sources;
mod table;

pub use table::{Layer, Module, Table, MAIN};

/// The table the tests of this crate read: one row of each kind.
#[cfg(test)]
pub(crate) const TEST_TABLE: &str = r#"
headroom_percent = 3
[words]
start = "every start"
later = "with the module"
[main]
routes = ["/oauth/callback"]
[[module]]
name = "page_signin"
layer = "start"
routes = ["/signin"]
words = "start"
[[module]]
name = "app_shell"
layer = "shell"
words = "start"
[[module]]
name = "background"
layer = "shared"
words = "start"
[[module]]
name = "page_home"
layer = "page"
first_screen = true
routes = ["/"]
words = "start"
[[module]]
name = "pages"
layer = "page"
first_screen = true
routes = ["/post/:uuid"]
words = "start"
[[module]]
name = "page_search"
layer = "page"
routes = ["/search"]
words = "later"
[[module]]
name = "page_lists"
layer = "page"
routes = ["/lists"]
words = "later"
[[module]]
name = "page_drafts"
layer = "page"
routes = ["/drafts"]
words = "later"
[[module]]
name = "composing"
layer = "feature"
words = "start"
"#;
