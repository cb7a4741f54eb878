//! A post as a card: author, content as text with links, time, counts,
//! application, lock mark and what it replies to. Each card is an
//! `<article>`; its time and reply count link to its thread. Content is
//! rendered as text nodes and links only, never as markup.

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
    /// for `aria-posinset`/`aria-setsize`.
    #[prop(optional)]
    position: Option<(usize, i32)>,
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
    let present = Memo::new(move |_| if store.is_deleted(&uuid) { Err(true) } else { store.post(&uuid).ok_or(false) });
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
        (Err(false), _) => view! { <PostSkeleton/> }.into_any(),
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

/// "⋯" on someone else's post: Mute them (drawn when first opened).
#[component]
fn MoreActions(author: perch_model::User) -> impl IntoView {
    let opened = RwSignal::new(false);
    let mutes = crate::store::mutes::use_mutes();
    let menu = NodeRef::<leptos::html::Details>::new();
    let label = t::more_for_post_by(format!("@{}", author.username));
    view! {
        <details class="card-more" node_ref=menu
            on:toggle=move |_| if menu.get_untracked().is_some_and(|m| m.open()) { opened.set(true) }>
            <summary aria-label=label>"⋯"</summary>
            {move || opened.get().then(|| {
                let author = author.clone();
                let name = format!("@{}", author.username);
                view! {
                    <button type="button" class="link-button" on:click=move |_| {
                        if let Some(m) = mutes { m.mute_person(&author) }
                    }>{t::mute_user(name)}</button>
                }
            })}
        </details>
    }
}

#[component]
fn Card(
    post: ArcReadSignal<Post>,
    focused: bool,
    position: Option<(usize, i32)>,
    below: Option<ChildrenFn>,
    description: Option<Signal<String>>,
) -> impl IntoView {
    let (content, replies, locked, own_signal, edit_signal, reply_signal, kept_signal) =
        (post.clone(), post.clone(), post.clone(), post.clone(), post.clone(), post.clone(), post.clone());
    let post = post.get_untracked();
    let session = crate::account::session::use_session();
    let own = session.user().is_some_and(|me| me.uuid == post.author.uuid);
    let signed_in = session.is_signed_in();
    // An edit left in progress (a reload, another tab) opens again.
    let editing = own.then(|| use_store().edit_open(&post));
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
            aria-posinset=position.map(|p| p.0)
            aria-setsize=position.map(|p| p.1)
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
            </header>
            {post.parent.is_reply().then(|| view! { <ReplyingTo parent=post.parent.clone()/> })}
            {move || if editing() {
                view! { <super::own_post::EditForm post=edit_signal.clone()/> }.into_any()
            } else {
                let waiting = waiting_edit.and_then(|edit| edit.get());
                let text = waiting.unwrap_or_else(|| content.with(|p| p.content.clone()));
                view! { <PostContent content=text/> }.into_any()
            }}
            <footer class="post-meta">
                <a href=thread>{move || t::replies_count(replies.with(|p| p.reply_count)).get()}</a>
                {move || locked.with(|p| p.locked).then(|| view! { <span class="locked" title=t::replies_are_off()>"🔒 " {t::locked()}</span> })}
                <super::toggle_buttons::LikeButton uuid=post.uuid.clone() reply=post.parent.is_reply()/>
                {signed_in.then(|| view! { <super::bookmark::BookmarkButton post=kept_signal/> })}
                {let uuid = post.uuid.clone(); move || (signed_in && !reply_signal.with(|p| p.locked)).then(|| view! {
                    <a href=AppPath::ReplyTo(&uuid).href() class="reply-link">{t::reply()}</a>
                })}
                {own.then(|| view! { <super::own_post::OwnActions post=own_signal.clone()/> })}
                {(signed_in && !own).then(|| view! { <MoreActions author=author.clone()/> })}
                {own.then(|| view! { <super::waiting::WaitingMark uuid=post.uuid.clone()/> })}
                {post.from.as_ref().filter(|a| !a.name.is_empty()).map(|app| view! { <span class="via">{t::via_app(app.name.clone())}</span> })}
            </footer>
            {below.map(|below| below())}
        </article>
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
