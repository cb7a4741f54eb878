//! A post as a card: author, content as text with links, time, counts,
//! application, lock mark and what it replies to. Each card is an
//! `<article>`; its time and reply count link to its thread. Content is
//! rendered as text nodes and links only, never as markup.

use super::icon::Icon;
use super::post_content::PostContent;
use crate::browser::dom::DomId;
use crate::i18n::t;
use crate::nav::AppPath;
use crate::store::use_store;
use leptos::prelude::*;
use perch_model::{Parent, Post};

/// "Replying to @name", or to a post whose author is not known here.
#[component]
fn ReplyingTo(parent: Parent) -> impl IntoView {
    let store = use_store();
    let author = match &parent {
        Parent::Post(p) => Some(p.author.username.clone()),
        Parent::Uuid(u) => store.post_untracked(u).map(|p| p.author.username),
        Parent::None => None,
    };
    let uuid = parent.uuid().unwrap_or_default().to_owned();
    view! {
        <p class="replying-to">
            {match author {
                Some(name) => view! { {t::replying_to_prefix_user()} " " <a href=AppPath::Profile(&name).href() class="handle">{format!("@{name}")}</a> }.into_any(),
                None => view! { {t::replying_to_prefix_post()} " " <a href=AppPath::Thread(&uuid).href()>{t::a_post()}</a> }.into_any(),
            }}
        </p>
    }
}

/// One post from the store, or its tombstone once deleted.
#[component]
pub fn PostCard(
    uuid: String,
    /// The post a thread is about: emphasised.
    #[prop(optional)]
    focused: bool,
    /// Position in a feed (1-based) and the feed's size (-1 while unknown),
    /// for `aria-posinset`/`aria-setsize`: followed as the list changes
    /// (posts shown above a drawn card move it down).
    #[prop(optional)]
    position: Option<Memo<(usize, i32)>>,
    /// Drawn at the end of the card, inside it: a thread's nested replies.
    #[prop(optional)]
    children: Option<ChildrenFn>,
    /// What assistive technology says of the card besides its name
    /// (`aria-description`): a nested reply's level and position.
    #[prop(optional, into)]
    description: Option<Signal<String>>,
) -> impl IntoView {
    let store = use_store();
    // Drawn again only when the post arrives or goes (`Err(true)`: deleted),
    // not on every change in the store: the card's own fields follow the
    // post's signal. The view reads the signal from the memo: looking it up
    // there again would follow every arrival, and every card was drawn
    // again each time any post arrived.
    // A post the store let go while the card shows it stays as shown
    // (`store/bound.rs`); one missing when the card is drawn is read again.
    let present = Memo::new({
        let (store, uuid) = (store.clone(), uuid.clone());
        move |was: Option<&Result<ArcReadSignal<Post>, bool>>| {
            if store.is_deleted(&uuid) {
                return Err(true);
            }
            store.post(&uuid).or_else(|| was.and_then(|w| w.as_ref().ok().cloned())).ok_or(false)
        }
    });
    // A muted post collapses to one line until Show (`store/mutes.rs`);
    // the card is drawn again only when that changes.
    let mutes = crate::store::mutes::use_mutes();
    let shown_anyway = RwSignal::new(false);
    let muted = Memo::new(move |_| {
        let post = present.get().ok()?;
        (!shown_anyway.get()).then(|| mutes.and_then(|m| post.with(|p| m.hides(p))))?
    });
    move || match (present.get(), muted.get()) {
        (Err(true), _) => view! { <Tombstone/> }.into_any(),
        (Ok(_), Some(why)) => view! { <MutedLine why show=shown_anyway below=children.clone()/> }.into_any(),
        (Ok(post), None) => view! { <Card post focused position below=children.clone() description/> }.into_any(),
        (Err(false), _) => {
            store.read_missing(&uuid);
            view! { <PostSkeleton/> }.into_any()
        }
    }
}

/// What a muted post leaves: why, and Show.
#[component]
fn MutedLine(why: crate::store::mutes::Why, show: RwSignal<bool>, below: Option<ChildrenFn>) -> impl IntoView {
    let said = match why {
        crate::store::mutes::Why::Person => t::muted_person_post(),
        crate::store::mutes::Why::Word => t::muted_word_post(),
    };
    view! {
        <article class="post muted-post">
            <p>{said} " " <button type="button" class="link-button" on:click=move |_| show.set(true)>{t::show()}</button></p>
            {below.map(|below| below())}
        </article>
    }
}

