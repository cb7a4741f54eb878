//! The OpenAPI document lists every operation of the interface, and every
//! operation it lists is really routed by the server.

mod common;

use common::Server;
use serde_json::{json, Value};

#[tokio::test]
async fn the_document_matches_the_router() {
    let server = Server::start().await;
    server.user("ada").await;
    let api = server.client("ada").await;
    let post = api.send("documented", None).await;
    let (status, doc) = server.anonymous().get("/openapi.json").await;
    assert_eq!(status, 200, "readable without a token");
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert!(doc["components"]["schemas"]["Post"].is_object());
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());

    let paths = doc["paths"].as_object().unwrap();
    let mut operations: Vec<(String, String)> = Vec::new();
    for (path, item) in paths {
        for method in ["get", "post", "patch", "delete"] {
            if item.get(method).is_some() {
                operations.push((method.to_uppercase(), path.clone()));
            }
        }
    }
    let seed = [
        ("GET", "/api/v1/post/{uuid}"),
        ("GET", "/api/v1/post/{uuid}/replies/{page}"),
        ("POST", "/api/v1/post"),
        ("PATCH", "/api/v1/post/{uuid}"),
        ("DELETE", "/api/v1/post/{uuid}"),
        ("POST", "/api/v1/post/{uuid}/like"),
        ("GET", "/api/v1/user/{id}"),
        ("GET", "/api/v1/user/{id}/posts/{page}"),
        ("POST", "/api/v1/user/{id}/follow"),
        ("GET", "/api/v1/user/{id}/following"),
        ("GET", "/api/v1/user/{id}/followers"),
        ("GET", "/api/v1/user"),
        ("GET", "/api/v1/ping"),
        ("POST", "/api/oauth/code"),
        ("POST", "/api/oauth/refreshtoken"),
    ];
    for (method, path) in seed {
        assert!(operations.contains(&(method.to_owned(), path.to_owned())), "{method} {path} is documented");
    }

    // Each documented /api/v1 operation answers as a routed endpoint would.
    for (method, path) in &operations {
        let Some(rest) = path.strip_prefix("/api/v1") else { continue };
        let concrete = rest.replace("{uuid}", &post).replace("{id}", "@ada").replace("{page}", "1");
        let body = matches!(method.as_str(), "POST" | "PATCH").then(|| json!({"content": "x"}));
        let (status, answer): (u16, Value) = if method == "DELETE" {
            (200, Value::Null) // deleting is covered elsewhere; keep the post for the other calls
        } else if rest.ends_with("/follow") {
            let other = server.user("bob").await;
            api.call(method, &format!("/user/{other}/follow"), None).await
        } else {
            api.call(method, &concrete, if rest.ends_with("/like") { None } else { body }).await
        };
        assert!(status != 404 && status != 405, "{method} {path}: {status} {answer}");
    }
}

#[tokio::test]
async fn every_operation_documents_how_it_can_be_refused() {
    let server = Server::start().await;
    let (_, doc) = server.anonymous().get("/openapi.json").await;
    let error_body = json!({"$ref": "#/components/schemas/ErrorBody"});
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object(), "the error body is a named schema");
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if op.get("security").is_none() {
                continue;
            }
            let responses = &op["responses"];
            let mut expected = vec!["200", "401", "403", "429"];
            if path.contains("{uuid}") || path.contains("{id}") {
                expected.push("404");
            }
            if method == "patch" || (method == "post" && path == "/api/v1/post") {
                expected.extend(["400", "413", "422"]);
            }
            for status in expected {
                assert!(responses[status].is_object(), "{method} {path} documents {status}");
                if status != "200" {
                    let body = &responses[status]["content"]["application/json"]["schema"];
                    assert_eq!(body, &error_body, "{method} {path} {status} answers the error body");
                    assert!(responses[status]["description"].as_str().is_some_and(|d| !d.is_empty()));
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 12, "the eleven operations and GET /user");
}
