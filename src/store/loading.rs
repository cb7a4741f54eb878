//! How the store reads from the server: the one home of loading. Pages ask
//! for a list by [`ListKey`], or for one post or user, and show what the
//! store then holds; no page calls the `Api` to fill the store.
//!
//! Per list: [`Store::open`] (from memory and read again, else the first
//! page), [`Store::load_more`], [`Store::read_again`] (stale-while-
//! revalidate: what appeared since waits behind "Show N new",
//! [`Store::show_new`]). Per post or user: [`Store::read_post`] and
//! [`Store::read_user`]. Every answer is written here, in `fetch_page` and
//! those two, and nowhere else.
//!
//! These futures touch only the store, which lives for the visit, so a page
//! may drop them when it goes (its requests are then aborted): a list whose
//! load was dropped half-way is left ready to load again, never "loading"
//! for ever.

use super::{Change, ListKey, Paged, Store};
use crate::api::ApiError;
use leptos::prelude::*;
use std::sync::atomic::Ordering;

/// A list marked loading for as long as this lives: dropped with a
/// cancelled load, it clears the mark, so the list can load again.
struct LoadingMark(ArcRwSignal<Paged>);

impl LoadingMark {
    fn set(list: &ArcRwSignal<Paged>) -> Self {
        list.update(|l| l.loading = true);
        LoadingMark(list.clone())
    }
}

impl Drop for LoadingMark {
    fn drop(&mut self) {
        self.0.try_update(|l| l.loading = false);
    }
}

impl ListKey {
    /// Lists the interface answers whole, in one request (follow lists).
    fn is_whole(&self) -> bool {
        matches!(self, ListKey::Followers(_) | ListKey::Following(_))
    }

    /// Kept newest first: what is found later goes on top.
    pub fn newest_first(&self) -> bool {
        matches!(self, ListKey::Posts(_))
    }
}

impl Store {
    /// Opens a list: one read before (this visit, or kept in the local
    /// copy) shows from memory at once and is read again once that is
    /// painted; else its first page is read.
    pub async fn open(&self, key: ListKey) {
        self.opened(&key);
        if self.list_mut(&key).with_untracked(|l| l.pages_loaded > 0) {
            crate::browser::dom::after_paint().await;
            self.read_again(key).await;
        } else {
            self.load_more(key).await;
        }
    }

    /// Reads the next page of a list (a list answered whole: the whole
    /// list, once). One load at a time; nothing after the last page.
    pub async fn load_more(&self, key: ListKey) {
        let list = self.list_mut(&key);
        let page = {
            let l = list.get_untracked();
            if l.loading || l.done {
                return;
            }
            l.pages_loaded + 1
        };
        let mark = LoadingMark::set(&list);
        list.update(|l| l.error = None);
        let result = self.fetch_page(&key, page).await;
        drop(mark);
        list.update(|l| match result {
            Ok(uuids) => {
                l.done = key.is_whole() || uuids.len() < perch_model::PAGE_SIZE;
                for uuid in uuids {
                    if !l.items.contains(&uuid) {
                        l.items.push(uuid);
                    }
                }
                l.pages_loaded = page;
            }
            Err(e) => l.error = Some(e),
        });
    }

    /// Reads a list shown from memory again, with what it is about: a
    /// thread's post (an edit or a deletion made elsewhere) and the end of
    /// its replies; a user (counts, bio) and the start of their posts.
    /// What appeared since waits in `fresh` ("Show N new"). Failures say
    /// nothing: what is shown is still true as far as it goes. Lists
    /// answered whole are read once a visit (the account's following list
    /// from the local copy is read then). From the server: never an
    /// answer read early, as the page opened.
    pub async fn read_again(&self, key: ListKey) {
        self.api.forget_early();
        match &key {
            ListKey::Replies(uuid) => {
                if self.is_deleted_untracked(uuid) || self.read_post(uuid).await.is_err() {
                    return;
                }
                if !self.is_deleted_untracked(uuid) {
                    self.check_end(&key).await;
                }
            }
            ListKey::Posts(uuid) => {
                // The uuid is known: neither read waits for the other.
                let _ = futures::join!(self.read_user(uuid), self.check_start(&key));
            }
            ListKey::Following(uuid)
                if self.inner.following_from_copy.load(Ordering::Relaxed) && self.me().as_ref() == Some(uuid) =>
            {
                let _ = self.read_following(uuid).await;
            }
            ListKey::Followers(_) | ListKey::Following(_) => {}
        }
    }

