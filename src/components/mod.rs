//! Pieces of the page shared by several routes.

pub mod account_panel;
pub mod add_to_list;
pub mod avatar;
pub mod bookmark;
pub mod composer;
pub mod counter;
pub mod feed;
pub mod find_person;
pub mod header;
pub mod language_menu;
pub mod later;
pub mod mention;
pub mod offline;
pub mod own_post;
pub mod post_card;
pub mod post_content;
pub mod sending;
pub mod shortcuts_help;
pub mod sign_out;
pub mod states;
pub mod thread_parts;
pub mod time;
pub mod timeline_view;
pub mod toggle_buttons;
pub mod waiting;
