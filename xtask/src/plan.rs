//! The chunk planner: after the split, decides which of the splitter's chunks
//! are joined into one file, from their measured brotli sizes and the split
//! modules that load them (docs/split.md, "The chunk planner").
//!
//! The splitter makes a chunk for every set of split modules that share code:
//! over a hundred files for this app, each compressed alone. A joined file
//! is loaded by every module that needed any of its parts, so a join costs
//! the pages that needed only one part that part's bytes, and saves every
//! page that needed both a file (a request, and what a file alone spends
//! on itself: [`Model`]). The planner joins, cheapest first, while a join
//! saves more than it costs, then while a page's first load still has more
//! than [`MAX_FILES`] wasm files; then searches from there ([`STARTS`]
//! times). The build measures the best few plans' files and takes the
//! cheapest measured (`measure.rs`, `main.rs`'s `choose`).
//!
//! It owns the plan and what follows from it: the joined files
//! (`merge::join`), the loader's lists of what each split module waits for
//! (`__wasm_split.js`, as the splitter wrote it but for those lists), and the
//! map of each split module's files that index.html carries.

use std::collections::{BTreeSet, HashMap};

/// What a page loads, in split modules (the main module always): before its
/// paint, its own; after it, Activity's checks, which every signed-in page
/// loads (docs/activity.md). The weight says how much its bytes count: a
/// byte before the paint delays it, and sign-in is a newcomer's first page,
/// Home every reader's. Sign-in and Home weigh as much as the six later
/// pages together and more: a new later page (each weighs 1) must not buy
/// its bytes with theirs (issue 48: a feature may cost them ≤ 1 KB). At 4,
/// the drafts' own module moved 21 KB of shared code into the main module
/// (docs/size.md, "Drafts in a module of their own"). Activity weighs 2 and
/// a thread or a profile 4 since the outbox's sending left the main module
/// (its like and follow code is now a chunk of the pages with cards): at 1
/// and 3, Activity's six files held a 91 KB chunk, +69 KB, to save drafts and
/// search 21 KB each (docs/size.md, "Sending apart"). Each load is held to
/// [`MAX_FILES`].
pub const LOADS: &[(&str, &[&str], u64)] = &[
    ("sign-in", &["page_signin"], 8),
    ("Home", &["app_shell", "page_home"], 8),
    ("Home, then the checks", &["app_shell", "page_home", "background"], 1),
    ("a thread, a profile", &["app_shell", "pages"], 4),
    ("a thread, a profile, then the checks", &["app_shell", "pages", "background"], 1),
    ("Activity", &["app_shell", "page_activity", "background"], 2),
    ("Settings", &["app_shell", "extras", "background"], 1),
    ("Bookmarks", &["app_shell", "page_bookmarks", "background"], 1),
    ("Drafts", &["app_shell", "page_drafts", "background"], 1),
    ("Search", &["app_shell", "page_search", "background"], 1),
    ("Lists", &["app_shell", "page_lists", "background"], 1),
];

/// The main module's name in a plan: a chunk joined into it is loaded by
/// every page, in the main module's file.
pub const MAIN: &str = "main";

/// No page's first load has more wasm files than this, the main module
/// included (issue 48).
pub const MAX_FILES: usize = 6;

/// What the planner reckons a file of chunks weighs, brotli: `file_bytes`
/// for the file, and each chunk's own brotli size less `file_bytes` (what
/// a chunk alone spends on its headers, types and imports, which a file of
/// several spends once), `kept_percent` of it (what one compression of all
/// finds that each alone did not), and never under a quarter of its size
/// (a small chunk is not free: 19 under 360 bytes, which the model counted
/// at nothing, made the main module 1.3 KB larger). A request costs
/// `per_request` more.
#[derive(Clone, Copy, Debug)]
pub struct Model {
    pub file_bytes: u64,
    pub kept_percent: u64,
    pub per_request: u64,
}

/// Fitted to the files of one build, each joined, shrunk by wasm-opt and
/// compressed as served (`perch-xtask plan --measure`; docs/split.md, "The
/// planner's model"): within 2 to 9 % of each, where adding the chunks'
/// sizes was 11 to 50 % over.
pub const MODEL: Model = Model { file_bytes: 360, kept_percent: 92, per_request: 200 };

impl Model {
    /// What a chunk of `bytes` (brotli, alone) adds to a file.
    pub fn in_a_file(&self, bytes: u64) -> u64 {
        (bytes.saturating_sub(self.file_bytes) * self.kept_percent / 100).max(bytes / 4)
    }
}

/// How many times the local search starts again, each from the greedy
/// plan with a seed of its own: one search ends where its seed leads
/// (docs/size.md, "The planner's model against the files it makes").
pub const STARTS: u64 = 8;

/// One chunk as the splitter wrote it.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// Its file's name without `.wasm`: `chunk_<n>`.
    pub stem: String,
    /// The split modules that load it.
    pub users: BTreeSet<String>,
    /// Its size, brotli.
    pub bytes: u64,
}

/// One file of the plan: chunks joined in that order (one chunk is left as
/// it is), named after the first; or the main module ([`MAIN`]) with the
/// chunks joined into it after its own code.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub stems: Vec<String>,
    pub users: BTreeSet<String>,
    pub bytes: u64,
}

