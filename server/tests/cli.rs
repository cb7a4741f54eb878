//! The perch-server binary as people and scripts run it: `user add`,
//! `token` (the token is the last line), `serve --demo`, and a clean stop on
//! SIGTERM that keeps what was written.

use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_perch-server");

fn run(db: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).arg("--db").arg(db).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn wait_for(url: &str) {
    let start = Instant::now();
    while reqwest::get(url).await.is_err() {
        assert!(start.elapsed() < Duration::from_secs(30), "the server did not come up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn user_add_token_serve_and_a_clean_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("nested/folder/perch.db");
    let (ok, out, err) =
        run(&db, &["user", "add", "ada", "--display-name", "Ada L", "--email", "ada@example.org", "--password", "pw"]);
    assert!(ok, "{err}");
    assert!(out.contains("@ada"), "{out}");
    assert!(db.exists(), "the database and its folder are created");
    let (ok, _, err) = run(&db, &["user", "add", "ADA"]);
    assert!(!ok && err.contains("taken"), "usernames are unique whatever the case: {err}");

    let (ok, out, _) = run(&db, &["token", "ada", "--scopes", "user.get,post.get,post.send"]);
    assert!(ok);
    let token = out.lines().last().unwrap().trim().to_owned();
    let (ok, _, err) = run(&db, &["token", "ada", "--scopes", "user.get,nope"]);
    assert!(!ok && err.contains("nope"), "{err}");
    let (ok, _, err) = run(&db, &["token", "nobody"]);
    assert!(!ok && err.contains("nobody"), "{err}");

    let port = free_port();
    let mut server = Command::new(BIN)
        .arg("--db")
        .arg(&db)
        .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}/api/v1");
    wait_for(&format!("{base}/ping")).await;
    let http = reqwest::Client::new();
    let me: Value = http.get(format!("{base}/user")).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    assert_eq!(me["display_name"], "Ada L");
    let sent = http
        .post(format!("{base}/post"))
        .bearer_auth(&token)
        .json(&serde_json::json!({"content": "before the stop"}))
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), 200);
    let post: Value = sent.json().await.unwrap();

    let killed = Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let status = server.wait().unwrap();
    assert!(status.success(), "SIGTERM is a clean stop: {status}");

    // Started again on the same file, the post is there.
    let mut again = Command::new(BIN)
        .arg("--db")
        .arg(&db)
        .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for(&format!("{base}/ping")).await;
    let got: Value = http
        .get(format!("{base}/post/{}", post["uuid"].as_str().unwrap()))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(got["content"], "before the stop");
    again.kill().unwrap();
    let _ = again.wait();
}

#[tokio::test]
async fn serve_demo_fills_an_empty_database_once_and_prints_the_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let port = free_port();
    let server = Command::new(BIN)
        .arg("--db")
        .arg(&db)
        .args(["serve", "--demo", "--addr", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for(&format!("http://127.0.0.1:{port}/api/v1/ping")).await;
    Command::new("kill").args(["-INT", &server.id().to_string()]).status().unwrap();
    let out = server.wait_with_output().unwrap();
    assert!(out.status.success(), "SIGINT is a clean stop too");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("mira") && stdout.contains(perch_server::demo::DEMO_PASSWORD), "{stdout}");
    assert!(stdout.contains(&format!("http://127.0.0.1:{port}")), "{stdout}");
}
