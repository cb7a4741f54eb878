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
