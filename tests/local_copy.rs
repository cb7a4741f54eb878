//! The local copy (`store/copy/`) in real Chromium: what a store writes
//! is what the next visit's store reads back, within its bound and in whole
//! pages, and a copy of another version, another account or beyond the
//! bound is never read.

use leptos::prelude::*;
use perch::account::session::Session;
use perch::store::copy::{self, Kept, VERSION};
use perch::store::{ListKey, Store};
use perch_model::{Parent, Post, Timestamp, User, PAGE_SIZE};
use wasm_bindgen_test::*;

// Only `english`: nothing is mounted here.
#[allow(dead_code)]
mod common;

wasm_bindgen_test_configure!(run_in_browser);

/// The copy as the app keeps it, with Home's merge.
type Copy = copy::Copy<Merge>;
use perch::timeline::merge::Merge;

fn store() -> Store {
    common::english();
    let config = common::config("/api/v1");
    let session = Session::restore();
    Store::new(session, perch::api::Api::new(&config, session))
}

fn user(uuid: &str) -> User {
    User { uuid: uuid.into(), username: uuid.into(), ..User::default() }
}

fn post(uuid: &str, author: &str, at: i64) -> Post {
    Post {
        uuid: uuid.into(),
        content: format!("post {uuid}"),
        author: user(author),
        created_at: Some(Timestamp(at)),
        ..Post::default()
    }
}

/// A copy of `me` with two lists: 3 pages of u1's posts (read to the end)
/// and a thread with 2 pages of replies.
fn written() -> Copy {
    let mut posts: Vec<Post> = (0..40).map(|i| post(&format!("a{i}"), "u1", 1000 - i)).collect();
    // The thread's post answers another, which answers a third.
    posts.push(Post { parent: Parent::Uuid("above".into()), ..post("root", "u2", 10) });
    posts.push(Post { parent: Parent::Uuid("top".into()), ..post("above", "u1", 5) });
    posts.push(post("top", "u2", 1));
    let mut replies: Vec<Post> = (0..2 * PAGE_SIZE).map(|i| post(&format!("r{i}"), "u2", 20 + i as i64)).collect();
    for reply in &mut replies {
        reply.parent = Parent::Uuid("root".into());
    }
    let reply_ids = replies.iter().map(|p| p.uuid.clone()).collect();
    posts.extend(replies);
    Copy {
        version: VERSION,
        account: "me".into(),
        saved: 1.0,
        users: vec![user("me"), user("u1"), user("u2")],
        lists: vec![
            (
                ListKey::Posts("u1".into()),
                Kept { items: (0..40).map(|i| format!("a{i}")).collect(), pages: 3, done: true },
            ),
            (ListKey::Replies("root".into()), Kept { items: reply_ids, pages: 2, done: false }),
        ],
        posts,
        following: Some(vec!["u1".into()]),
        home: None,
    }
}

#[wasm_bindgen_test]
fn what_one_visit_writes_the_next_reads_back() {
    let first = store();
    first.seed(&written());
    let text = serde_json::to_string(&first.copy_of::<Merge>("me", None, copy::POSTS_KEPT)).unwrap();
    let copy = copy::parse::<Merge>("me", "me", &text, copy::POSTS_KEPT).expect("read back");
    let next = store();
    next.seed(&copy);
    for key in [ListKey::Posts("u1".into()), ListKey::Replies("root".into())] {
        assert_eq!(next.list(&key).get_untracked().items, first.list(&key).get_untracked().items, "{key:?}");
    }
    assert_eq!(next.post_untracked("a7").map(|p| p.content), Some("post a7".into()));
    for kept in ["root", "above", "top"] {
        assert_eq!(next.post_untracked(kept).map(|p| p.uuid), Some(kept.into()), "a thread keeps the posts above it");
    }
    assert!(next.knows_user("u2") && next.knows_user("me"));
    assert_eq!(next.copy_saved(), Some(copy.saved));
}

#[wasm_bindgen_test]
fn a_copy_holds_no_more_than_its_bound_and_cuts_lists_at_whole_pages() {
    let store = store();
    store.seed(&written());
    let max = 2 * PAGE_SIZE + 5;
    let copy = store.copy_of::<Merge>("me", None, max);
    assert!(copy.posts.len() <= max, "{} posts kept, bound {max}", copy.posts.len());
    // The most recently opened list first: u1's posts, cut to two pages,
    // so Load more goes on where the copy ends.
    let (key, kept) = &copy.lists[0];
    assert_eq!(key, &ListKey::Posts("u1".into()));
    assert_eq!((kept.items.len(), kept.pages, kept.done), (2 * PAGE_SIZE, 2, false));
    assert!(copy.lists.len() == 1, "no room for a page of the thread");
    assert!(copy::parse::<Merge>("me", "me", &serde_json::to_string(&copy).unwrap(), max).is_some());
}

#[wasm_bindgen_test]
fn a_copy_of_another_version_account_or_size_is_never_read() {
    let good = written();
    let text = |copy: &Copy| serde_json::to_string(copy).unwrap();
    assert!(copy::parse::<Merge>("me", "me", &text(&good), 1000).is_some());
    assert!(copy::parse::<Merge>("other", "me", &text(&good), 1000).is_none(), "kept for another account");
    assert!(copy::parse::<Merge>("other", "other", &text(&good), 1000).is_none(), "says it is another account's");
    assert!(copy::parse::<Merge>("me", "me", &text(&Copy { version: VERSION + 1, ..good.clone() }), 1000).is_none());
    assert!(copy::parse::<Merge>("me", "me", &text(&good), 10).is_none(), "beyond the bound");
    assert!(copy::parse::<Merge>("me", "me", r#"{"version":1,"posts":[{"uuid":"#, 1000).is_none());
    assert!(copy::parse::<Merge>("me", "me", "null", 1000).is_none());
    let unknown_list = text(&good).replace("\"p:u1\"", "\"x:u1\"");
    assert!(text(&good).contains("\"p:u1\"") && copy::parse::<Merge>("me", "me", &unknown_list, 1000).is_none());
}