/// "⋯" at the end of the author line: Edit and Delete for one's own post
/// (Delete's question shows in the footer, `confirming`), Copy link, Add
/// to list and Mute for someone else's post, and what a card no longer shows on its face
/// (the application it was sent with, that replies are off). Drawn when
/// first opened; Escape closes it, back on its button.
#[component]
fn MoreActions(post: ArcReadSignal<Post>, signed_in: bool, confirming: Option<RwSignal<bool>>) -> impl IntoView {
    let opened = RwSignal::new(false);
    let menu = NodeRef::<leptos::html::Details>::new();
    let label = post.with_untracked(|p| t::more_for_post_by(format!("@{}", p.author.username)));
    let close = move |focus: bool| {
        if let Some(m) = menu.try_get_untracked().flatten().filter(|m| m.open()) {
            m.set_open(false);
            if focus {
                if let Some(card) = m.closest("article.post").ok().flatten() {
                    crate::browser::dom::focus_more_later(card);
                }
            }
        }
    };
    let chosen = Callback::new(move |_: web_sys::Element| close(false));
    // A click outside closes it: listened for only while it is open (a
    // listener per card would stay in the page for every card read).
    let outside = StoredValue::new(None::<WindowListenerHandle>);
    let stop_listening = move || {
        if let Some(handle) = outside.try_update_value(Option::take).flatten() {
            handle.remove();
        }
    };
    let toggled = move |_| {
        // A toggle is told a task later: the card may be gone by then.
        let Some(open) = menu.try_get_untracked().map(|m| m.is_some_and(|m| m.open())) else { return };
        stop_listening();
        if open {
            opened.set(true);
            outside.set_value(Some(window_event_listener(leptos::ev::click, move |ev| {
                let inside = menu.try_get_untracked().flatten().is_some_and(|m| ev.composed_path().includes(&m, 0));
                if !inside {
                    close(false);
                }
            })));
        }
    };
    on_cleanup(stop_listening);
    view! {
        <details class="card-more" node_ref=menu
            on:keydown=move |ev| if ev.key() == "Escape" { close(true) }
            on:toggle=toggled>
            <summary aria-label=label><Icon icon=Icon::More/></summary>
            {move || opened.get().then(|| view! { <MoreMenu post=post.clone() signed_in confirming chosen/> })}
        </details>
    }
}

/// What "⋯" holds once opened.
#[component]
fn MoreMenu(
    post: ArcReadSignal<Post>,
    signed_in: bool,
    confirming: Option<RwSignal<bool>>,
    chosen: Callback<web_sys::Element>,
) -> impl IntoView {
    let own = confirming.is_some();
    let mutes = crate::store::mutes::use_mutes();
    let copied = RwSignal::new(None::<bool>);
    let (uuid, author) = post.with_untracked(|p| (p.uuid.clone(), p.author.clone()));
    let copy = move |_| {
        let address = crate::browser::dom::address_of(&AppPath::Thread(&uuid).href());
        leptos::task::spawn_local(async move {
            let done = crate::browser::dom::copy_text(&address).await;
            // The card may be gone by now (a page left): then nothing to say.
            let _ = copied.try_set(Some(done));
        });
    };
    let add_to_list = (signed_in && !own).then(|| {
        view! { <super::add_to_list::AddToList uuid=author.uuid.clone() username=author.username.clone()/> }
    });
    let mute = (signed_in && !own).then(|| {
        let name = format!("@{}", author.username);
        view! {
            <button type="button" class="menu-item" on:click=move |_| {
                if let Some(m) = mutes { m.mute_person(&author) }
            }><Icon icon=Icon::Mute/> {t::mute_user(name)}</button>
        }
    });
    let own_items = confirming.map(|confirming| {
        view! { <super::own_post::OwnMenuItems post=post.clone() confirming close=chosen/> }
    });
    view! {
        <div class="card-menu">
            {own_items}
            <button type="button" class="menu-item" on:click=copy><Icon icon=Icon::Link/> {t::copy_link()}</button>
            {add_to_list}
            {mute}
            <PostFacts post/>
            <p class="menu-note" role="status">{move || copied.get().map(|done| if done { t::link_copied().get() } else { t::could_not_copy_link().get() })}</p>
        </div>
    }
}

/// "Replies are off" and "via <application>": on a thread's focused post,
/// and in every card's "⋯".
#[component]
fn PostFacts(post: ArcReadSignal<Post>) -> impl IntoView {
    let from = post.with_untracked(|p| p.from.clone());
    view! {
        {move || post.with(|p| p.locked).then(|| view! {
            <span class="locked" title=t::replies_are_off()><Icon icon=Icon::Lock/> " " {t::locked()}</span>
        })}
        {from.filter(|a| !a.name.is_empty()).map(|app| view! { <span class="via">{t::via_app(app.name)}</span> })}
    }
}

