//! The outbox's rules, natively: kept forms, text changes and their keys,
//! backoff, what a reply waits for.

use super::changes::rewrite;
use super::sending::backoff_ms;
use super::*;

fn post(id: &str, parent: Option<&str>) -> Waiting {
    let action = Action::Post {
        id: id.into(),
        content: format!("text of {id}"),
        locked: false,
        parent: parent.map(Into::into),
        part: None,
    };
    Waiting { key: format!("k-{id}"), action, made: 1, tried: None, tries: 0, after: 0, refused: None }
}

#[test]
fn a_changed_text_is_another_request_with_another_key_and_the_same_text_keeps_it() {
    let mut refused = post("a", None);
    refused.refused = Some(Refusal { status: 422, message: "too long".into() });
    refused.tries = 3;
    refused.tried = Some(5);
    let mut same = refused.clone();
    rewrite(&mut same, "text of a".into(), false, || "fresh".into());
    assert_eq!(same.key, "k-a", "the same request keeps its key: a lost answer is still found");
    assert_eq!((same.refused.clone(), same.tries, same.tried), (None, 0, Some(5)));
    let mut changed = refused.clone();
    rewrite(&mut changed, "shorter".into(), false, || "fresh".into());
    assert_eq!(changed.key, "fresh", "another body under the first key is refused (422) for a day");
    assert_eq!((changed.refused.clone(), changed.tried), (None, None));
    let mut locked = refused;
    rewrite(&mut locked, "text of a".into(), true, || "fresh".into());
    assert_eq!(locked.key, "fresh", "the Locked switch is part of the request");
}

#[test]
fn every_action_is_read_back_as_it_was_kept() {
    let mut edit = post("e", None);
    edit.action =
        Action::Edit { uuid: "p".into(), content: "new".into(), locked: true, before: "old".into(), was_locked: false };
    edit.tried = Some(7);
    edit.refused = Some(Refusal { status: 422, message: "too long".into() });
    let list = vec![
        post(&format!("{LOCAL}1"), Some("p0")),
        edit,
        Waiting { action: Action::Delete { uuid: "d".into() }, ..post("d", None) },
        Waiting { action: Action::Like { uuid: "l".into(), want: true, was: false }, ..post("l", None) },
        Waiting {
            action: Action::Follow { uuid: "u".into(), want: false, was: true, who: "olga".into() },
            ..post("f", None)
        },
    ];
    let text = serde_json::to_string(&(VERSION, "me", &list)).unwrap();
    assert_eq!(parse("me", "me", &text), Some(list));
}

#[test]
fn an_outbox_of_another_account_or_version_or_unreadable_is_not_read() {
    let text = serde_json::to_string(&(VERSION, "me", vec![post("a", None)])).unwrap();
    assert_eq!(parse("you", "me", &text), None, "kept for another account");
    assert_eq!(parse("you", "you", &text), None, "named for one account, kept for another");
    let old = serde_json::to_string(&(VERSION + 1, "me", vec![post("a", None)])).unwrap();
    assert_eq!(parse("me", "me", &old), None);
    assert_eq!(
        parse("me", "me", "[1,\"me\",[[\"k\",[9,\"u\",\"\",false,false,null,\"\"],1,null,0,0,null]]]"),
        None,
        "an unknown action"
    );
    assert_eq!(parse("me", "me", "{"), None);
}

#[test]
fn tries_wait_longer_each_time_up_to_two_minutes() {
    assert_eq!(backoff_ms(1), 2_000);
    assert_eq!(backoff_ms(2), 4_000);
    assert_eq!(backoff_ms(5), 32_000);
    assert_eq!(backoff_ms(TRIES), 120_000);
    assert_eq!(backoff_ms(u32::MAX), 120_000);
}

#[test]
fn a_reply_waits_for_its_waiting_post_and_a_held_post_is_told_apart_from_a_backoff() {
    let a = format!("{LOCAL}a");
    assert_eq!(post("r", Some(&a)).waits_for(), Some(a.as_str()));
    assert_eq!(post("r", Some("real")).waits_for(), None);
    let held = Waiting { after: 10, ..post("h", None) };
    assert!(held.held());
    assert!(!Waiting { tries: 1, ..held.clone() }.held());
}
