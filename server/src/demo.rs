//! Demo data for `serve --demo`: eight people who follow each other, about
//! two hundred posts over six weeks with reply threads several levels deep,
//! likes, a locked post and a post of exactly 500 characters of mixed scripts
//! and emoji. Generated from a fixed seed, so every demo looks the same.

use crate::accounts::{add_user, ensure_application, NewUser};
use crate::db::{now_ms, Db};
use crate::WEB_APP_NAME;

/// The password of every demo account.
pub const DEMO_PASSWORD: &str = "perch-demo";

/// (username, display name, bio, badges)
pub const PEOPLE: [(&str, &str, &str, &[&str]); 8] = [
    ("mira", "Mira Okafor", "Birds, bikes and bread. The demo account: sign in as me.", &["staff"]),
    ("tomas", "Tomás Herrera", "Cartographer. Maps of places that are not there yet.", &["verified"]),
    ("yuki", "田中 由紀 (Yuki)", "Typesetter. 活字が好きです。", &[]),
    ("leila", "ليلى حداد (Leila)", "Translator between three languages and two cats.", &["verified"]),
    ("sam", "Sam Reed", "Runs the community garden. Ask me about compost.", &[]),
    ("ines", "Inês Carvalho", "Marine biologist. Mostly posting about octopuses.", &["verified", "staff"]),
    ("arjun", "Arjun Mehta", "Rust, radios, and the occasional recipe.", &[]),
    ("olga", "Ольга Петрова (Olga)", "Chess coach. Blunders are lessons.", &[]),
];

pub(crate) const OPENERS: [&str; 16] = [
    "Morning walk: the heron was back on the old pier.",
    "Finished the first draft today. It is terrible, and that is fine.",
    "Is anyone else keeping a notebook of small good things? Today: warm bread.",
    "New map sketch of the river delta is up: https://example.org/maps/delta",
    "Spent an hour on one kerning pair. Worth it.",
    "The garden needs volunteers on Saturday, bring gloves.",
    "Octopus fact: three hearts, blue blood, and opinions.",
    "Rewrote the parser without allocations and it got slower. Measuring again.",
    "Played the Caro-Kann all afternoon. Still not sure I understand it.",
    "Translation question: how do you carry a pun across two alphabets?",
    "Rain all day. Good for the tomatoes, bad for the bike ride.",
    "Reading list for the week: https://example.org/reading and two novels.",
    "Tried a new sourdough schedule: 18 hours cold proof. Crumb report soon.",
    "The radio club heard a station 3,000 km away last night.",
    "Reminder that small steps count. Even the tiny ones.",
    "Fixed the bug. It was a missing minus sign, as always.",
];

pub(crate) const REPLIES: [&str; 14] = [
    "Love this.",
    "Same here, honestly.",
    "Do you have a photo?",
    "Tell me more, I am curious how that went.",
    "Ha! That happens to me every week.",
    "Counterpoint: maybe it is a feature.",
    "Thank you for sharing this.",
    "I tried that once and it did not go well at all.",
    "Saving this for later.",
    "Which one would you recommend for a beginner?",
    "Agreed, and the details matter more than people think.",
    "This made my day.",
    "I think the answer is patience, and more coffee.",
    "Can confirm, from experience.",
];

/// A 500-character post of mixed scripts and emoji (counted as the limit counts).
pub fn five_hundred_chars() -> String {
    let pieces = [
        "Hello, world! ",
        "Привет, мир! ",
        "こんにちは世界。",
        "مرحبا بالعالم ",
        "שלום עולם ",
        "नमस्ते दुनिया ",
        "你好，世界！",
        "🐦🌍✨ ",
        "Olá, mundo! ",
        "안녕하세요 세계 ",
        "Γειά σου κόσμε ",
        "👩‍💻🚲🍞 ",
    ];
    let text: String = pieces.iter().cycle().flat_map(|p| p.chars()).take(500).collect();
    debug_assert_eq!(text.chars().count(), 500);
    text
}

/// A small deterministic random source (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

struct DemoPost {
    id: i64,
    uuid: String,
    created_ms: i64,
    depth: usize,
}

