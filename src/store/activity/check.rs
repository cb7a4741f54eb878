//! One check of the account's activity against the server: its posts'
//! first page and its followers, each a conditional read (`If-None-Match`
//! with the kept `ETag`: two 304s when nothing changed); every page of its
//! last 60 posts on a full check; the replies pages of each post whose
//! replies grew; mentions from what the store already read. Everything is
//! asked as the account that the check is for ([`Api::as_account`]); an
//! account signed in here but not current is checked with its own token
//! ([`Api::as_other_account`]), and what its check reads stays in its
//! activity: none of it enters the store, which is the current account's
//! (so its mentions, found in what the store read, wait until it is current).

use super::compare::{self, Kept};
use super::{kept, save, FULL_EVERY, ITEMS_KEPT, POST_PAGES};
use crate::api::{Api, ApiError, Fresh};
use crate::store::Store;
use perch_model::{FollowersList, RepliesPage, Scope, User, UserPostsPage};

/// What a check did.
#[derive(Debug, PartialEq)]
pub enum Checked {
    /// It read the server and kept what it found.
    Read,
    /// Another tab had just read for the account: its result is kept already.
    Fresh,
}

impl Store {
    /// Checks `me`'s activity now (or finds that another tab just did,
    /// `fresh_for_ms`), under a lock the account's tabs share, and keeps
    /// the result for every tab.
    /// `scopes`: the token's, as the session says now. `everywhere`: read
    /// every page of the account's posts (Check now), not only the first.
    pub async fn check_activity(
        &self,
        me: &User,
        scopes: &[Scope],
        fresh_for_ms: i64,
        everywhere: bool,
    ) -> Result<Checked, ApiError> {
        self.check_activity_of(me, scopes, fresh_for_ms, everywhere, true).await
    }

    /// Checks the activity of `other`, an account signed in here that is
    /// not the current one, as [`Store::check_activity`] does, with that
    /// account's own token.
    pub async fn check_other_activity(
        &self,
        other: &User,
        scopes: &[Scope],
        fresh_for_ms: i64,
    ) -> Result<Checked, ApiError> {
        self.check_activity_of(other, scopes, fresh_for_ms, false, false).await
    }

    async fn check_activity_of(
        &self,
        me: &User,
        scopes: &[Scope],
        fresh_for_ms: i64,
        everywhere: bool,
        current: bool,
    ) -> Result<Checked, ApiError> {
        let lock = format!("perch-activity-{}", me.uuid);
        crate::browser::tab_lock::exclusive(&lock, async {
            let mut kept = kept(&me.uuid);
            if (js_sys::Date::now() as i64 - kept.read_ms) < fresh_for_ms {
                return Ok(Checked::Fresh);
            }
            let api = if current { self.api.as_account(&me.uuid) } else { self.api.as_other_account(&me.uuid) };
            self.look(&api, me, scopes, everywhere, current, &mut kept).await?;
            save(&me.uuid, &kept);
            Ok(Checked::Read)
        })
        .await
    }

    async fn look(
        &self,
        api: &Api,
        me: &User,
        scopes: &[Scope],
        everywhere: bool,
        current: bool,
        kept: &mut Kept,
    ) -> Result<(), ApiError> {
        let full = everywhere || !kept.looked() || kept.since_full + 1 >= FULL_EVERY;
        let now = js_sys::Date::now() as i64;
        let mut grown = Vec::new();
        // The first page alone, unless full: two requests when nothing changed.
        for page in 1..=if full { POST_PAGES } else { 1 } {
            let path = format!("/user/{}/posts/{page}", me.uuid);
            if let Some(read) = conditional::<UserPostsPage>(api, kept, &path).await? {
                grown.extend(kept.compare_posts(&read.posts, &me.uuid, now));
                if read.posts.len() < 15 {
                    break;
                }
            }
        }
        kept.since_full = if full { 0 } else { kept.since_full + 1 };
        for (uuid, old, new) in grown {
            for page in compare::reply_pages(old, new) {
                let read: RepliesPage = api.replies(&uuid, page).await?;
                let replies = compare::after(page, old, read.replies);
                if current {
                    replies.iter().for_each(|r| drop(self.put_post(r.clone())));
                }
                kept.add_replies(replies, &me.uuid, now);
            }
        }
        // A pasted token's scopes are assumed: a 403 teaches what is missing.
        let may_read_followers = scopes.contains(&Scope::UserFollowersGet);
        if may_read_followers {
            let path = format!("/user/{}/followers", me.uuid);
            match conditional::<FollowersList>(api, kept, &path).await {
                Ok(Some(read)) => kept.compare_followers(read.followers, now),
                Ok(None) => {}
                Err(ApiError::Forbidden { missing, .. }) if missing.contains(&Scope::UserFollowersGet) => {
                    kept.followers_refused = true;
                }
                Err(e) => return Err(e),
            }
        } else {
            kept.followers_refused = true;
        }
        if current {
            let posts = self.every_post_untracked();
            kept.add_mentions(posts.iter(), me, |uuid| self.follows_known(uuid), now);
        }
        kept.finish(now, ITEMS_KEPT);
        Ok(())
    }
}

/// Reads `path` unless the server says it is unchanged since the kept
/// `ETag` (`None`); keeps the new tag.
async fn conditional<T: serde::de::DeserializeOwned>(
    api: &Api,
    kept: &mut Kept,
    path: &str,
) -> Result<Option<T>, ApiError> {
    let tag = kept.tag(path).map(str::to_owned);
    match api.get_if_changed::<T>(path, tag.as_deref()).await? {
        Fresh::Unchanged => Ok(None),
        Fresh::Changed(value, tag) => {
            kept.set_tag(path, tag);
            Ok(Some(value))
        }
    }
}
