//! Connections that take too long: a client that trickles its headers or
//! sits idle is cut off, and a stopping server waits for a stalled request
//! only until its deadline, losing nothing that was committed.

mod common;

use common::Server;
use perch_server::connections::Timeouts;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn short() -> Timeouts {
    Timeouts { header_read: Duration::from_secs(1), body: Duration::from_secs(60), shutdown: Duration::from_secs(1) }
}

async fn connect(server: &Server) -> TcpStream {
    TcpStream::connect(server.base.trim_start_matches("http://")).await.unwrap()
}

/// Waits until the server closes `stream` (or `limit` passes); how long it took.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout(limit.saturating_sub(start.elapsed()), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Some(start.elapsed()),
            Ok(Ok(_)) => continue, // a 408 before closing
            Err(_) => return None,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_trickling_its_headers_is_cut_off() {
    let server = Server::start_with(|o| o.timeouts = short()).await;
    let mut slow = connect(&server).await;
    slow.write_all(b"GET /api/v1/ping HTTP/1.1\r\n").await.unwrap();
    let trickle = async {
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if slow.write_all(b"X").await.is_err() {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_millis(1500), trickle).await;
    let took = closed_within(&mut slow, Duration::from_secs(3)).await;
    assert!(took.is_some(), "a connection still sending its headers after 4.5 s is open");
    let (status, _) = common::Api::new(&server.base, None).get("/ping").await;
    assert_eq!(status, 200, "others are served");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_connection_is_closed() {
    let server = Server::start_with(|o| o.timeouts = short()).await;
    let mut idle = connect(&server).await;
    assert!(closed_within(&mut idle, Duration::from_secs(4)).await.is_some(), "an idle connection stays open");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_waits_for_a_stalled_request_only_until_its_deadline_and_keeps_what_was_written() {
    let mut server = Server::start_with(|o| o.timeouts = short()).await;
    server.user("ada").await;
    let ada = server.client("ada").await;
    let post = ada.send("written before the stop", None).await;
    // A POST, with a token the server accepts, whose body stops half-way.
    let mut stalled = connect(&server).await;
    let head = format!(
        "POST /api/v1/post HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"content\":",
        ada.token.as_deref().unwrap()
    );
    stalled.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let start = Instant::now();
    tokio::time::timeout(Duration::from_secs(5), server.restart()).await.expect("the server stopped within 5 s");
    assert!(start.elapsed() < Duration::from_secs(4), "stopped after {:?}", start.elapsed());
    let ada = server.client("ada").await;
    let (status, got) = ada.get(&format!("/post/{post}")).await;
    assert_eq!((status, got["content"].as_str()), (200, Some("written before the stop")));
}
