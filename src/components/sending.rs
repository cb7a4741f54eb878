//! Sending the outbox, split out of the main module in a module of its own
//! (`sending`): loaded the first time something waits to be sent (a write
//! made, or actions kept from an earlier visit), never by a signed-out
//! visit or a reader who writes nothing. The store decides when to send
//! (`store/outbox/`) and reaches this through its [`Sender`].

use crate::components::later::lazy;
use crate::store::outbox::Sender;
use crate::store::Store;

lazy! { sending, fn send_outbox(store: Store) {
    leptos::task::spawn_local(async move { store.send_now().await });
} }

/// The store's [`Sender`]: loads the module, then sends from there.
pub const SEND: Sender = |store: Store| {
    leptos::task::spawn_local(async move {
        if send_outbox::draw(store.clone()).await.is_err() {
            store.sender_not_loaded();
        }
    });
};
