//! Perch's wire model: the one definition of everything the web app and the
//! reference server exchange. The serde types of the interface (`types`), its
//! timestamps (`time`), its scopes and the seed's scope table (`scope`), the
//! 500-character rule (`content`) and the app's `config.json` (`config`).
//!
//! Kept small for WebAssembly: serde only, no regex, no date library.

pub mod config;
pub mod content;
pub mod scope;
pub mod time;
pub mod types;

pub use config::{ClientConfig, CLIENT_CONFIG_FILE};
pub use content::{char_count, validate_content, ContentError, MAX_CONTENT_CHARS};
pub use scope::{Operation, Scope, Subject, UnknownScope};
pub use time::Timestamp;
pub use types::*;

/// Items on one page of a paged list (pages are 1-based).
pub const PAGE_SIZE: usize = 15;
