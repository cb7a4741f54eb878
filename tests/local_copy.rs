//! The local copy (`store/copy/`) in real Chromium: what a store writes
//! is what the next visit's store reads back, within its bound and in whole
//! pages, and a copy of another version, another account or beyond the
//! bound is never read. And the store's own bound (`store/bound.rs`): what
//! it keeps when it lets go, and when it does.

use leptos::prelude::*;
use perch::account::session::Session;
use perch::store::copy::{self, Kept, VERSION};
use perch::store::{ListKey, Store};
use perch_model::{Parent, Post, Timestamp, User, PAGE_SIZE};
use wasm_bindgen_test::*;

// Only `english` and `container`.
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

/// A store that opened 22 threads, oldest first (each a post with one
/// reply, under which the newest thread has a reply of its own), holds a
/// timeline's post that answers another, and read one post nothing shows.
fn store_with_places() -> Store {
    let store = store();
    let mut posts = Vec::new();
    let mut lists = Vec::new();
    for i in 0..22 {
        posts.push(post(&format!("t{i}"), "u1", 100 + i));
        posts.push(Post { parent: Parent::Uuid(format!("t{i}")), ..post(&format!("t{i}r"), "u2", 200 + i) });
        lists.push((ListKey::Replies(format!("t{i}")), Kept { items: vec![format!("t{i}r")], pages: 1, done: true }));
    }
    // The copy lists the most recently opened first.
    lists.reverse();
    store.seed(&Copy {
        version: VERSION,
        account: "me".into(),
        saved: 1.0,
        users: vec![user("me"), user("u1"), user("u2")],
        lists,
        posts,
        following: None,
        home: None,
    });
    store.post_sent(Post { parent: Parent::Uuid("t21r".into()), ..post("t21rr", "me", 300) });
    store.put_post(post("answered", "u1", 1));
    store.put_post(Post { parent: Parent::Uuid("answered".into()), ..post("held", "u2", 2) });
    store.put_post(post("stray", "u1", 3));
    store.hold_for(|keep| keep("held"));
    store
}

#[wasm_bindgen_test]
fn past_its_bound_the_store_keeps_the_places_read_and_lets_go_of_the_rest() {
    let store = store_with_places();
    let before = store.posts_held();
    let gone = store.let_go();
    let has = |uuid: &str| store.post_untracked(uuid).is_some();
    assert!(has("held") && has("answered"), "a timeline's post stays, with what it answers");
    for i in 2..22 {
        assert!(has(&format!("t{i}")) && has(&format!("t{i}r")), "thread {i} is one of the last {}", copy::LISTS_KEPT);
        assert_eq!(store.list(&ListKey::Replies(format!("t{i}"))).get_untracked().items, vec![format!("t{i}r")]);
    }
    assert!(has("t21rr"), "a reply under a kept thread's reply stays");
    assert_eq!(store.list(&ListKey::Replies("t21r".into())).get_untracked().items, vec!["t21rr".to_owned()]);
    for i in 0..2 {
        assert!(!has(&format!("t{i}")) && !has(&format!("t{i}r")), "thread {i} was opened before the last 20");
        let list = store.list(&ListKey::Replies(format!("t{i}"))).get_untracked();
        assert_eq!((list.pages_loaded, list.items.len()), (0, 0), "its page reads it again, as on a first visit");
    }
    assert!(!has("stray"), "a post nothing shows goes");
    assert_eq!(gone, 5);
    assert_eq!(store.posts_held(), before - 5);
    assert!(store.knows_user("u1"), "people stay");
}

#[wasm_bindgen_test]
async fn the_store_lets_go_past_its_bound_and_again_only_a_quarter_later() {
    // Mounting starts Leptos' task executor, as the app's start does: a
    // pass is a task of its own.
    leptos::mount::mount_to(common::container(), || ()).forget();
    let store = store();
    store.set_bound(40);
    let put = |from: usize, to: usize| {
        for i in from..to {
            store.put_post(post(&format!("s{i}"), "u1", i as i64));
        }
    };
    put(0, 40);
    leptos::task::tick().await;
    assert_eq!(store.posts_held(), 40, "up to the bound, everything is held");
    put(40, 41);
    leptos::task::tick().await;
    assert_eq!(store.posts_held(), 0, "past it, what nothing shows goes, once the work at hand is done");
    put(41, 91);
    leptos::task::tick().await;
    assert_eq!(store.posts_held(), 50, "the next pass waits until the store holds more than the bound and a quarter");
    put(91, 92);
    leptos::task::tick().await;
    assert_eq!(store.posts_held(), 0);
}
