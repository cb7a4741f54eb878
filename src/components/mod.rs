//! Pieces of the page shared by several routes.

pub mod avatar;
pub mod feed;
pub mod header;
pub mod post_card;
pub mod states;
pub mod toggles;
