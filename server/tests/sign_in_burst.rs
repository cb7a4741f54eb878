//! A burst of wrong passwords against the sign-in page, alone in its own
//! test binary so that the process's peak memory is the burst's.

mod common;

use common::flow::Flow;
use common::Server;
use std::sync::Arc;

/// The process's peak resident memory, in MB (Linux).
fn peak_rss_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
}

/// 200 wrong passwords for ada at once, attempt `i` from `client(i)`
/// (through the trusted proxy); the statuses they got.
async fn burst(flow: &Arc<Flow>, query: &[(&'static str, String)], client: impl Fn(usize) -> String) -> Vec<u16> {
    let attempts = (0..200).map(|i| {
        let (flow, query, client) = (flow.clone(), query.to_vec(), client(i));
        tokio::spawn(async move {
            flow.submit_from(Some(&client), &query, "ada", &format!("wrong-{i}"), &["user.get"], "allow").await.0
        })
    });
    futures::future::join_all(attempts).await.into_iter().map(|r| r.unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_wrong_passwords_is_counted_before_hashing_and_bounded() {
    let server = Server::start_with(|o| {
        o.sign_in_window = std::time::Duration::from_secs(3);
        o.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    })
    .await;
    server.user("ada").await;
    let flow = Arc::new(Flow::new(&server).await);
    eprintln!("before: peak {} MB", peak_rss_mb());
    let query = flow.query(&flow.redirect_uri, "user.get");
    let statuses = burst(&flow, &query, |_| "203.0.113.5".to_owned()).await;
    let checked = statuses.iter().filter(|s| **s == 401).count();
    assert!(statuses.iter().all(|s| *s == 401 || *s == 429), "{statuses:?}");
    assert!(checked <= 10, "{checked} of 200 parallel wrong passwords were checked; the limit is 10");
    eprintln!("200 wrong passwords from one address: {checked} checked, peak RSS {} MB", peak_rss_mb());
    assert!(peak_rss_mb() < 300, "peak RSS {} MB", peak_rss_mb());

    // Someone else, behind the same proxy, signs in to the same account at once.
    let (status, location, _) =
        flow.submit_from(Some("198.51.100.7"), &query, "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 303, "another client is not locked out: {location}");
    // The attacker's address waits for the window, then the right password works.
    let (status, _, _) = flow.submit_from(Some("203.0.113.5"), &query, "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 429);
    tokio::time::sleep(std::time::Duration::from_millis(3100)).await;
    let (status, _, _) = flow.submit_from(Some("203.0.113.5"), &query, "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 303, "the window has passed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn password_checks_from_many_addresses_run_a_few_at_a_time() {
    let server = Server::start_with(|o| {
        o.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
        o.sign_in_parallel = 2;
    })
    .await;
    server.user("ada").await;
    let flow = Arc::new(Flow::new(&server).await);
    eprintln!("before: peak {} MB", peak_rss_mb());
    let query = flow.query(&flow.redirect_uri, "user.get");
    // Each attempt from its own address: no failure limit applies, only the bound.
    let statuses = burst(&flow, &query, |i| format!("198.18.{}.{}", i / 250, i % 250 + 1)).await;
    assert!(statuses.iter().all(|s| *s == 401 || *s == 429), "{statuses:?}");
    let peak = peak_rss_mb();
    eprintln!(
        "200 wrong passwords from 200 addresses: {} checked, peak RSS {peak} MB",
        statuses.iter().filter(|s| **s == 401).count()
    );
    assert!(peak < 300, "peak RSS {peak} MB: password checks are not bounded");
    let (status, _, _) = flow.submit_from(Some("198.51.100.7"), &query, "ada", "pw-ada", &["user.get"], "allow").await;
    assert_eq!(status, 303, "the burst is over: the right password works");
}