/// The chunks, joined into the groups that cost the weighted first loads
/// least in the model's reckoning, with no load over `max_files` (the main
/// module and its split modules counted): the best plan of each of
/// `starts` searches, each once, cheapest first. `split_modules` are the
/// split modules that exist. A group's `bytes` is the model's guess of its
/// file (of what it adds to the main module, for the main module's).
pub fn plans(
    chunks: &[Chunk],
    split_modules: &BTreeSet<String>,
    loads: &[(&str, &[&str], u64)],
    max_files: usize,
    model: &Model,
    starts: u64,
) -> Result<Vec<(u64, Vec<Group>)>, String> {
    // The search weighs chunks as the model does, and a file by what it
    // costs beyond its chunks.
    let weighed: Vec<Chunk> = chunks.iter().map(|c| Chunk { bytes: model.in_a_file(c.bytes), ..c.clone() }).collect();
    let per_file = model.file_bytes + model.per_request;
    let loads = loads_of(loads, split_modules);
    let greedy = greedy(&weighed, &loads, max_files, per_file)?;
    let mut found: Vec<(u64, Vec<Group>)> = Vec::new();
    // PERCH_PLAN_GREEDY=1: the greedy joins alone, to compare.
    let searches = if std::env::var("PERCH_PLAN_GREEDY").as_deref() == Ok("1") { 0 } else { starts };
    let mut candidates = vec![greedy.clone()];
    for start in 0..searches {
        candidates.push(improve(&weighed, greedy.clone(), &loads, max_files, per_file, start));
    }
    for mut groups in candidates {
        for g in &mut groups {
            let from = usize::from(g.stems[0] == MAIN || host_of(g).is_some());
            g.stems[from..].sort_by_key(|s| number(s));
        }
        groups.sort_by_key(order);
        let groups: Vec<Group> = groups
            .into_iter()
            .filter(|g| g.stems.len() > 1 || (g.stems[0] != MAIN && host_of(g).is_none()))
            .map(|g| {
                let own_file = g.stems[0] != MAIN && host_of(&g).is_none();
                Group { bytes: g.bytes + if own_file { model.file_bytes } else { 0 }, ..g }
            })
            .collect();
        let sizes: Vec<u64> = groups.iter().map(|g| g.bytes).collect();
        let cost = weighed_cost(&groups, &sizes, &loads, model.per_request);
        if !found.iter().any(|(_, f)| *f == groups) {
            found.push((cost, groups));
        }
    }
    found.sort_by_key(|(cost, _)| *cost);
    Ok(found)
}

/// The cheapest plan of [`plans`] in the model's reckoning.
pub fn plan(
    chunks: &[Chunk],
    split_modules: &BTreeSet<String>,
    loads: &[(&str, &[&str], u64)],
    max_files: usize,
    model: &Model,
) -> Result<Vec<Group>, String> {
    let mut found = plans(chunks, split_modules, loads, max_files, model, STARTS)?;
    Ok(found.remove(0).1)
}

/// The weighted cost of the first loads with `groups`, each file weighing
/// its `sizes` (the main module's joined chunks: what they add to it) and
/// each request `per_request` more: what the planner lowers.
pub fn weighed_cost(groups: &[Group], sizes: &[u64], loads: &[(BTreeSet<String>, u64)], per_request: u64) -> u64 {
    loads
        .iter()
        .map(|(load, weight)| {
            let mut bytes = 0;
            for (g, group) in groups.iter().enumerate() {
                if group.stems[0] == MAIN {
                    bytes += sizes[g];
                } else if let Some(host) = host_of(group) {
                    if load.contains(host) {
                        bytes += sizes[g];
                    }
                } else if !group.users.is_disjoint(load) {
                    bytes += sizes[g] + per_request;
                }
            }
            weight * bytes
        })
        .sum()
}

/// The split module of the whole app's start (`routes::app_shell`): every
/// page but a signed-out sign-in loads it before any other split module,
/// and a module loaded on demand (`composing`, `sending`) comes after it.
pub const APP_SHELL: &str = "app_shell";

/// The prefix of a split module's file: `split_<module>.wasm`.
pub const SPLIT_FILE: &str = "split_";

/// The chunks that go into a split module's own file before any planning:
/// a chunk joins the file of a split module `H` when the loads that need the
/// chunk are exactly the loads that have `H` (and there are some), and every
/// user is in some load (or `H` is [`APP_SHELL`]). No load then fetches a
/// byte more, and each fetches one file fewer. `H` is the first such user by
/// name, else the first such other module. Answers a group per host,
/// `split_<H>` first, then its chunks in the splitter's order.
pub fn hosted(chunks: &[Chunk], loads: &[(BTreeSet<String>, u64)]) -> Vec<Group> {
    let having = |m: &String| -> Vec<usize> {
        loads.iter().enumerate().filter(|(_, (l, _))| l.contains(m)).map(|(i, _)| i).collect()
    };
    let mut hosts: Vec<Group> = Vec::new();
    for chunk in chunks {
        let needing: Vec<usize> =
            loads.iter().enumerate().filter(|(_, (l, _))| !l.is_disjoint(&chunk.users)).map(|(i, _)| i).collect();
        if needing.is_empty() {
            continue;
        }
        // A user no load names (a feature loaded on demand, as the
        // composer's) would fetch the host's whole file when it comes,
        // unless the host is [`APP_SHELL`], which is there before it.
        let on_demand = chunk.users.iter().any(|u| having(u).is_empty());
        // Its users first; else a module every load that needs it has (the
        // app's shell, for the code every page shares but the shell itself).
        let others: BTreeSet<&String> =
            loads.iter().flat_map(|(l, _)| l.iter()).filter(|m| !chunk.users.contains(*m)).collect();
        let Some(host) =
            chunk.users.iter().chain(others).find(|h| having(h) == needing && (!on_demand || *h == APP_SHELL))
        else {
            continue;
        };
        let head = format!("{SPLIT_FILE}{host}");
        match hosts.iter_mut().find(|g| g.stems[0] == head) {
            Some(group) => {
                group.stems.push(chunk.stem.clone());
                group.users.extend(chunk.users.iter().cloned());
                group.bytes += chunk.bytes;
            }
            None => hosts.push(Group {
                stems: vec![head, chunk.stem.clone()],
                users: chunk.users.clone(),
                bytes: chunk.bytes,
            }),
        }
    }
    for group in &mut hosts {
        group.stems[1..].sort_by_key(|s| number(s));
    }
    hosts.sort_by(|a, b| a.stems[0].cmp(&b.stems[0]));
    hosts
}

