//! The live demo (`serve --demo --live`): a few demo people act on a timer,
//! so a person trying Perch sees Activity, "Show N new posts" and the
//! unread count work in the first minute. Each act goes through the
//! interface's own handlers (scopes, counts, the write lock), as a token of
//! that person would, and the read cache is told, as the middleware would.
//!
//! Bounded: one act every `every` (20 s by default), at most [`MAX_ACTS`]
//! in all; the task ends with the server ([`crate::Running::stop`] aborts it).

use crate::api::{posts, users};
use crate::demo::{Rng, OPENERS, PEOPLE, REPLIES};
use crate::extractor::{Caller, JsonBody};
use crate::state::AppState;
use axum::extract::{Path, State};
use perch_model::{NewPost, Scope};
use std::time::Duration;

/// The most acts of one run of the server: two hours at the default pace.
pub const MAX_ACTS: usize = 360;
/// The pace when none is given.
pub const DEFAULT_EVERY: Duration = Duration::from_secs(20);

/// What one act did, for the log and the tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// Someone replied to one of mira's newest posts.
    Replied,
    /// Someone liked one of mira's newest posts (or another's).
    Liked,
    /// Someone followed or unfollowed mira.
    Followed,
    /// Someone mira follows posted, for her Home.
    Posted,
}

/// Acts every `every`, at most `max` times, as demo people of `app` (the
/// web app's row). Missing demo people (a database without the demo) end it.
pub async fn run(state: AppState, app: i64, every: Duration, max: usize) {
    let Ok(people) = demo_people(&state).await else { return };
    if people.len() < 2 {
        return;
    }
    let mut rng = Rng(crate::db::now_ms().unsigned_abs() | 1);
    for _ in 0..max {
        tokio::time::sleep(every).await;
        match act(&state, app, &people, &mut rng).await {
            Ok(act) => tracing::info!(?act, "live demo"),
            Err(e) => tracing::warn!(error = %e, "live demo: an act failed"),
        }
    }
}

/// The demo people's row ids, mira first.
async fn demo_people(state: &AppState) -> sqlx::Result<Vec<i64>> {
    let mut ids = Vec::new();
    for (name, ..) in PEOPLE {
        let id: Option<i64> =
            sqlx::query_scalar("SELECT id FROM users WHERE username = ?").bind(name).fetch_optional(&state.db).await?;
        ids.extend(id);
    }
    Ok(ids)
}

fn caller(user_id: i64, app: i64) -> Caller {
    Caller { user_id, application_id: app, scopes: Scope::ALL.to_vec() }
}

/// One act, chosen at random: replies most, then posts and likes, then a
/// follow toggled.
pub async fn act(state: &AppState, app: i64, people: &[i64], rng: &mut Rng) -> anyhow::Result<Act> {
    let mira = people[0];
    let someone = people[1 + rng.below(people.len() - 1)];
    let roll = rng.below(100);
    let done = if roll < 35 {
        let newest = mira_posts(state, mira).await?;
        let Some(parent) = newest.get(rng.below(newest.len().max(1))) else { return Ok(Act::Replied) };
        let body =
            NewPost { content: REPLIES[rng.below(REPLIES.len())].into(), locked: false, parent: Some(parent.clone()) };
        let _ = posts::send(State(state.clone()), caller(someone, app), JsonBody(body)).await.map_err(refused)?;
        Act::Replied
    } else if roll < 60 {
        let newest = mira_posts(state, mira).await?;
        // A like, not an unlike: a post this person has not liked yet.
        for uuid in newest {
            let liked: Option<i64> = sqlx::query_scalar(
                "SELECT 1 FROM likes JOIN posts ON posts.id = likes.post_id WHERE likes.user_id = ? AND posts.uuid = ?",
            )
            .bind(someone)
            .bind(&uuid)
            .fetch_optional(&state.db)
            .await?;
            if liked.is_none() {
                let _ = posts::like(State(state.clone()), caller(someone, app), Path(uuid)).await.map_err(refused)?;
                break;
            }
        }
        Act::Liked
    } else if roll < 75 {
        let target: String =
            sqlx::query_scalar("SELECT uuid FROM users WHERE id = ?").bind(mira).fetch_one(&state.db).await?;
        let _ = users::follow(State(state.clone()), caller(someone, app), Path(target)).await.map_err(refused)?;
        Act::Followed
    } else {
        let body = NewPost { content: OPENERS[rng.below(OPENERS.len())].into(), locked: false, parent: None };
        let _ = posts::send(State(state.clone()), caller(someone, app), JsonBody(body)).await.map_err(refused)?;
        Act::Posted
    };
    // What the read cache's middleware does after a write.
    state.reads.changed();
    Ok(done)
}

/// The uuids of mira's five newest open top-level posts.
async fn mira_posts(state: &AppState, mira: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT uuid FROM posts WHERE author_id = ? AND parent_uuid IS NULL AND locked = 0 ORDER BY created_ms DESC LIMIT 5",
    )
    .bind(mira)
    .fetch_all(&state.db)
    .await
}

/// A handler's refusal, for the log.
fn refused(e: crate::error::Error) -> anyhow::Error {
    anyhow::anyhow!("{e:?}")
}
