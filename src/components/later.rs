//! Code that comes later. A page or a feature that the first paint does
//! not need is split out of the main module (`lazy!`, docs/split.md) and
//! drawn by [`later`]: at once when its module is already there, else a
//! placeholder until it comes, or an error with Retry in its place when it
//! cannot be loaded (offline and not kept, or gone after a release). The
//! app never stops for it.
//!
//! Only the build that splits (`perch-xtask`, `--cfg perch_split`) cuts the
//! wasm there; every other build (the browser unit tests, clippy) has the
//! same code in one module and loads nothing.

use crate::i18n::t;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use std::future::Future;
use std::task::Poll;

/// Puts the code of `fn $name` into the split module `$module`, as
/// `$name::draw`, with `$name::load` that loads that module and
/// `$name::GROUP`, its name, for `later` to ask for its words:
///
/// ```ignore
/// lazy! { pages, fn thread_page(uuid: Memo<String>) { view! { … } } }
/// later(thread_page::GROUP, thread_page::load, move || thread_page::draw(uuid), Meanwhile::Page)
/// ```
///
/// Several bodies may share a module: the splitter makes a chunk for each
/// set of modules that share code, and each file is compressed alone, so
/// fewer, larger modules cost less on the wire (docs/split.md, "Groups").
/// The body sees what its file imports. A failed load is an `Err`, never a
/// panic (`fallible`: a panic would stop the whole app).
macro_rules! lazy {
    ($module:ident, fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            use ::leptos::prelude::{AnyView, IntoAny};
            use ::leptos::wasm_split::SplitLoaderError;
            pub use self::$name as draw;

            /// The split module: `later` asks for its words too (`i18n::words`).
            #[allow(dead_code)]
            pub const GROUP: &str = stringify!($module);

            #[cfg(perch_split)]
            #[::leptos::wasm_split::wasm_split($module, wasm_split_path = ::leptos::wasm_split, fallible, preload(load))]
            pub fn $name($($arg: $ty),*) -> Result<AnyView, SplitLoaderError> {
                Ok($body.into_any())
            }

            #[cfg(not(perch_split))]
            #[allow(dead_code)]
            pub async fn load() -> Result<(), SplitLoaderError> {
                Ok(())
            }

            #[cfg(not(perch_split))]
            pub async fn $name($($arg: $ty),*) -> Result<AnyView, SplitLoaderError> {
                Ok($body.into_any())
            }
        }
    };
}
pub(crate) use lazy;

/// What shows while a split module is on its way.
#[derive(Clone, Copy, PartialEq)]
pub enum Meanwhile {
    /// A page: the shapes of two posts, as `index.html`'s frame draws them.
    Page,
    /// A feature: nothing.
    Nothing,
    /// Work in the background (Activity's checks): nothing while it comes,
    /// nothing when it cannot be loaded (the page's own error says that
    /// once); asked for again when the browser is back online.
    Background,
}

/// Draws what `draw` makes once `load` has the module and the words of
/// `group` are here (`i18n::words`): in the same frame when both are
/// already there (Back finds its page to scroll), else `meanwhile` until
/// they come, or an error with Retry. `draw` runs untracked, as a
/// component's body does.
///
/// Only the boxing is generic: the work is [`later_boxed`], compiled once
/// (as a generic it was compiled once per page and feature, 1.3 KB of wasm
/// each, all in the main module).
#[inline]
pub fn later<L, D>(
    group: &'static str,
    load: impl Fn() -> L + Send + Sync + 'static,
    draw: impl Fn() -> D + Send + Sync + 'static,
    meanwhile: Meanwhile,
) -> AnyView
where
    L: Future<Output = Result<(), SplitLoaderError>> + 'static,
    D: Future<Output = Result<AnyView, SplitLoaderError>> + 'static,
{
    later_boxed(group, Box::new(move || Box::pin(load())), Box::new(move || Box::pin(draw())), meanwhile)
}

/// A split module's loading, or its drawing, as [`later_boxed`] takes it.
type Boxed<T> = Box<dyn Fn() -> LocalBoxFuture<'static, Result<T, SplitLoaderError>> + Send + Sync>;

