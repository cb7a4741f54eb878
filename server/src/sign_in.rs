//! Who is signing in, and how hard they may try: the client's address (read
//! from `X-Forwarded-For` only when the peer is a trusted proxy), failed
//! attempts counted per (address, username) before any password is hashed,
//! and the password checks themselves: each Argon2 check holds about 19 MiB,
//! so they run on a few threads of their own. On the shared blocking pool,
//! every thread that ever checked a password kept its 19 MiB in its malloc
//! arena, and a burst grew the process by hundreds of megabytes.

use crate::rate_limit::RateLimiter;
use axum::http::HeaderMap;
use std::net::IpAddr;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::{Semaphore, SemaphorePermit};

/// An address block such as `10.0.0.0/8`, `192.0.2.7` or `::1/128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    prefix: u8,
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("{text:?} is not an address block such as 10.0.0.0/8 or ::1/128");
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text.trim(), None),
        };
        let net: IpAddr = addr.parse().map_err(|_| bad())?;
        let max = if net.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p.parse::<u8>().ok().filter(|p| *p <= max).ok_or_else(bad)?,
            None => max,
        };
        Ok(Cidr { net, prefix })
    }
}

impl Cidr {
    pub fn contains(&self, addr: IpAddr) -> bool {
        let addr = canonical(addr);
        match (self.net, addr) {
            (IpAddr::V4(net), IpAddr::V4(a)) => same_prefix(&net.octets(), &a.octets(), self.prefix),
            (IpAddr::V6(net), IpAddr::V6(a)) => same_prefix(&net.octets(), &a.octets(), self.prefix),
            _ => false,
        }
    }
}

/// IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) as the IPv4 address they are.
fn canonical(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(addr),
        v4 => v4,
    }
}

fn same_prefix(a: &[u8], b: &[u8], prefix: u8) -> bool {
    let (whole, rest) = ((prefix / 8) as usize, prefix % 8);
    if a[..whole] != b[..whole] {
        return false;
    }
    rest == 0 || {
        let mask = 0xffu8 << (8 - rest);
        a[whole] & mask == b[whole] & mask
    }
}

/// The client's address: the peer's, unless the peer is a trusted proxy;
/// then the nearest address in `X-Forwarded-For` that is not a trusted
/// proxy itself. A header from anyone else is ignored, since a client can
/// write anything there.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[Cidr]) -> IpAddr {
    let is_trusted = |a: IpAddr| trusted.iter().any(|c| c.contains(a));
    let peer = canonical(peer);
    if !is_trusted(peer) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop.parse::<IpAddr>() {
            Ok(addr) => {
                client = canonical(addr);
                if !is_trusted(client) {
                    break;
                }
            }
            // Something this server's proxies did not write: stop trusting the rest.
            Err(_) => break,
        }
    }
    client
}

/// Why a sign-in attempt may not be checked now; the seconds to wait.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    TooManyFailures(u64),
    Busy(u64),
}

pub struct SignInGuard {
    /// Wrong passwords per (address, username).
    failures: RateLimiter,
    /// Wrong passwords per address, whatever the username: password
    /// spraying (one common password tried on many accounts) meets this one.
    per_address: RateLimiter,
    /// One permit per checker thread: a permit held is a thread free.
    checks: Semaphore,
    checkers: std::sync::mpsc::Sender<Check>,
    /// How long an attempt may wait for a free check before it is refused.
    queue_wait: Duration,
    /// Password checks run so far (each costs one Argon2 hash).
    checked: std::sync::atomic::AtomicU64,
}

/// A password to check against a stored hash, and where to say the answer.
struct Check {
    hash: String,
    password: String,
    answer: tokio::sync::oneshot::Sender<bool>,
}

/// Starts `threads` threads that check passwords one at a time each.
fn start_checkers(threads: usize) -> std::sync::mpsc::Sender<Check> {
    let (send, receive) = std::sync::mpsc::channel::<Check>();
    let receive = std::sync::Arc::new(std::sync::Mutex::new(receive));
    for n in 0..threads {
        let receive = receive.clone();
        let spawned = std::thread::Builder::new().name(format!("password-check-{n}")).spawn(move || {
            let mut checker = crate::accounts::PasswordChecker::default();
            loop {
                let next = receive.lock().unwrap_or_else(|e| e.into_inner()).recv();
                let Ok(check) = next else { return };
                let _ = check.answer.send(checker.verify(&check.hash, &check.password));
            }
        });
        if let Err(e) = spawned {
            tracing::error!("could not start a password-check thread: {e}");
        }
    }
    send
}

