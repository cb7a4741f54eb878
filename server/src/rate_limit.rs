//! Fixed-window rate limits kept in memory: requests per token, and failed
//! sign-in attempts per IP address.

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

    /// Whether `key` is over the limit now, without counting.
    pub fn check(&self, key: &str) -> Result<(), u64> {
        let now = Instant::now();
        let windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        match windows.get(key) {
            Some((start, count)) if now.duration_since(*start) < self.window && *count >= self.limit => {
                Err(self.window.saturating_sub(now.duration_since(*start)).as_secs().max(1))
            }
            _ => Ok(()),
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
        assert!(rl.check("a").is_err());
        assert_eq!(rl.hit("b"), Ok(()), "keys are separate");
    }
}
