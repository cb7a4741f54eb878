//! A timeline as every page that has one shows it (Home, a list): the
//! posts, "Show N new posts" instead of moving what is being read, the
//! sources that failed (each with Retry) or are still loading, and the
//! empty states. All behaviour lives in `timeline/`; this shows its state
//! and forwards clicks.

use crate::browser::navigation::{restore_scroll, take_returning};
use crate::components::feed::Feed;
use crate::components::post_card::PostSkeleton;
use crate::components::states::ErrorBox;
use crate::i18n::t;
use crate::store::use_store;
use crate::timeline::{HomeTimeline, Phase};
use leptos::prelude::*;

/// The timeline itself, in whichever state it is; `no_sources` shows when
/// it has no one's posts to read (Home's account follows no one, a list is
/// empty).
#[component]
pub fn TimelineView(
    timeline: HomeTimeline,
    #[prop(into)] no_sources: ViewFn,
    /// Whether the page is shown, for a page kept while others show (Home):
    /// while it is not, the timeline does no work.
    #[prop(optional, into)]
    shown: Option<Signal<bool>>,
) -> impl IntoView {
    let home = timeline;
    let returning = take_returning();
    let shown = shown.unwrap_or_else(|| Signal::from(true));
    crate::timeline::attach(&home, shown);
    let state = home.state.clone();
    if returning && state.with_untracked(|s| s.started()) {
        restore_scroll();
    }

    let phase = Memo::new({
        let state = state.clone();
        move |_| state.with(|s| (s.phase.clone(), s.started()))
    });
    let retry = Callback::new({
        let home = home.clone();
        move |_| home.retry_following()
    });
    move || match phase.get() {
        (Phase::FollowingFailed(error), _) => view! {
            <p>{t::following_failed()}</p>
            <ErrorBox error retry/>
        }
        .into_any(),
        (_, true) => {
            // Landing on a card at once (Back, a reading position): drawn whole.
            let all_at_once = returning || home.state.with_untracked(|s| s.on_screen.restore().is_some());
            view! { <Loaded home=home.clone() all_at_once no_sources=no_sources.clone() shown/> }.into_any()
        }
        _ => view! {
            <p class="visually-hidden" role="status">{t::loading_timeline()}</p>
            <PostSkeleton/><PostSkeleton/><PostSkeleton/>
        }
        .into_any(),
    }
}

/// The timeline once its first screen is known.
#[component]
fn Loaded(home: HomeTimeline, all_at_once: bool, no_sources: ViewFn, shown: Signal<bool>) -> impl IntoView {
    let state = home.state.clone();
    let list = Memo::new({
        let (state, shows) = (state.clone(), shown_here(&home));
        move |_| {
            let mut feed = state.with(|s| s.feed());
            let shows = shows();
            feed.items.retain(|uuid| shows(uuid));
            feed
        }
    });
    let load_more = Callback::new({
        let home = home.clone();
        move |_| home.load_more()
    });
    let empty = {
        let state = state.clone();
        move || state.with(|s| s.empty())
    };
    let following = {
        let state = state.clone();
        move || state.with(|s| s.following_count())
    };
    view! {
        <NewPosts home=home.clone()/>
        <SourceProblems home=home.clone()/>
        <PendingSources home=home.clone()/>
        {move || empty().then(|| if following() == 0 {
            no_sources.run()
        } else {
            view! { <p class="empty">{t::timeline_no_posts()}</p> }.into_any()
        })}
        <Feed list=Signal::from(list) load_more label=t::timeline() all_at_once shown/>
    }
}

/// What of `home` shows, tracked: a test of a post's uuid. Muted people
/// and words leave the timeline (`store/mutes.rs`), and replies where the
/// timeline hides them (`timeline/replies.rs`).
fn shown_here(home: &HomeTimeline) -> impl Fn() -> Box<dyn Fn(&str) -> bool> + Clone + 'static {
    let (store, mutes) = (crate::store::use_store(), crate::store::mutes::use_mutes());
    let (state, feed) = (home.state.clone(), home.feed.clone());
    move || {
        let muted = mutes.map(|m| m.get()).filter(|m| m.count() > 0);
        let me = state.with(|s| s.me.clone());
        let no_replies = crate::timeline::replies::hidden(&me, &feed);
        let store = store.clone();
        Box::new(move |uuid: &str| {
            store.post_untracked(uuid).is_none_or(|p| {
                muted.as_ref().is_none_or(|m| m.hides(&p).is_none()) && !(no_replies && p.parent.uuid().is_some())
            })
        })
    }
}

/// How many of `home`'s new posts would show ("Show N new posts", the
/// tab's title): what is muted or hidden is not counted.
pub fn new_posts_shown(home: &HomeTimeline) -> Memo<usize> {
    let (state, shows) = (home.state.clone(), shown_here(home));
    Memo::new(move |_| {
        let shows = shows();
        state.with(|s| s.new_items()).iter().filter(|uuid| shows(uuid)).count()
    })
}

/// "Show N new posts": new posts wait here instead of moving the list.
#[component]
fn NewPosts(home: HomeTimeline) -> impl IntoView {
    let count = new_posts_shown(&home);
    let words = move || t::new_posts(count.get() as u64).get();
    view! {
        <div class="new-posts">
            <p class="visually-hidden" role="status">{move || (count.get() > 0).then(words)}</p>
            {move || (count.get() > 0).then(|| {
                let home = home.clone();
                view! {
                    <button type="button" class="new-posts-button" on:click=move |_| {
                        home.show_new();
                        window().scroll_to_with_x_and_y(0.0, 0.0);
                        // The newest post takes the focus the button had.
                        request_animation_frame(crate::browser::shortcuts::focus_first_post);
                    }>{move || t::show_new_posts(count.get() as u64).get()}</button>
                }
            })}
        </div>
    }
}

/// "@name", or "someone" when the user is not known here.
fn handle_of(uuid: &str) -> String {
    use_store()
        .user(uuid)
        .map(|u| u.with_untracked(|u| format!("@{}", u.username)))
        .unwrap_or_else(|| t::someone().get())
}

/// The sources whose posts are missing because a request failed, each with
/// Retry; the rest of the timeline shows meanwhile.
#[component]
fn SourceProblems(home: HomeTimeline) -> impl IntoView {
    let state = home.state.clone();
    let failed = Memo::new(move |_| state.with(|s| s.failures()));
    move || {
        let failed = failed.get();
        (!failed.is_empty()).then(|| {
            let items = failed
                .into_iter()
                .map(|(uuid, reason)| {
                    let name = handle_of(&uuid);
                    let home = home.clone();
                    view! {
                        <li>
                            <span>{t::source_failed(name.clone(), reason.get())}</span>
                            " "
                            <button type="button" on:click=move |_| home.retry(&uuid)>
                                {t::retry()} " " <span class="visually-hidden">{t::retry_loading_posts_of(name)}</span>
                            </button>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="source-problems" role="alert">
                    <p>{t::posts_missing()}</p>
                    <ul>{items}</ul>
                </div>
            }
        })
    }
}

/// The sources still loading: slow ones the first screen stopped waiting
/// for, and new follows catching up.
#[component]
fn PendingSources(home: HomeTimeline) -> impl IntoView {
    let state = home.state.clone();
    let pending = Memo::new(move |_| state.with(|s| s.joining_sources()));
    move || {
        let pending = pending.get();
        (!pending.is_empty()).then(|| {
            let names: Vec<String> = pending.iter().map(|u| handle_of(u)).collect();
            view! { <p class="pending-sources" role="status">{t::still_loading_posts_from(names.join(&t::list_separator().get()))}</p> }
        })
    }
}
