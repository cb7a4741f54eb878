//! Pieces of the page shared by several routes.

pub mod header;
