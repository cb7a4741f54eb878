//! Fixed-window rate limits kept in memory: requests per token, and failed
//! sign-in attempts per (address, username).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct RateLimiter {
    limit: u32,
    window: Duration,
    windows: Mutex<HashMap<String, (Instant, u32)>>,
}

impl RateLimiter {
    pub fn new(limit: u32, window: Duration) -> Self {
        RateLimiter { limit, window, windows: Mutex::new(HashMap::new()) }
    }

    /// Counts one hit on `key`; `Err(seconds)` when over the limit.
    pub fn hit(&self, key: &str) -> Result<(), u64> {
        let now = Instant::now();
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() > 100_000 {
            windows.retain(|_, (start, _)| now.duration_since(*start) < self.window);
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
        if let Some(entry) = windows.get_mut(key) {
            entry.1 = entry.1.saturating_sub(1);
        }
    }
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
}