/// The split module whose own file `group` is (`split_<module>`), if it is one.
pub fn host_of(group: &Group) -> Option<&str> {
    group.stems[0].strip_prefix(SPLIT_FILE)
}

/// The loads of [`LOADS`] as sets of the split modules that exist.
pub fn loads_of(loads: &[(&str, &[&str], u64)], split_modules: &BTreeSet<String>) -> Vec<(BTreeSet<String>, u64)> {
    loads
        .iter()
        .map(|(_, modules, weight)| {
            (modules.iter().map(|m| m.to_string()).filter(|m| split_modules.contains(m)).collect(), *weight)
        })
        .collect()
}

/// The cheapest join first, while one saves more than it costs or a load
/// has more than `max_files` files.
fn greedy(
    chunks: &[Chunk],
    loads: &[(BTreeSet<String>, u64)],
    max_files: usize,
    per_file: u64,
) -> Result<Vec<Group>, String> {
    let mut groups: Vec<Group> =
        chunks.iter().map(|c| Group { stems: vec![c.stem.clone()], users: c.users.clone(), bytes: c.bytes }).collect();
    groups.sort_by_key(|g| number(&g.stems[0]));
    // The main module, first: loaded by every page, so a chunk joined into
    // it costs the pages that did not need it its bytes.
    groups.insert(0, Group { stems: vec![MAIN.into()], users: BTreeSet::new(), bytes: 0 });
    let loaded_by = |g: &Group, load: &BTreeSet<String>| g.stems[0] == MAIN || !g.users.is_disjoint(load);
    let files =
        |groups: &[Group], load: &BTreeSet<String>| load.len() + groups.iter().filter(|g| loaded_by(g, load)).count();
    loop {
        let over: Vec<&BTreeSet<String>> =
            loads.iter().map(|(l, _)| l).filter(|l| files(&groups, l) > max_files).collect();
        // The join of groups i and j, what it changes on the weighted loads.
        let mut best: Option<(i64, usize, usize)> = None;
        for i in 0..groups.len() {
            for j in i + 1..groups.len() {
                let (a, b) = (&groups[i], &groups[j]);
                if !over.is_empty() && !over.iter().any(|l| loaded_by(a, l) && loaded_by(b, l)) {
                    continue;
                }
                let mut change = 0i64;
                for (load, weight) in loads {
                    let change_here = match (loaded_by(a, load), loaded_by(b, load)) {
                        (true, true) => -(per_file as i64),
                        (true, false) => b.bytes as i64,
                        (false, true) => a.bytes as i64,
                        (false, false) => 0,
                    };
                    change += change_here * *weight as i64;
                }
                if best.is_none_or(|(c, _, _)| change < c) {
                    best = Some((change, i, j));
                }
            }
        }
        match best {
            Some((change, i, j)) if !over.is_empty() || change < 0 => {
                // i < j, and the main module is first: it stays.
                let b = groups.remove(j);
                let a = &mut groups[i];
                a.stems.extend(b.stems);
                a.users.extend(b.users);
                a.bytes += b.bytes;
            }
            _ if over.is_empty() => return Ok(groups),
            _ => return Err(format!("no plan keeps every first load within {max_files} wasm files")),
        }
    }
}

