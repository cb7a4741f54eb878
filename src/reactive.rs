//! What the app needs of Leptos' reactive graph beyond its own calls: an
//! effect (or memo) that depends on a memo without using its value.
//!
//! `Memo::track` is not that. It subscribes the running effect to the memo
//! but does not compute the memo, and a memo that nobody has read yet has no
//! sources of its own: it is never told when what it derives from changes, so
//! it never tells the effect either (reactive_graph 0.2). Whether something
//! else happened to read the memo first depends on what else the page draws:
//! the account menu's closing on a new address died that way once the
//! signed-in start moved into a module of its own (docs/size.md, "The dead
//! effect, found").

use leptos::prelude::*;

/// Makes the running effect or memo run again whenever `memo`'s value
/// changes, computing the memo if nobody has yet.
pub fn depend_on<T: Send + Sync + 'static>(memo: Memo<T>) {
    memo.with(|_| ());
}
