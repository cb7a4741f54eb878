//! When the account's activity is checked: on opening the app, then every
//! interval (2 minutes, or `config.json`'s `activity_check_seconds`) while
//! the tab is visible, never while it is hidden, and at once when a tab
//! that missed a check comes back. One tab reads for the account (a lock
//! shared by tabs, and a check that another tab made less than an interval
//! ago counts); the others hear the result through storage. Errors back
//! off, doubling up to half an hour, and a `Retry-After` is honoured.
//! After the current account, every other account signed in here is
//! checked too, one at a time, each with its own token, while the tab is
//! visible: its count in the account menu stays true (issue 47).

use super::{kept, use_unread};
use crate::api::ApiError;
use crate::browser::clock::{sleep, until_visible};
use crate::store::Store;
use leptos::prelude::*;

/// The longest wait after errors.
const BACKOFF_MAX_MS: i64 = 30 * 60_000;

/// Starts checking for as long as the current reactive owner (the shell) lives.
pub fn watch(store: Store, every_s: u32) {
    let every = i64::from(every_s.max(5)) * 1_000;
    let alive = StoredValue::new(());
    let unread = use_unread();
    // A count counts only what the page shows: a change of mutes, here or
    // in another tab, counts again.
    if let Some(mutes) = crate::store::mutes::use_mutes() {
        let session = store.session;
        Effect::new(move |_| {
            let muted = mutes.get();
            let Some(me) = session.signed_untracked().map(|s| s.user.uuid) else { return };
            if super::recount(&me, &kept(&me), &muted) {
                if let Some(unread) = unread {
                    unread.changed();
                }
            }
        });
    }
    leptos::task::spawn_local(async move {
        let mut failures = 0;
        let mut wait = 0;
        loop {
            sleep(wait).await;
            until_visible().await;
            if alive.is_disposed() {
                return;
            }
            let Some(signed) = store.session.signed_untracked().filter(|s| !s.ended) else {
                wait = every;
                continue;
            };
            let me = signed.user;
            match store.check_activity(&me, &signed.scopes, every * 9 / 10, false).await {
                Ok(_) => {
                    failures = 0;
                    if let Some(unread) = unread {
                        unread.changed();
                    }
                    // From the last check, this tab's or another's.
                    wait = (kept(&me.uuid).read_ms + every - js_sys::Date::now() as i64).clamp(1_000, every);
                    let others =
                        store.session.all_untracked().into_iter().filter(|s| s.user.uuid != me.uuid && !s.ended);
                    for other in others {
                        until_visible().await;
                        if alive.is_disposed() {
                            return;
                        }
                        // Its failures wait for the next round; they are the
                        // other account's to see when it is current.
                        if store.check_other_activity(&other.user, &other.scopes, every * 9 / 10).await.is_ok() {
                            if let Some(unread) = unread {
                                unread.changed();
                            }
                        }
                    }
                }
                Err(error) => {
                    failures += 1;
                    wait = backoff(every, failures, &error);
                }
            }
        }
    });
}

/// The wait after `failures` failed checks in a row, the last one `error`.
fn backoff(every: i64, failures: u32, error: &ApiError) -> i64 {
    let doubled = every.saturating_mul(1 << failures.clamp(1, 10).saturating_sub(1)).min(BACKOFF_MAX_MS);
    match error {
        ApiError::RateLimited { retry_after: Some(s), .. } => {
            doubled.max(i64::try_from(*s).unwrap_or(i64::MAX).saturating_mul(1_000))
        }
        _ => doubled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_back_off_doubling_to_half_an_hour_and_retry_after_is_honoured() {
        let network = ApiError::Network("offline".into());
        assert_eq!(backoff(120_000, 1, &network), 120_000);
        assert_eq!(backoff(120_000, 2, &network), 240_000);
        assert_eq!(backoff(120_000, 9, &network), BACKOFF_MAX_MS);
        let slow_down = ApiError::RateLimited { retry_after: Some(600), message: String::new() };
        assert_eq!(backoff(120_000, 1, &slow_down), 600_000);
    }
}