/// Fills the database with the demo when it has no users yet. Returns
/// whether it did, and prints the sign-in names and password.
pub async fn fill_if_empty(db: &Db) -> anyhow::Result<bool> {
    let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(db).await?;
    if users > 0 {
        print_accounts();
        return Ok(false);
    }
    let now = now_ms();
    let day = 24 * 3600 * 1000;
    let start = now - 42 * day;
    let (app_id, _) = ensure_application(db, WEB_APP_NAME, None).await?;

    let mut ids = Vec::new();
    for (i, (username, display, bio, badges)) in PEOPLE.iter().enumerate() {
        let (id, _) = add_user(
            db,
            NewUser {
                username: username.to_string(),
                display_name: Some(display.to_string()),
                email: Some(format!("{username}@perch.example")),
                password: Some(DEMO_PASSWORD.into()),
                bio: bio.to_string(),
                badges: badges.iter().map(|b| b.to_string()).collect(),
                avatar: None,
                joined_ms: Some(start - (60 - i as i64 * 5) * day),
            },
        )
        .await?;
        ids.push(id);
    }
    sqlx::query("UPDATE users SET email_verified = 1 WHERE username IN ('mira', 'ines', 'tomas')").execute(db).await?;

    let mut rng = Rng(0x005e_ed0f_9e4c);
    let mut tx = crate::db::write(db).await?;

    // Follows: mira (the demo account) follows six of the others; the rest follow a few each.
    let mut seq = 0i64;
    let mut follow = |a: usize, b: usize, at: i64| {
        seq += 1;
        (ids[a], ids[b], at, seq)
    };
    let mut follows = Vec::new();
    for b in 1..7 {
        follows.push(follow(0, b, start + b as i64 * 3_600_000));
    }
    for a in 1..PEOPLE.len() {
        for b in 0..PEOPLE.len() {
            if a != b && (b == 0 || rng.chance(45)) {
                follows.push(follow(a, b, start + rng.below(40) as i64 * day));
            }
        }
    }
    for (a, b, at, s) in follows {
        sqlx::query("INSERT INTO follows (follower_id, followee_id, created_ms, seq) VALUES (?, ?, ?, ?)")
            .bind(a)
            .bind(b)
            .bind(at)
            .bind(s)
            .execute(&mut *tx)
            .await?;
    }

    // Posts: 120 top-level posts spread over six weeks, then 84 replies,
    // half of them continuing an existing reply so threads grow deep.
    let mut posts: Vec<DemoPost> = Vec::new();
    let insert = |author: usize, parent: Option<&DemoPost>, content: String, locked: bool, created_ms: i64| {
        let uuid = uuid::Uuid::new_v4().to_string();
        let depth = parent.map_or(0, |p| p.depth + 1);
        let parent_uuid = parent.map(|p| p.uuid.clone());
        (uuid, depth, parent_uuid, ids[author], content, locked, created_ms)
    };
    let mut rows = Vec::new();
    for i in 0..120 {
        let author = rng.below(PEOPLE.len());
        let mut content = OPENERS[rng.below(OPENERS.len())].to_string();
        if rng.chance(20) {
            let other = PEOPLE[rng.below(PEOPLE.len())].0;
            content = format!("{content} What do you think, @{other}?");
        }
        let created = start + (i as i64 * 42 * day) / 120 + rng.below(3_600_000) as i64;
        rows.push(insert(author, None, content, false, created));
    }
    // The locked post and the 500-character post, recent enough to be seen.
    rows.push(insert(
        0,
        None,
        "Announcement: the garden opens at nine on Saturday. Replies are off for this one.".into(),
        true,
        now - 2 * day,
    ));
    rows.push(insert(2, None, five_hundred_chars(), false, now - day - 3_600_000));
    let mut locked_uuid = String::new();
    for (uuid, depth, parent_uuid, author, content, locked, created) in rows {
        let id = store_post(&mut tx, &uuid, author, parent_uuid.as_deref(), app_id, &content, locked, created).await?;
        if locked {
            locked_uuid = uuid.clone();
        }
        posts.push(DemoPost { id, uuid, created_ms: created, depth });
    }

    // One long thread on mira's newest ordinary post, six levels deep.
    let root = posts.iter().rposition(|p| p.depth == 0 && p.created_ms < now - 3 * day).unwrap_or(0);
    let mut parent_index = root;
    for level in 0..6 {
        let author = [1, 0, 3, 0, 5, 0][level];
        let created = posts[parent_index].created_ms + 1_800_000;
        let content = format!("{} (level {} of the long thread)", REPLIES[level % REPLIES.len()], level + 1);
        let row = insert(author, Some(&posts[parent_index]), content, false, created);
        let id = store_post(&mut tx, &row.0, row.3, row.2.as_deref(), app_id, &row.4, false, created).await?;
        posts.push(DemoPost { id, uuid: row.0, created_ms: created, depth: row.1 });
        parent_index = posts.len() - 1;
    }
    // A post with more than a page (15) of replies, to page through.
    let popular = posts.iter().position(|p| p.depth == 0 && p.created_ms > now - 10 * day).unwrap_or(0);
    for i in 0..18 {
        let created = posts[popular].created_ms + (i + 1) * 600_000;
        let row = insert(
            1 + (i as usize % 7),
            Some(&posts[popular]),
            REPLIES[i as usize % REPLIES.len()].into(),
            false,
            created,
        );
        let id = store_post(&mut tx, &row.0, row.3, row.2.as_deref(), app_id, &row.4, false, created).await?;
        posts.push(DemoPost { id, uuid: row.0, created_ms: created, depth: row.1 });
    }
    // Scattered replies, half of them continuing an earlier reply; the
    // locked post takes none.
    for _ in 0..60 {
        let open: Vec<usize> = (0..posts.len()).filter(|&i| posts[i].uuid != locked_uuid).collect();
        let deeper: Vec<usize> = open.iter().copied().filter(|&i| posts[i].depth > 0).collect();
        let pick = if rng.chance(50) && !deeper.is_empty() {
            deeper[rng.below(deeper.len())]
        } else {
            open[rng.below(open.len())]
        };
        let created = (posts[pick].created_ms + 600_000 + rng.below(2 * day as usize) as i64).min(now - 60_000);
        let row = insert(
            rng.below(PEOPLE.len()),
            Some(&posts[pick]),
            REPLIES[rng.below(REPLIES.len())].into(),
            false,
            created,
        );
        let id = store_post(&mut tx, &row.0, row.3, row.2.as_deref(), app_id, &row.4, false, created).await?;
        posts.push(DemoPost { id, uuid: row.0, created_ms: created, depth: row.1 });
    }

    // Likes: each person likes about a third of the posts.
    for &user in &ids {
        for post in &posts {
            if rng.chance(33) {
                sqlx::query("INSERT OR IGNORE INTO likes (user_id, post_id, created_ms) VALUES (?, ?, ?)")
                    .bind(user)
                    .bind(post.id)
                    .bind(post.created_ms + 60_000)
                    .execute(&mut *tx)
                    .await?;
            }
        }
    }

    // The counts follow from the rows.
    sqlx::query(
        "UPDATE posts SET reply_count = (SELECT COUNT(*) FROM posts r WHERE r.parent_uuid = posts.uuid), \
                          like_count = (SELECT COUNT(*) FROM likes l WHERE l.post_id = posts.id)",
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE users SET follower_count = (SELECT COUNT(*) FROM follows f WHERE f.followee_id = users.id), \
                          following_count = (SELECT COUNT(*) FROM follows f WHERE f.follower_id = users.id)",
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    println!("Demo data: {} people, {} posts.", PEOPLE.len(), posts.len());
    print_accounts();
    Ok(true)
}

#[allow(clippy::too_many_arguments)]
async fn store_post(
    tx: &mut sqlx::SqliteConnection,
    uuid: &str,
    author: i64,
    parent: Option<&str>,
    app: i64,
    content: &str,
    locked: bool,
    created_ms: i64,
) -> sqlx::Result<i64> {
    Ok(sqlx::query(
        "INSERT INTO posts (uuid, author_id, parent_uuid, application_id, content, locked, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(uuid)
    .bind(author)
    .bind(parent)
    .bind(app)
    .bind(content)
    .bind(locked)
    .bind(created_ms)
    .execute(tx)
    .await?
    .last_insert_rowid())
}

fn print_accounts() {
    let names: Vec<&str> = PEOPLE.iter().map(|p| p.0).collect();
    println!(
        "Demo accounts: {} (password for each: {DEMO_PASSWORD}); sign in as mira to see a full timeline.",
        names.join(", ")
    );
}
