//! Fixed-window rate limits kept in memory: requests per token, and failed
//! sign-in attempts per (address, username) and per address.
//!
//! Bounded: windows that have ended are swept at most once a second (a
//! timer driven by the hits themselves, so an idle server holds nothing
//! new), and at most `MAX_KEYS` keys are counted at once. When every one of
//! them is a live window, the oldest windows are let go to make room: a
//! new key is always counted, so filling the limiter with fresh keys
//! cannot lock everyone else out (it can only shorten the memory of the
//! oldest counts).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most keys counted at once.
pub const MAX_KEYS: usize = 100_000;
/// How often ended windows are swept.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

struct Windows {
    by_key: HashMap<String, (Instant, u32)>,
    swept: Instant,
}

pub struct RateLimiter {
    limit: u32,
    window: Duration,
    max_keys: usize,
    windows: Mutex<Windows>,
}

impl RateLimiter {
    pub fn new(limit: u32, window: Duration) -> Self {
        Self::with_max_keys(limit, window, MAX_KEYS)
    }

    pub fn with_max_keys(limit: u32, window: Duration, max_keys: usize) -> Self {
        let windows = Windows { by_key: HashMap::new(), swept: Instant::now() };
        RateLimiter { limit, window, max_keys, windows: Mutex::new(windows) }
    }

    /// The keys counted now.
    pub fn len(&self) -> usize {
        self.windows.lock().unwrap_or_else(|e| e.into_inner()).by_key.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Counts one hit on `key`; `Err(seconds)` when over the limit.
    pub fn hit(&self, key: &str) -> Result<(), u64> {
        let now = Instant::now();
        let mut guard = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        let Windows { by_key: windows, swept } = &mut *guard;
        if now.duration_since(*swept) >= SWEEP_EVERY || (windows.len() >= self.max_keys && !windows.contains_key(key)) {
            windows.retain(|_, (start, _)| now.duration_since(*start) < self.window);
            *swept = now;
        }
        if windows.len() >= self.max_keys && !windows.contains_key(key) {
            evict_oldest(windows, self.max_keys);
        }
        let entry = windows.entry(key.to_owned()).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1 >= self.limit {
            let left = self.window.saturating_sub(now.duration_since(entry.0));
            return Err(left.as_secs().max(1));
        }
        entry.1 += 1;
        Ok(())
    }

    /// Takes back one hit on `key`: what was counted did not count after all.
    pub fn refund(&self, key: &str) {
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = windows.by_key.get_mut(key) {
            entry.1 = entry.1.saturating_sub(1);
        }
    }
}

/// Lets go of the oldest tenth of the windows (at least one), so that a
/// full limiter makes room in one pass now and then rather than on every hit.
fn evict_oldest(windows: &mut HashMap<String, (Instant, u32)>, max_keys: usize) {
    let mut starts: Vec<Instant> = windows.values().map(|(start, _)| *start).collect();
    let room = (max_keys / 10).max(1).min(starts.len());
    let (_, cut, _) = starts.select_nth_unstable(room - 1);
    let cut = *cut;
    let mut left = room;
    windows.retain(|_, (start, _)| {
        let go = left > 0 && *start <= cut;
        left -= usize::from(go);
        !go
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_past_the_limit_per_key() {
        let rl = RateLimiter::new(2, Duration::from_secs(60));
        assert_eq!(rl.hit("a"), Ok(()));
        assert_eq!(rl.hit("a"), Ok(()));
        assert!(matches!(rl.hit("a"), Err(s) if (1..=60).contains(&s)));
        assert_eq!(rl.hit("b"), Ok(()), "keys are separate");
        rl.refund("a");
        assert_eq!(rl.hit("a"), Ok(()), "a refunded hit frees its place");
        assert!(rl.hit("a").is_err());
    }

    #[test]
    fn holds_at_most_max_keys_and_sweeps_ended_windows() {
        let rl = RateLimiter::with_max_keys(5, Duration::from_millis(200), 3);
        for key in ["a", "b", "c"] {
            assert_eq!(rl.hit(key), Ok(()));
        }
        assert_eq!(rl.hit("d"), Ok(()), "full of live windows: a new key is still counted");
        assert_eq!(rl.len(), 3, "the oldest window made room");
        assert_eq!(rl.hit("d"), Ok(()), "and goes on being counted");
        std::thread::sleep(Duration::from_millis(1100));
        assert_eq!(rl.hit("e"), Ok(()), "ended windows were swept");
        assert_eq!(rl.len(), 1, "only the new key is left");
    }
}