    /// Shows what `read_again` found: on top of a newest-first list, else
    /// at its end.
    pub fn show_new(&self, key: &ListKey) {
        let on_top = key.newest_first();
        self.list_mut(key).update(|l| {
            let fresh = std::mem::take(&mut l.fresh);
            if on_top {
                l.items.splice(0..0, fresh);
            } else {
                l.items.extend(fresh);
            }
        });
    }

    /// A thread's first reads, started before its page has its code (the
    /// page's `data()`, issue 48): the post and its first replies, unless
    /// held. The page's own reads take their answers
    /// ([`crate::api::Api::read_early`]).
    pub fn read_thread_early(&self, uuid: &str) {
        if uuid.is_empty() || self.is_deleted_untracked(uuid) {
            return;
        }
        if self.post_untracked(uuid).is_none() {
            self.api.read_early(crate::api::path::post(uuid));
        }
        if self.list_mut(&ListKey::Replies(uuid.to_owned())).with_untracked(|l| l.pages_loaded == 0 && !l.loading) {
            self.api.read_early(crate::api::path::replies(uuid, 1));
        }
    }

    /// A profile's first read, started before its page has its code: the
    /// user, by `@username` or uuid, unless known.
    pub fn read_user_early(&self, key: &str) {
        if !key.is_empty() && self.user_by_key(key).is_none() {
            self.api.read_early(crate::api::path::user(key));
        }
    }

    /// A read of the page about to be drawn, started now (the home
    /// timeline's first reads: `timeline/`).
    pub fn read_early(&self, path: String) {
        self.api.read_early(path);
    }

    /// Reads one post. A 404 marks it deleted wherever it shows; other
    /// failures leave what is known as it is.
    pub async fn read_post(&self, uuid: &str) -> Result<(), ApiError> {
        match self.api.get_post(uuid).await {
            Ok(post) => {
                self.put_post(post);
                Ok(())
            }
            Err(e) => {
                if e.is_not_found() {
                    self.mark_deleted(uuid);
                }
                Err(e)
            }
        }
    }

    /// Reads one user by `@username` or uuid; answers the uuid.
    pub async fn read_user(&self, key: &str) -> Result<String, ApiError> {
        Ok(self.put_user(self.api.user(key).await?))
    }

    /// Reads page `page` of a user's posts and keeps them: for the home
    /// timeline, whose merge keeps its own order and cut across sources
    /// (`docs/app.md` says why it is not a `ListKey` list).
    pub async fn read_posts_page(&self, uuid: &str, page: u32) -> Result<Vec<perch_model::Post>, ApiError> {
        let posts = self.api.user_posts(uuid, page).await?.posts;
        for post in &posts {
            self.put_post(post.clone());
        }
        Ok(posts)
    }

    /// The one place a page of a list is asked for and written: its posts
    /// or users go into the store, the list gets their uuids.
    async fn fetch_page(&self, key: &ListKey, page: u32) -> Result<Vec<String>, ApiError> {
        match key {
            ListKey::Replies(uuid) => match self.api.replies(uuid, page).await {
                Ok(answer) => {
                    self.put_post(answer.post);
                    Ok(answer.replies.into_iter().map(|p| self.put_post(p)).collect())
                }
                Err(e) => {
                    if e.is_not_found() {
                        self.mark_deleted(uuid);
                    }
                    Err(e)
                }
            },
            ListKey::Posts(uuid) => {
                let answer = self.api.user_posts(uuid, page).await?;
                Ok(answer.posts.into_iter().map(|p| self.put_post(p)).collect())
            }
            ListKey::Followers(uuid) => Ok(self.put_user_refs(self.api.followers(uuid).await?.followers)),
            ListKey::Following(uuid) => {
                let followed = self.put_user_refs(self.api.following(uuid).await?.following);
                if self.me().as_deref() == Some(uuid.as_str()) {
                    self.my_following_read(&followed);
                }
                Ok(followed)
            }
        }
    }