/// The greedy plan made better by local search: one chunk at a time moved
/// to another file (or the main module, or a file of its own), a move kept
/// when the weighted first loads cost less, and now and then one that
/// costs a little more (annealing: fewer, less, as it goes), never one
/// that takes a load over `max_files`. The greedy joins alone, forced by
/// the file limit, could tie a large chunk to a small one another page
/// needs (issue 48: 60 KB of cards on Activity's first load). Deterministic:
/// the same chunks give the same plan.
fn improve(
    chunks: &[Chunk],
    groups: Vec<Group>,
    loads: &[(BTreeSet<String>, u64)],
    max_files: usize,
    per_file: u64,
    start: u64,
) -> Vec<Group> {
    let n = chunks.len();
    if n == 0 {
        return groups;
    }
    // Which loads each chunk is needed by, as bits.
    let needs: Vec<u32> = chunks
        .iter()
        .map(|c| loads.iter().enumerate().filter(|(_, (l, _))| !c.users.is_disjoint(l)).fold(0, |m, (i, _)| m | 1 << i))
        .collect();
    // The split modules whose own files a chunk may join, and the loads
    // that have each (as bits): a chunk there is fetched by all of them,
    // needed or not, and by no other.
    let hosts: Vec<&String> = loads.iter().flat_map(|(l, _)| l.iter()).collect::<BTreeSet<_>>().into_iter().collect();
    let having: Vec<u32> = hosts
        .iter()
        .map(|h| loads.iter().enumerate().filter(|(_, (l, _))| l.contains(*h)).fold(0, |m, (i, _)| m | 1 << i))
        .collect();
    // A chunk with a user no load names (loaded on demand) may join only
    // the app's shell, which is there before that user comes.
    let on_demand: Vec<bool> =
        chunks.iter().map(|c| c.users.iter().any(|u| !loads.iter().any(|(l, _)| l.contains(u)))).collect();
    // Slot 0 is the main module; slots 1..first_host the files; then one
    // per host, its loads fixed.
    let first_host = n + groups.len() + 2;
    let is_host = |s: usize| s >= first_host;
    let may_join = |c: usize, slot: usize| {
        !is_host(slot) || {
            let h = slot - first_host;
            needs[c] & !having[h] == 0 && (!on_demand[c] || hosts[h] == APP_SHELL)
        }
    };
    let mut slot_of: Vec<usize> = vec![0; n];
    let at: HashMap<&str, usize> = chunks.iter().enumerate().map(|(i, c)| (c.stem.as_str(), i)).collect();
    for (g, group) in groups.iter().enumerate() {
        for stem in &group.stems {
            if let Some(&c) = at.get(stem.as_str()) {
                slot_of[c] = if group.stems[0] == MAIN { 0 } else { g + 1 };
            }
        }
    }
    let mut slots = vec![(0u32, 0u64, 0usize); first_host + hosts.len()];
    for (h, &mask) in having.iter().enumerate() {
        slots[first_host + h].0 = mask;
    }
    for (c, &s) in slot_of.iter().enumerate() {
        slots[s].0 |= needs[c];
        slots[s].1 += chunks[c].bytes;
        slots[s].2 += 1;
    }
    let own: Vec<usize> = loads.iter().map(|(l, _)| l.len() + 1).collect();
    // Weighted cost of every load, and whether one is over the limit.
    let cost = |slots: &[(u32, u64, usize)]| -> Option<u64> {
        let mut total = 0;
        for (i, (_, weight)) in loads.iter().enumerate() {
            let (mut bytes, mut files) = (slots[0].1, own[i]);
            for slot in &slots[1..first_host] {
                if slot.2 > 0 && slot.0 & 1 << i != 0 {
                    bytes += slot.1;
                    files += 1;
                }
            }
            for slot in &slots[first_host..] {
                if slot.0 & 1 << i != 0 {
                    bytes += slot.1;
                }
            }
            if files > max_files {
                return None;
            }
            total += weight * (bytes + per_file * files as u64);
        }
        Some(total)
    };
    let Some(mut now) = cost(&slots) else { return groups };
    let (mut best, mut best_slots) = (now, slot_of.clone());
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15 ^ start.wrapping_mul(0xD1B5_4A32_D192_ED03);
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    const STEPS: u32 = 200_000;
    for step in 0..STEPS {
        let c = (random() % n as u64) as usize;
        let from = slot_of[c];
        // Another slot in use, the main module, an empty one, or a host's.
        let to = match random() % 5 {
            0 => 0,
            1 => slots[..first_host].iter().position(|s| s.2 == 0).unwrap_or(0),
            2 if !hosts.is_empty() => first_host + (random() % hosts.len() as u64) as usize,
            _ => slot_of[(random() % n as u64) as usize],
        };
        if to == from || !may_join(c, to) {
            continue;
        }
        let move_to = |slots: &mut Vec<(u32, u64, usize)>, slot_of: &[usize], c: usize, from: usize, to: usize| {
            if !is_host(to) {
                slots[to].0 |= needs[c];
            }
            slots[to].1 += chunks[c].bytes;
            slots[to].2 += 1;
            slots[from].1 -= chunks[c].bytes;
            slots[from].2 -= 1;
            if !is_host(from) {
                slots[from].0 =
                    slot_of.iter().enumerate().filter(|&(o, &s)| s == from && o != c).fold(0, |m, (o, _)| m | needs[o]);
            }
        };
        move_to(&mut slots, &slot_of, c, from, to);
        let temperature = 4000.0 * (1.0 - f64::from(step) / f64::from(STEPS)).powi(3);
        let keep = match cost(&slots) {
            Some(new) if new <= now => Some(new),
            Some(new) if temperature > 1.0 => {
                let p = (-((new - now) as f64) / temperature).exp();
                ((random() % 1_000_000) as f64 / 1_000_000.0 < p).then_some(new)
            }
            _ => None,
        };
        match keep {
            Some(new) => {
                slot_of[c] = to;
                now = new;
                if now < best {
                    best = now;
                    best_slots.clone_from(&slot_of);
                }
            }
            // Back: `to`'s members are the others in it, `c` still at `from`.
            None => move_to(&mut slots, &slot_of, c, to, from),
        }
    }
    // The best plan seen, as groups in the splitter's order.
    let mut by_slot: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (c, &s) in best_slots.iter().enumerate() {
        by_slot.entry(s).or_default().push(c);
    }
    let mut out = Vec::new();
    for (slot, mut members) in by_slot {
        members.sort_by_key(|&c| number(&chunks[c].stem));
        let mut group = Group {
            stems: members.iter().map(|&c| chunks[c].stem.clone()).collect(),
            users: members.iter().flat_map(|&c| chunks[c].users.iter().cloned()).collect(),
            bytes: members.iter().map(|&c| chunks[c].bytes).sum(),
        };
        if slot == 0 {
            group.stems.insert(0, MAIN.into());
        } else if is_host(slot) {
            group.stems.insert(0, format!("{SPLIT_FILE}{}", hosts[slot - first_host]));
        }
        out.push(group);
    }
    out.sort_by_key(order);
    out
}

/// The order of a plan's groups: the main module's, the files of chunks in
/// the splitter's order, then the split modules' own files by name.
fn order(group: &Group) -> (u8, u64, String) {
    if group.stems[0] == MAIN {
        (0, 0, String::new())
    } else if let Some(host) = host_of(group) {
        (2, 0, host.to_owned())
    } else {
        (1, number(&group.stems[0]), String::new())
    }
}

/// The plan's groups with the chunks [`hosted`] before planning: one group
/// per split module's file, its chunks in the splitter's order.
pub fn with_hosted(mut groups: Vec<Group>, hosts: Vec<Group>) -> Vec<Group> {
    for host in hosts {
        match groups.iter_mut().find(|g| g.stems[0] == host.stems[0]) {
            Some(group) => {
                group.stems.extend(host.stems[1..].iter().cloned());
                group.stems[1..].sort_by_key(|s| number(s));
                group.users.extend(host.users);
                group.bytes += host.bytes;
            }
            None => groups.push(host),
        }
    }
    groups.sort_by_key(order);
    groups
}

