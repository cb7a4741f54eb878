//! `serve --request-log FILE`: each accepted API call, a line of the
//! caller's uuid, the method and the path, as the web app's browser tests
//! read it; a call whose token is refused, or without one, is not written.

mod common;

use common::Server;

#[tokio::test]
async fn each_accepted_call_is_written_as_its_caller() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("requests.log");
    let path = log.clone();
    let server = Server::start_with(move |o| o.request_log = Some(path)).await;
    let ana = server.user("ana").await;
    let ben = server.user("ben").await;
    let (as_ana, as_ben) = (server.client("ana").await, server.client("ben").await);
    assert_eq!(as_ana.call("GET", &format!("/user/{ben}/posts/1"), None).await.0, 200);
    assert_eq!(as_ben.call("GET", &format!("/user/{ben}/followers"), None).await.0, 200);
    assert_eq!(as_ben.call("POST", "/post", Some(serde_json::json!({ "content": "hello" }))).await.0, 200);
    // Not accepted: no token, an unknown one.
    assert_eq!(server.anonymous().call("GET", "/user", None).await.0, 401);
    let stranger = common::Api::new(&server.base, Some("not-a-token".into()));
    assert_eq!(stranger.call("GET", "/user", None).await.0, 401);
    server.stop().await;
    let written = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        written.lines().collect::<Vec<_>>(),
        vec![
            format!("{ana} GET /api/v1/user/{ben}/posts/1"),
            format!("{ben} GET /api/v1/user/{ben}/followers"),
            format!("{ben} POST /api/v1/post"),
        ]
    );
}