    /// Reads whom `uuid` follows, whole, and keeps it. For the account, the
    /// one way the following list is read (the home timeline, Follow
    /// buttons and the Following page alike): every follow state learns
    /// from it, and a change made elsewhere is told as `Change::Followed`.
    /// A failure is shown on a list not read yet; a list already shown
    /// keeps its items.
    pub async fn read_following(&self, uuid: &str) -> Result<Vec<String>, ApiError> {
        let key = ListKey::Following(uuid.to_owned());
        let list = self.list_mut(&key);
        let mark = LoadingMark::set(&list);
        list.update(|l| {
            if l.pages_loaded == 0 {
                l.error = None;
            }
        });
        let result = self.fetch_page(&key, 1).await;
        drop(mark);
        if result.is_ok() && self.me().as_deref() == Some(uuid) {
            self.inner.following_from_copy.store(false, Ordering::Relaxed);
        }
        list.update(|l| match &result {
            Ok(items) => {
                l.items = items.clone();
                l.pages_loaded = 1;
                l.done = true;
                l.error = None;
            }
            Err(e) if l.pages_loaded == 0 => l.error = Some(e.clone()),
            Err(_) => {}
        });
        result
    }

    /// The account's following list as the server just gave it: follow
    /// states learn from it, and follows made or ended elsewhere since the
    /// list was last read are told to listeners.
    fn my_following_read(&self, now: &[String]) {
        let Some(me) = self.me() else { return };
        let before = self
            .list_mut(&ListKey::Following(me.clone()))
            .with_untracked(|l| (l.pages_loaded > 0).then(|| l.items.clone()));
        self.my_following_learned(&me, now);
        let Some(before) = before else { return };
        for gone in before.iter().filter(|u| !now.contains(u)) {
            self.tell(Change::Followed { uuid: gone, following: false });
        }
        for new in now.iter().filter(|u| !before.contains(u)) {
            self.tell(Change::Followed { uuid: new, following: true });
        }
    }

    /// Looks again at the last page of a list read to its end (oldest
    /// first, as replies are): what was added since waits in `fresh`, and
    /// a page that has filled up lets Load more go on.
    async fn check_end(&self, key: &ListKey) {
        let list = self.list_mut(key);
        let page = {
            let l = list.get_untracked();
            if l.loading || !l.done || l.pages_loaded == 0 {
                return;
            }
            l.pages_loaded
        };
        let Ok(uuids) = self.fetch_page(key, page).await else { return };
        list.update(|l| {
            if uuids.len() >= perch_model::PAGE_SIZE {
                l.done = false;
            }
            for uuid in uuids {
                if !l.items.contains(&uuid) && !l.fresh.contains(&uuid) {
                    l.fresh.push(uuid);
                }
            }
        });
    }

    /// Looks again at the first page of a list kept newest first (a user's
    /// posts): posts added since wait in `fresh`, to go on top.
    async fn check_start(&self, key: &ListKey) {
        let list = self.list_mut(key);
        if list.with_untracked(|l| l.loading || l.pages_loaded == 0) {
            return;
        }
        let Ok(uuids) = self.fetch_page(key, 1).await else { return };
        list.update(|l| {
            let new: Vec<String> =
                uuids.into_iter().take_while(|u| !l.items.contains(u)).filter(|u| !l.fresh.contains(u)).collect();
            l.fresh.splice(0..0, new);
        });
    }
}
