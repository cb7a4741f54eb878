//! The browser's services, as the app uses them: what is kept in Web
//! Storage (`web_storage`) and the calls into `index.html`'s IndexedDB
//! (`indexed_db`), the page's DOM outside views (`dom`: card lookup,
//! focus, ids), staying in place across navigations (`navigation`),
//! keyboard shortcuts, the clock relative times follow, the frame painted
//! before the wasm (`boot`), the service worker's registration
//! (`service_worker`), the language kept for the next visit
//! (`kept_language`), a lock shared by tabs (`tab_lock`), the pace
//! at which long lists are drawn (`pace`), and leaving the page after the
//! work that must end first (`leaving`).

pub mod boot;
pub mod chunks;
pub mod clock;
pub mod dom;
pub mod indexed_db;
pub mod kept_language;
pub mod leaving;
pub mod marks;
pub mod navigation;
pub mod pace;
pub mod service_worker;
pub mod shortcuts;
pub mod tab_lock;
pub mod web_storage;