/// An attempt being checked: counted as a failure until `succeeded`.
pub struct Attempt<'a> {
    guard: &'a SignInGuard,
    key: String,
    address: String,
    _permit: SemaphorePermit<'a>,
}

/// Wrong passwords one address may make across usernames, for each one
/// allowed per (address, username).
pub const PER_ADDRESS_FACTOR: u32 = 5;

impl SignInGuard {
    /// `failures` wrong passwords per (address, username) in `window`, and
    /// [`PER_ADDRESS_FACTOR`] times that per address; `parallel` password
    /// checks at once.
    pub fn new(failures: u32, window: Duration, parallel: usize) -> Self {
        SignInGuard {
            failures: RateLimiter::new(failures, window),
            per_address: RateLimiter::new(failures.saturating_mul(PER_ADDRESS_FACTOR), window),
            checks: Semaphore::new(parallel.max(1)),
            checkers: start_checkers(parallel.max(1)),
            queue_wait: Duration::from_secs(5),
            checked: Default::default(),
        }
    }

    /// Counts an attempt for `username` from `client` before anything is
    /// hashed, then waits for a free password check.
    /// `username` must be one a user can have (`accounts::check_username`):
    /// anything else is refused by the caller before it is counted here, so
    /// a key is at most an address and 30 characters.
    pub async fn begin(&self, client: IpAddr, username: &str) -> Result<Attempt<'_>, Wait> {
        let address = counted_as(client);
        let key = format!("{address} {}", username.to_lowercase());
        self.per_address.hit(&address).map_err(Wait::TooManyFailures)?;
        if let Err(wait) = self.failures.hit(&key) {
            self.per_address.refund(&address);
            return Err(Wait::TooManyFailures(wait));
        }
        match tokio::time::timeout(self.queue_wait, self.checks.acquire()).await {
            Ok(Ok(permit)) => Ok(Attempt { guard: self, key, address, _permit: permit }),
            _ => {
                self.failures.refund(&key);
                self.per_address.refund(&address);
                Err(Wait::Busy(1))
            }
        }
    }
}

impl SignInGuard {
    /// The keys counted now (per address and username, and per address).
    pub fn counted(&self) -> usize {
        self.failures.len() + self.per_address.len()
    }

    /// The password checks run so far.
    pub fn checked(&self) -> u64 {
        self.checked.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The address an attempt is counted under: an IPv4 address as it is, an
/// IPv6 address by its /64, which one client is usually given whole (so
/// counting per /128 would give it 2^64 fresh counts).
fn counted_as(client: IpAddr) -> String {
    match canonical(client) {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        v4 => v4.to_string(),
    }
}

/// A hash of the same cost as a real one, for a name no account has (or an
/// account without a password): checking against it takes as long as a
/// wrong password for a real account, so the time of a refusal does not
/// tell which usernames exist.
static DUMMY_HASH: std::sync::LazyLock<Option<String>> =
    std::sync::LazyLock::new(|| crate::accounts::hash_password("no account has this password").ok());

impl Attempt<'_> {
    /// Whether `password` matches the stored `hash`, on a checker thread.
    pub async fn verify(&self, hash: String, password: String) -> bool {
        self.guard.checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.guard.checkers.send(Check { hash, password, answer }).is_ok() && answered.await.unwrap_or(false)
    }

    /// Checks `password` against a hash no account has, taking as long as
    /// [`Attempt::verify`]: always `false`.
    pub async fn verify_nobody(&self, password: String) -> bool {
        let Some(dummy) = DUMMY_HASH.clone() else { return false };
        let _ = self.verify(dummy, password).await;
        false
    }

    /// The password was right: this attempt is not a failure.
    pub fn succeeded(self) {
        self.guard.failures.refund(&self.key);
        self.guard.per_address.refund(&self.address);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        h
    }

    #[test]
    fn address_blocks_parse_and_match() {
        let block: Cidr = "10.1.0.0/16".parse().unwrap();
        assert!(block.contains(ip("10.1.200.3")));
        assert!(!block.contains(ip("10.2.0.1")));
        assert!(block.contains(ip("::ffff:10.1.0.9")), "IPv4-mapped addresses match their IPv4 block");
        let one: Cidr = "::1".parse().unwrap();
        assert!(one.contains(ip("::1")) && !one.contains(ip("::2")));
        let odd: Cidr = "192.168.0.128/25".parse().unwrap();
        assert!(odd.contains(ip("192.168.0.200")) && !odd.contains(ip("192.168.0.127")));
        for bad in ["10.0.0.0/33", "example.org", "10.0.0.0/x", ""] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn blocks_whose_prefix_is_not_a_whole_byte_match_the_right_bits() {
        let b20: Cidr = "10.1.16.0/20".parse().unwrap();
        assert!(b20.contains(ip("10.1.16.1")) && b20.contains(ip("10.1.31.255")));
        assert!(!b20.contains(ip("10.1.15.255")) && !b20.contains(ip("10.1.32.0")));
        let b12: Cidr = "172.16.0.0/12".parse().unwrap();
        assert!(
            b12.contains(ip("172.31.255.255")) && !b12.contains(ip("172.32.0.0")) && !b12.contains(ip("172.15.0.1"))
        );
        let b1: Cidr = "128.0.0.0/1".parse().unwrap();
        assert!(b1.contains(ip("200.1.1.1")) && !b1.contains(ip("127.255.255.255")));
        let b31: Cidr = "192.0.2.6/31".parse().unwrap();
        assert!(b31.contains(ip("192.0.2.7")) && !b31.contains(ip("192.0.2.5")) && !b31.contains(ip("192.0.2.8")));
        let v6: Cidr = "2001:db8:8000::/33".parse().unwrap();
        assert!(v6.contains(ip("2001:db8:ffff::1")) && !v6.contains(ip("2001:db8:7fff::1")));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("203.0.113.9")));
    }