#[component]
fn Card(
    post: ArcReadSignal<Post>,
    focused: bool,
    position: Option<Memo<(usize, i32)>>,
    below: Option<ChildrenFn>,
    description: Option<Signal<String>>,
) -> impl IntoView {
    let (content, more_signal, facts_signal, own_signal, edit_signal, reply_signal, kept_signal) =
        (post.clone(), post.clone(), post.clone(), post.clone(), post.clone(), post.clone(), post.clone());
    let post = post.get_untracked();
    let session = crate::account::session::use_session();
    let own = session.user().is_some_and(|me| me.uuid == post.author.uuid);
    let signed_in = session.is_signed_in();
    // Delete chosen in "⋯", asked in the footer: one's own posts only.
    let confirming = own.then(|| RwSignal::new(false));
    // An edit left in progress (a reload, another tab) opens again; unless
    // the post, as the server reads it later than the local copy, already
    // has its text (the save reached the server before a reload).
    let editing = own.then(|| {
        let (store, latest) = (use_store(), kept_signal.clone());
        let open = store.edit_open(&post);
        Effect::new(move |_| {
            let now = latest.get();
            store.edit_open(&now);
        });
        open
    });
    let editing = move || editing.as_ref().is_some_and(|open| open.get());
    // An edit waiting in the outbox shows as it will be; the card follows
    // only its own post's entry, not every change to the outbox.
    let waiting_edit = own.then(|| {
        let (store, uuid) = (use_store(), post.uuid.clone());
        Memo::new(move |_| store.waiting_edit(&uuid).map(|(text, _)| text))
    });
    let thread = AppPath::Thread(&post.uuid).href();
    let author = post.author.clone();
    let profile = AppPath::Profile(&author.username).href();
    let heading_id = DomId::CardHeading(&post.uuid).to_string();
    let labelled_by = heading_id.clone();
    let name = author.shown_name().to_owned();
    let class = if focused { "post focused" } else { "post" };
    // Plain links: the router follows any same-origin `<a>` by itself.
    // `<A>` would add a memo and an effect per link (for `aria-current`,
    // which a post's links never need), run again on every navigation.
    view! {
        <article
            class=class
            aria-labelledby=labelled_by
            aria-posinset=position.map(|p| move || p.get().0)
            aria-setsize=position.map(|p| move || p.get().1)
            aria-description=description.map(|d| move || d.get())
            tabindex="-1"
            data-uuid=post.uuid.clone()
        >
            <header class="post-head">
                <super::avatar::Avatar src=author.avatar.clone() name=name.clone()/>
                <a href=profile.clone() class="author" id=heading_id>
                    <span class="display-name" dir="auto">{name}</span>
                    " "
                    <span class="handle">{format!("@{}", author.username)}</span>
                </a>
                <a href=thread.clone() class="time-link"><super::time::Time at=post.created_at/></a>
                <MoreActions post=more_signal signed_in confirming/>
            </header>
            {post.parent.is_reply().then(|| view! { <ReplyingTo parent=post.parent.clone()/> })}
            {move || if editing() {
                view! { <super::own_post::EditForm post=edit_signal.clone()/> }.into_any()
            } else {
                let waiting = waiting_edit.and_then(|edit| edit.get());
                let text = waiting.unwrap_or_else(|| content.with(|p| p.content.clone()));
                view! { <PostContent content=text/> }.into_any()
            }}
            {focused.then(|| view! { <p class="post-facts"><PostFacts post=facts_signal/></p> })}
            <footer class="post-meta">
                <ReplyAction post=reply_signal thread signed_in/>
                <super::toggle_buttons::LikeButton uuid=post.uuid.clone() reply=post.parent.is_reply()/>
                {signed_in.then(|| view! { <super::bookmark::BookmarkButton post=kept_signal/> })}
                {confirming.map(|confirming| view! { <super::own_post::DeleteQuestion post=own_signal.clone() confirming/> })}
                {own.then(|| view! { <super::waiting::WaitingMark uuid=post.uuid.clone()/> })}
            </footer>
            {below.map(|below| below())}
        </article>
    }
}

/// Reply, with the count of replies: the icon answers (when one may), the
/// count opens the thread. Both keep the names they had as words
/// ("Reply", "3 replies"), as names rather than hidden text: a card has no
/// box out of the page's flow (each was laid out with the whole page).
#[component]
fn ReplyAction(post: ArcReadSignal<Post>, thread: String, signed_in: bool) -> impl IntoView {
    let uuid = post.with_untracked(|p| p.uuid.clone());
    let count = {
        let post = post.clone();
        move || post.with(|p| p.reply_count)
    };
    let may_reply = move || signed_in && !post.with(|p| p.locked);
    let icon_on_count = may_reply.clone();
    let count_said = count.clone();
    view! {
        <span class="action reply">
            {move || may_reply().then(|| view! {
                <a href=AppPath::ReplyTo(&uuid).href() class="reply-link" title=t::reply() aria-label=t::reply()>
                    <Icon icon=Icon::Reply/>
                </a>
            })}
            <a href=thread class="reply-count" aria-label=move || t::replies_count(count_said()).get()>
                {move || (!icon_on_count()).then(|| view! { <Icon icon=Icon::Reply/> })}
                <span>{move || crate::i18n::number(count())}</span>
            </a>
        </span>
    }
}

/// What a deleted post leaves in a thread.
#[component]
pub fn Tombstone() -> impl IntoView {
    view! { <article class="post tombstone"><p>{t::post_was_deleted()}</p></article> }
}

/// A placeholder the shape of a post while it loads.
#[component]
pub fn PostSkeleton() -> impl IntoView {
    view! {
        <div class="post skeleton" aria-hidden="true">
            <div class="skeleton-line short"></div>
            <div class="skeleton-line"></div>
            <div class="skeleton-line"></div>
        </div>
    }
}