/// What each load of `loads` costs with `groups`: its name, bytes (the main
/// module's chunks and every file it loads; not the modules' own) and wasm
/// files (its own included).
pub fn loads_with(groups: &[Group], loads: &[(&'static str, &[&str], u64)]) -> Vec<(&'static str, u64, usize)> {
    loads
        .iter()
        .map(|(name, modules, _)| {
            let load: BTreeSet<String> = modules.iter().map(|m| m.to_string()).collect();
            let mine: Vec<&Group> = groups
                .iter()
                .filter(|g| match host_of(g) {
                    Some(host) => load.contains(host),
                    None => g.stems[0] == MAIN || !g.users.is_disjoint(&load),
                })
                .collect();
            let files = 1 + modules.len() + mine.iter().filter(|g| g.stems[0] != MAIN && host_of(g).is_none()).count();
            (*name, mine.iter().map(|g| g.bytes).sum(), files)
        })
        .collect()
}

/// The chunks the plan joins into the main module.
#[cfg(test)]
pub fn into_main(groups: &[Group]) -> &[String] {
    groups.iter().find(|g| g.stems[0] == MAIN).map_or(&[], |g| &g.stems[1..])
}

/// `chunk_12` → 12, for the splitter's order.
fn number(stem: &str) -> u64 {
    stem.trim_start_matches(|c: char| !c.is_ascii_digit()).parse().unwrap_or(u64::MAX)
}

/// The splitter's loader (`__wasm_split.js`, before minifying) with the
/// plan's files: the chunks joined into another are no longer loaded, and
/// each split module waits for the files that hold its chunks, each once
/// (not for the main module's, which is there before any).
/// The splitter writes one `const __chunk_<n> = makeLoad(…, []);` per chunk,
/// after a comment naming its users, and one `export const
/// __wasm_split_load_<module> = wrapAsyncCb(makeLoad(…, [<chunks>]));` per
/// split module; anything else is kept as it is.
///
/// A chunk in a split module's own file ([`hosted`]) is loaded by loading
/// that module: its module's load becomes `const __split_<module> =
/// makeLoad(…)`, waiting for none of its own chunks, and the others wait for
/// `() => __split_<module>()`, called only once the page is running, so the
/// order the loads are written in does not matter.
pub fn loader(js: &str, groups: &[Group]) -> Result<String, String> {
    let var = |stem: &str| format!("__{stem}");
    let hosts: BTreeSet<String> = groups.iter().filter(|g| host_of(g).is_some()).map(|g| var(&g.stems[0])).collect();
    let kept: HashMap<String, String> =
        groups.iter().flat_map(|g| g.stems.iter().map(|s| (var(s), var(&g.stems[0])))).collect();
    let mut out = String::new();
    let mut rest = js;
    let mut defined = BTreeSet::new();
    loop {
        let next_chunk = rest.find("const __chunk_");
        let next_export = rest.find("export const __wasm_split_load_");
        let at = match (next_chunk, next_export) {
            (None, None) => break,
            (Some(c), Some(e)) => c.min(e),
            (Some(c), None) => c,
            (None, Some(e)) => e,
        };
        if Some(at) == next_chunk {
            let name_end = at + rest[at..].find(" = makeLoad(").ok_or("a chunk without makeLoad")?;
            let name = &rest[at + "const ".len()..name_end];
            let end = at + rest[at..].find(", []);\n").ok_or("a chunk's load does not end as expected")? + 7;
            let target = kept.get(name).ok_or_else(|| format!("{name} is not in the plan"))?;
            // The comment before it names its users: it goes with it.
            let comment = rest[..at].rfind("/*").filter(|&c| !rest[c..at].trim_end().contains('\n'));
            let block_start = comment.unwrap_or(at);
            out.push_str(&rest[..block_start]);
            if target == name {
                out.push_str(&rest[block_start..end]);
                defined.insert(name.to_owned());
            }
            rest = &rest[end..];
        } else {
            let end = at + rest[at..].find("]));\n").ok_or("a split module's load does not end as expected")?;
            let open = rest[..end].rfind('[').filter(|&o| o > at).ok_or("a split module's load lists no chunks")?;
            let name_at = at + "export const __wasm_split_load_".len();
            let module =
                &rest[name_at..name_at + rest[name_at..].find(' ').ok_or("a split module's load has no name")?];
            let own = var(&format!("{SPLIT_FILE}{module}"));
            let mut waits: Vec<String> = Vec::new();
            for dep in rest[open + 1..end].split(',').map(str::trim).filter(|d| !d.is_empty()) {
                let target = kept.get(dep).ok_or_else(|| format!("{dep} is not in the plan"))?;
                if *target == var(MAIN) || *target == own {
                    continue;
                }
                let wait = if hosts.contains(target) {
                    format!("() => {target}()")
                } else if defined.contains(target) {
                    target.clone()
                } else {
                    return Err(format!("{target} is used before it is defined"));
                };
                if !waits.contains(&wait) {
                    waits.push(wait);
                }
            }
            if hosts.contains(&own) {
                // `export const X = wrapAsyncCb(makeLoad(` → `const own = makeLoad(`.
                let call = rest[at..].find("wrapAsyncCb(makeLoad(").ok_or("a split module's load is not wrapped")?;
                out.push_str(&rest[..at]);
                out.push_str(&format!("const {own} = makeLoad("));
                out.push_str(&rest[at + call + "wrapAsyncCb(makeLoad(".len()..open + 1]);
                out.push_str(&waits.join(", "));
                out.push_str(&format!("]);\nexport const __wasm_split_load_{module} = wrapAsyncCb({own})"));
                rest = &rest[end + "]))".len()..];
            } else {
                out.push_str(&rest[..open + 1]);
                out.push_str(&waits.join(", "));
                rest = &rest[end..];
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// The splitter's map of each split module's files (`chunk_<n>` stems, then
/// its own), with the plan's files instead of its chunks, each once.
pub fn files_of_modules(
    map: &HashMap<String, Vec<String>>,
    groups: &[Group],
) -> Result<HashMap<String, Vec<String>>, String> {
    let file: HashMap<&str, &str> =
        groups.iter().flat_map(|g| g.stems.iter().map(|s| (s.as_str(), g.stems[0].as_str()))).collect();
    let mut out = HashMap::new();
    for (module, stems) in map {
        let mut files: Vec<String> = Vec::new();
        for stem in stems {
            let stem = if stem.starts_with("chunk_") {
                *file.get(stem.as_str()).ok_or_else(|| format!("{stem} is not in the plan"))?
            } else {
                stem.as_str()
            };
            if stem != MAIN && !files.iter().any(|f| f == stem) {
                files.push(stem.to_owned());
            }
        }
        out.insert(module.clone(), files);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(n: u32, bytes: u64, users: &[&str]) -> Chunk {
        Chunk { stem: format!("chunk_{n}"), users: users.iter().map(|u| u.to_string()).collect(), bytes }
    }

    fn modules(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    /// The model before it was fitted: a chunk weighs its bytes, a file 120
    /// more (what the tests' figures were chosen for).
    const OLD: Model = Model { file_bytes: 0, kept_percent: 100, per_request: 120 };

    const TWO: &[(&str, &[&str], u64)] = &[("a", &["a"], 1), ("b", &["b"], 1)];
    /// And a page that needs none of the chunks: the main module is dear.
    const THREE: &[(&str, &[&str], u64)] = &[("a", &["a"], 1), ("b", &["b"], 1), ("c", &["c"], 1)];

    #[test]
    fn chunks_that_every_load_needs_together_become_one_file() {
        let chunks = [chunk(1, 5000, &["a", "b"]), chunk(2, 300, &["a", "b"]), chunk(3, 900, &["a"])];
        let groups = plan(&chunks, &modules(&["a", "b", "c"]), THREE, 6, &OLD).unwrap();
        // 1 and 2: both loads need both, so joining them saves a file each.
        // 3 with them would cost b 900 bytes to save a 120: it goes into a's
        // own file, which costs no one anything.
        let stems: Vec<Vec<String>> = groups.iter().map(|g| g.stems.clone()).collect();
        assert_eq!(stems, [vec!["chunk_1".to_string(), "chunk_2".into()], vec!["split_a".into(), "chunk_3".into()]]);
        assert_eq!(groups[0].bytes, 5300);
    }

    #[test]
    fn a_load_with_too_many_files_gets_the_cheapest_joins() {
        // a needs 6 chunks: with its module and the main one, 8 files.
        let chunks = [
            chunk(1, 100, &["a"]),
            chunk(2, 100, &["a", "b"]),
            chunk(3, 9000, &["a", "b"]),
            chunk(4, 200, &["a"]),
            chunk(5, 8000, &["a", "b"]),
            chunk(6, 50, &["a"]),
        ];
        let groups = plan(&chunks, &modules(&["a", "b", "c"]), THREE, 4, &OLD).unwrap();
        let files = |m: &str| 2 + groups.iter().filter(|g| g.stems[0] != MAIN && g.users.contains(m)).count();
        assert!(files("a") <= 4, "{groups:?}");
        // The big chunks b needs too were not joined with what only a needs.
        for g in &groups {
            if g.stems.contains(&"chunk_3".into()) || g.stems.contains(&"chunk_5".into()) {
                assert!(g.stems.iter().all(|s| ["chunk_2", "chunk_3", "chunk_5"].contains(&s.as_str())), "{groups:?}");
            }
        }
    }

    #[test]
    fn a_small_chunk_every_load_needs_goes_into_the_main_module() {
        let chunks = [chunk(1, 600, &["a", "b"]), chunk(2, 9000, &["a"])];
        let groups = plan(&chunks, &modules(&["a", "b"]), TWO, 6, &OLD).unwrap();
        assert_eq!(into_main(&groups), ["chunk_1"], "{groups:?}");
        // Not the big one only a needs: b would pay for it. It goes into a's file.
        assert!(groups.iter().any(|g| g.stems == ["split_a", "chunk_2"]), "{groups:?}");
    }

    #[test]
    fn a_chunk_that_costs_less_than_a_file_joins_one_rather_than_being_one() {
        // 400 bytes only b needs, and a module c loaded on demand (so no
        // split module's file can take it): alone it is a file of its own
        // for b (what a file spends on itself, and a request); in the main
        // module it adds what is left of it once that is spent, to a and b.
        // The model that weighed a chunk by its own size kept it apart.
        let chunks = [chunk(1, 400, &["b", "c"]), chunk(2, 9000, &["a", "c"])];
        assert_eq!(MODEL.in_a_file(400), 100);
        assert_eq!(MODEL.in_a_file(2000), 1508);
        let groups = plan(&chunks, &modules(&["a", "b", "c"]), TWO, 6, &MODEL).unwrap();
        assert_eq!(into_main(&groups), ["chunk_1"], "{groups:?}");
        let before = plan(&chunks, &modules(&["a", "b", "c"]), TWO, 6, &OLD).unwrap();
        assert!(into_main(&before).is_empty(), "{before:?}");
        // The big one stays apart: b would pay for it.
        assert!(groups.iter().any(|g| g.stems == ["chunk_2"] && g.bytes == 360 + MODEL.in_a_file(9000)), "{groups:?}");
    }

    #[test]
    fn the_plans_weighed_are_each_once_cheapest_first_and_the_same_each_time() {
        let chunks: Vec<Chunk> = (1..40)
            .map(|n| {
                let users: &[&str] = match n % 5 {
                    0 => &["a"],
                    1 => &["a", "b"],
                    2 => &["b", "c"],
                    3 => &["c"],
                    _ => &["a", "c"],
                };
                chunk(n, 150 + (n as u64 * 7919) % 5000, users)
            })
            .collect();
        let found = plans(&chunks, &modules(&["a", "b", "c"]), THREE, 5, &MODEL, 6).unwrap();
        assert!(found.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 != w[1].1), "{found:?}");
        assert_eq!(found, plans(&chunks, &modules(&["a", "b", "c"]), THREE, 5, &MODEL, 6).unwrap());
        // Every chunk is in exactly one file of each plan.
        for (_, groups) in &found {
            let mut stems: Vec<&String> =
                groups.iter().flat_map(|g| g.stems.iter()).filter(|s| s.starts_with("chunk_")).collect();
            let all = stems.len();
            stems.sort();
            stems.dedup();
            assert_eq!((all, stems.len()), (chunks.len(), chunks.len()));
        }
    }

    #[test]
    fn a_plan_that_cannot_hold_the_limit_is_an_error() {
        let chunks = [chunk(1, 100, &["a"])];
        // The main module and a's own are 2 files already.
        assert!(plan(&chunks, &modules(&["a", "b"]), TWO, 1, &OLD).is_err());
    }

    /// The loader as wasm_split_cli_support 0.2.4 writes it (src/js.rs).
    const LOADER: &str = "import { initSync } from \"./perch.js\";\n\nfunction makeLoad() {}\n\
/* a, b */\nconst __chunk_1 = makeLoad(() => {\n    const src = fetch(new URL(\"./chunk_1.wasm\", import.meta.url));\n}\n, []);\n\
/* a */\nconst __chunk_2 = makeLoad(() => {\n    const src = fetch(new URL(\"./chunk_2.wasm\", import.meta.url));\n}\n, []);\n\
/* b */\nconst __chunk_3 = makeLoad(() => {\n    const src = fetch(new URL(\"./chunk_3.wasm\", import.meta.url));\n}\n, []);\n\
export const __wasm_split_load_b = wrapAsyncCb(makeLoad(() => {\n    const src = fetch(new URL(\"./split_b.wasm\", import.meta.url));\n}\n, [__chunk_1, __chunk_3]));\n\
export const __wasm_split_load_a = wrapAsyncCb(makeLoad(() => {\n    const src = fetch(new URL(\"./split_a.wasm\", import.meta.url));\n}\n, [__chunk_1, __chunk_2]));\n";

    #[test]
    fn the_loader_loads_each_planned_file_once() {
        let groups = [
            Group { stems: vec!["chunk_1".into(), "chunk_2".into()], users: modules(&["a", "b"]), bytes: 0 },
            Group { stems: vec!["chunk_3".into()], users: modules(&["b"]), bytes: 0 },
        ];
        let js = loader(LOADER, &groups).unwrap();
        // Joined into the main module: not loaded at all.
        let in_main = [
            Group { stems: vec![MAIN.into(), "chunk_3".into()], users: modules(&["b"]), bytes: 0 },
            Group { stems: vec!["chunk_1".into(), "chunk_2".into()], users: modules(&["a", "b"]), bytes: 0 },
        ];
        let main_js = loader(LOADER, &in_main).unwrap();
        assert!(!main_js.contains("chunk_3"), "{main_js}");
        assert!(main_js.contains("split_b.wasm\", import.meta.url));\n}\n, [__chunk_1]));"), "{main_js}");
        assert!(!js.contains("chunk_2"), "{js}");
        assert_eq!(js.matches("const __chunk_1 = makeLoad(").count(), 1, "{js}");
        assert!(js.contains("/* a, b */\nconst __chunk_1"), "{js}");
        assert!(js.contains("split_b.wasm\", import.meta.url));\n}\n, [__chunk_1, __chunk_3]));"), "{js}");
        assert!(js.contains("split_a.wasm\", import.meta.url));\n}\n, [__chunk_1]));"), "{js}");
        assert!(js.starts_with("import { initSync }"), "{js}");
        // A chunk the plan does not know stops the build.
        assert!(loader(LOADER, &groups[..1]).is_err());
    }

    #[test]
    fn a_chunk_goes_into_the_module_every_load_that_needs_it_has() {
        // Every load with b or c has a: chunk 1 goes into a's file; chunk 2,
        // needed by the load of b alone, into b's; chunks 3 (b and d) and 4
        // stay chunks: no load has d, which would fetch b's file when it comes.
        let loads: Vec<(BTreeSet<String>, u64)> = vec![
            (modules(&["a", "b"]), 1),
            (modules(&["a", "c"]), 1),
            (modules(&["e"]), 1),
            (modules(&["a", "b", "e"]), 1),
        ];
        let chunks = [
            chunk(1, 100, &["a", "b", "c"]),
            chunk(2, 50, &["b"]),
            chunk(3, 70, &["b", "d"]),
            chunk(4, 30, &["d"]),
            chunk(5, 20, &["a", "c"]),
        ];
        let hosts = hosted(&chunks, &loads);
        assert_eq!(
            hosts.iter().map(|g| g.stems.clone()).collect::<Vec<_>>(),
            [vec!["split_a".to_string(), "chunk_1".into(), "chunk_5".into()], vec!["split_b".into(), "chunk_2".into()]]
        );
        assert_eq!(host_of(&hosts[0]), Some("a"));
        // No load fetches more: each load's modules' chunks, before and after.
        let files_before = |load: &BTreeSet<String>| chunks.iter().filter(|c| !c.users.is_disjoint(load)).count();
        for (load, _) in &loads {
            let hosted_here =
                hosts.iter().filter(|g| load.contains(host_of(g).unwrap())).map(|g| g.stems.len() - 1).sum::<usize>();
            let needed_hosted = hosts
                .iter()
                .flat_map(|g| &g.stems[1..])
                .filter(|s| chunks.iter().any(|c| &c.stem == *s && !c.users.is_disjoint(load)))
                .count();
            assert_eq!(hosted_here, needed_hosted, "{load:?} ({} chunks before)", files_before(load));
        }
        // A module loaded on demand after the app's shell (f, in no load):
        // its chunks shared with the shell go into the shell's file; chunk 8
        // is every page's but not the shell's own, and the shell is in every
        // load that needs it.
        let loads: Vec<(BTreeSet<String>, u64)> =
            vec![(modules(&[APP_SHELL, "b"]), 1), (modules(&[APP_SHELL, "c"]), 1)];
        let chunks =
            [chunk(6, 100, &[APP_SHELL, "b", "c", "f"]), chunk(7, 100, &["b", "f"]), chunk(8, 100, &["b", "c", "f"])];
        let hosts = hosted(&chunks, &loads);
        assert_eq!(
            hosts.iter().map(|g| g.stems.clone()).collect::<Vec<_>>(),
            [vec![format!("split_{APP_SHELL}"), "chunk_6".into(), "chunk_8".into()]]
        );
    }

    #[test]
    fn a_chunk_joins_a_module_file_that_some_of_its_loads_need_when_that_costs_least() {
        // Every load with x or y has a, and each already has 3 files (the
        // main module, a, its page): at 3, no chunk can be a file. Chunk 1
        // (x and y) in a's file costs the load of z its bytes; in the main
        // module it would cost b's too. Chunk 2 (x and b) cannot join a's
        // file: b would fetch a's. Chunk 3 is only w's, loaded on demand:
        // a's file would make it fetch a's.
        const LOADS: &[(&str, &[&str], u64)] =
            &[("x", &["a", "x"], 1), ("y", &["a", "y"], 1), ("z", &["a", "z"], 1), ("b", &["b"], 1)];
        let chunks = [chunk(1, 5000, &["x", "y"]), chunk(2, 700, &["x", "b"]), chunk(3, 700, &["x", "w"])];
        let groups = plan(&chunks, &modules(&["a", "b", "x", "y", "z", "w"]), LOADS, 3, &OLD).unwrap();
        let stems: Vec<Vec<String>> = groups.iter().map(|g| g.stems.clone()).collect();
        assert_eq!(
            stems,
            [vec![MAIN.to_string(), "chunk_2".into(), "chunk_3".into()], vec!["split_a".into(), "chunk_1".into()]]
        );
        // It costs each load with a the chunk's bytes, and no file more.
        let costs = loads_with(&groups, LOADS);
        assert_eq!(costs[2], ("z", 1400 + 5000, 3), "{costs:?}");
        assert_eq!(costs[3], ("b", 1400, 2), "{costs:?}");
        // The chunks put there before planning join the same file.
        let hosts = vec![Group { stems: vec!["split_a".into(), "chunk_0".into()], users: modules(&["a"]), bytes: 10 }];
        let all = with_hosted(groups, hosts);
        assert_eq!(all[1].stems, ["split_a", "chunk_0", "chunk_1"]);
        assert_eq!(all[1].bytes, 5010);
    }

    #[test]
    fn a_chunk_in_a_module_file_is_loaded_by_loading_that_module() {
        let groups = [
            Group {
                stems: vec!["split_a".into(), "chunk_1".into(), "chunk_2".into()],
                users: modules(&["a", "b"]),
                bytes: 0,
            },
            Group { stems: vec!["chunk_3".into()], users: modules(&["b"]), bytes: 0 },
        ];
        let js = loader(LOADER, &groups).unwrap();
        assert!(!js.contains("const __chunk_1") && !js.contains("const __chunk_2"), "{js}");
        // b waits for a's file, through a call made at load time (a's load is written after b's).
        assert!(js.contains("split_b.wasm\", import.meta.url));\n}\n, [() => __split_a(), __chunk_3]));"), "{js}");
        // a's load waits for none of its own chunks, and is still exported.
        assert!(js.contains("const __split_a = makeLoad(() => {\n    const src = fetch(new URL(\"./split_a.wasm\", import.meta.url));\n}\n, []);\nexport const __wasm_split_load_a = wrapAsyncCb(__split_a);\n"), "{js}");
        let map = HashMap::from([
            ("a".to_string(), vec!["chunk_1".into(), "chunk_2".into(), "split_a".into()]),
            ("b".to_string(), vec!["chunk_1".into(), "chunk_3".into(), "split_b".into()]),
        ]);
        let files = files_of_modules(&map, &groups).unwrap();
        assert_eq!(files["a"], ["split_a"]);
        assert_eq!(files["b"], ["split_a", "chunk_3", "split_b"]);
    }

    #[test]
    fn each_module_lists_its_planned_files_once() {
        let groups = [Group { stems: vec!["chunk_1".into(), "chunk_2".into()], users: modules(&["a"]), bytes: 0 }];
        let map = HashMap::from([("a".to_string(), vec!["chunk_1".into(), "chunk_2".into(), "split_a".into()])]);
        assert_eq!(files_of_modules(&map, &groups).unwrap()["a"], ["chunk_1", "split_a"]);
    }
}