    #[test]
    fn forwarded_for_is_read_only_from_trusted_proxies() {
        let proxies = ["127.0.0.1/32".parse().unwrap(), "10.0.0.0/8".parse().unwrap()];
        let header = forwarded("6.6.6.6, 203.0.113.9, 10.0.0.2");
        assert_eq!(client_address(ip("127.0.0.1"), &header, &proxies), ip("203.0.113.9"), "the nearest untrusted hop");
        assert_eq!(
            client_address(ip("198.51.100.1"), &header, &proxies),
            ip("198.51.100.1"),
            "an untrusted peer's header is ignored"
        );
        assert_eq!(client_address(ip("127.0.0.1"), &HeaderMap::new(), &proxies), ip("127.0.0.1"));
        assert_eq!(client_address(ip("127.0.0.1"), &forwarded("junk, 203.0.113.9"), &proxies), ip("203.0.113.9"));
        assert_eq!(client_address(ip("127.0.0.1"), &forwarded("203.0.113.9, junk"), &proxies), ip("127.0.0.1"));
        assert_eq!(client_address(ip("127.0.0.1"), &header, &[]), ip("127.0.0.1"), "no trusted proxies: the peer");
    }

    #[tokio::test]
    async fn one_ipv6_block_cannot_fill_the_limits_and_lock_others_out() {
        let guard = SignInGuard::new(10, Duration::from_secs(300), 2);
        // 100,001 addresses of one /64 count as one client: after its ten
        // wrong passwords, the rest are refused without being counted anew.
        let mut refused = 0;
        for n in 0..=crate::rate_limit::MAX_KEYS as u32 {
            let addr = IpAddr::V6(std::net::Ipv6Addr::new(0x2001, 0xdb8, 0, 7, 0, 0, (n >> 16) as u16, n as u16));
            if guard.begin(addr, "ada").await.is_err() {
                refused += 1;
            }
        }
        assert_eq!(refused, crate::rate_limit::MAX_KEYS + 1 - 10, "one /64 and one name: ten tries in all");
        assert!(guard.counted() <= 2, "{} keys counted for one block", guard.counted());
        assert!(guard.begin(ip("2001:db8:0:8::1"), "ada").await.is_ok(), "another /64 signs in");
        assert!(guard.begin(ip("198.51.100.7"), "ada").await.is_ok(), "and any IPv4 address");
    }

    #[tokio::test]
    async fn a_full_limiter_lets_its_oldest_go_rather_than_refuse_newcomers() {
        let guard = SignInGuard::new(10, Duration::from_secs(300), 2);
        // As many blocks as the limiter holds, each one attempt.
        for n in 0..=crate::rate_limit::MAX_KEYS as u32 {
            let addr = IpAddr::V6(std::net::Ipv6Addr::new(0x2001, 0xdb8, (n >> 16) as u16, n as u16, 0, 0, 0, 1));
            assert!(guard.begin(addr, "ada").await.is_ok(), "attempt {n} was refused");
        }
        assert!(guard.begin(ip("198.51.100.7"), "ada").await.is_ok(), "a newcomer is counted, not refused");
        assert!(guard.counted() <= 2 * crate::rate_limit::MAX_KEYS);
    }
}