/// [`later`], once for every page and feature.
#[inline(never)]
fn later_boxed(group: &'static str, load: Boxed<()>, draw: Boxed<AnyView>, meanwhile: Meanwhile) -> AnyView {
    let arrived = RwSignal::new(0u32);
    let failed = RwSignal::new(false);
    (move || {
        arrived.track();
        if failed.get() {
            return unloaded(failed, meanwhile);
        }
        if let Some(waiting) = words_awaited(group, failed, meanwhile) {
            return waiting;
        }
        let mut loading = load();
        let waker = futures::task::noop_waker();
        match loading.poll_unpin(&mut std::task::Context::from_waker(&waker)) {
            // Loaded, so `draw` is ready at its first poll.
            Poll::Ready(Ok(())) => match untrack(|| draw().now_or_never()) {
                Some(Ok(view)) => {
                    if meanwhile == Meanwhile::Page {
                        crate::browser::chunks::fetch_linked_after_paint();
                        crate::browser::boot::page_drawn();
                    }
                    view
                }
                _ => unloaded(failed, meanwhile),
            },
            Poll::Ready(Err(_)) => unloaded(failed, meanwhile),
            Poll::Pending => {
                // The page may be gone when it arrives: `try_` touches
                // nothing disposed.
                leptos::task::spawn_local(async move {
                    match loading.await {
                        Ok(()) => arrived.try_update(|n| *n += 1),
                        Err(_) => failed.try_set(true).map(drop),
                    };
                });
                placeholder(meanwhile)
            }
        }
    })
    .into_any()
}

/// What shows while the words of `group` are on their way (`i18n::words`),
/// or when they could not be had; `None` once they are here. Apart from
/// `later`, so it is compiled once, not once per page.
#[inline(never)]
fn words_awaited(group: &'static str, failed: RwSignal<bool>, meanwhile: Meanwhile) -> Option<AnyView> {
    match crate::i18n::words(group) {
        crate::i18n::Words::Here => None,
        crate::i18n::Words::Coming => Some(placeholder(meanwhile)),
        crate::i18n::Words::Failed => Some(unloaded(failed, meanwhile)),
    }
}

/// What shows while a split module is on its way (also the page's place
/// before the pages are drawn, `routes::Shell`).
pub fn placeholder(meanwhile: Meanwhile) -> AnyView {
    match meanwhile {
        Meanwhile::Page => view! {
            <main id="main" class="page" aria-busy="true">
                <h1 class="visually-hidden">"Perch"</h1>
                <div class="post skeleton" aria-hidden="true"><div class="skeleton-line short"></div><div class="skeleton-line"></div><div class="skeleton-line"></div></div>
                <div class="post skeleton" aria-hidden="true"><div class="skeleton-line short"></div><div class="skeleton-line"></div><div class="skeleton-line"></div></div>
            </main>
        }
        .into_any(),
        Meanwhile::Nothing | Meanwhile::Background => ().into_any(),
    }
}

/// The module could not be loaded: say so, in its place (a page's, with
/// the page's frame), with Retry (a failed load is not remembered, so Retry
/// asks again).
fn unloaded(failed: RwSignal<bool>, meanwhile: Meanwhile) -> AnyView {
    let said = view! {
        <div class="error-box unloaded" role="alert">
            <p>{t::part_unloaded()}</p>
            <div class="actions">
                <button type="button" on:click=move |_| {
                    crate::i18n::words_again();
                    failed.set(false);
                }>{t::retry()}</button>
            </div>
        </div>
    };
    match meanwhile {
        Meanwhile::Page => {
            crate::browser::boot::page_drawn();
            view! {
            <main id="main" class="page">
                <h1 class="visually-hidden">"Perch"</h1>
                {said}
            </main>
            }
            .into_any()
        }
        Meanwhile::Nothing => said.into_any(),
        Meanwhile::Background => {
            // Once, and gone with the view: a later failure listens again.
            let again = StoredValue::new(None::<WindowListenerHandle>);
            again.set_value(Some(window_event_listener_untyped("online", move |_| {
                if let Some(handle) = again.try_update_value(Option::take).flatten() {
                    handle.remove();
                }
                let _ = failed.try_set(false);
            })));
            on_cleanup(move || {
                if let Some(handle) = again.try_update_value(Option::take).flatten() {
                    handle.remove();
                }
            });
            ().into_any()
        }
    }
}
