//! Where the reader is and for how long: every address of the app
//! (`AppPath`, `here`, in `app_path.rs`) and the lifetime of the page being
//! shown (`shown.rs`: work that stops with the page, and callbacks that run
//! only while it is there). Below the pages and the store, so that every
//! room can name an address or tie work to a page without importing the
//! router.

mod app_path;
mod shown;

pub use app_path::{here, AppPath};
pub use shown::{while_shown, Then, WhileShown};
