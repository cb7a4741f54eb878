//! `perch-xtask web`: the web app's wasm, split by page and feature, built
//! into trunk's staging folder. trunk runs it as its one `post_build` hook
//! (`Trunk.toml`) and hands it `TRUNK_PROFILE`, `TRUNK_STAGING_DIR` and
//! `TRUNK_PUBLIC_URL`. In order (docs/split.md):
//! 1. cargo builds the app for wasm with `--emit-relocs` and `--cfg
//!    perch_split`, in a target folder of its own (`target/split`), so no other
//!    build ever gets relocations (wasm-opt gives up on them); a release build
//!    also builds std again with panics that stop at once (`build`);
//! 2. the splitter (`wasm_split_cli_support`, used as a library) cuts it at
//!    the `#[wasm_split]` points of `src/lazy.rs`'s `lazy!`;
//! 3. wasm-bindgen makes the JS glue of the main module only;
//! 4. wasm-opt shrinks every module, terser the JS (release); the chunk
//!    planner joins the splitter's chunks as their sizes say (`plan.rs`);
//!    the served files lose the build's notes to itself (`strip.rs`);
//! 5. the files go to one `pkg-<hash>/` folder named by a hash of them all;
//! 6. the staged `index.html` gets the tags that start the app and the map of
//!    which files each page needs (asked for before the app starts);
//!    and the first screen rendered from the app's components in every
//!    language (`perch-prerender`, docs/prerender.md), and each language's
//!    catalog cut in the words every start reads and the later ones;
//! 7. that map names every file, so the service worker keeps them all;
//! 8. release files get their brotli and gzip twins (`scripts/precompress.sh`).

mod measure;
mod merge;
mod plan;
mod strip;

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

/// The wasm target and the app's binary.
const TARGET: &str = "wasm32-unknown-unknown";
const APP: &str = "perch";
/// The wasm-opt that makes working bundles (Debian's 108 does not): npm's
/// binaryen, installed by scripts/setup.sh.
const WASM_OPT_VERSION: &str = "wasm-opt version 132";
/// What a direct load of a path needs first: each pattern, tried in order,
/// names the split module that draws that page (`lazy!` in `src/routes/`).
/// The groups (docs/split.md, "Groups"): Home alone, the other pages
/// together, sign-in alone.
/// `index.html` asks for the module's files at once, beside the main
/// module, so a page opened from a link does not wait for the app to start
/// before its own code is asked for.
const ENTRIES: &[(&str, &str)] = &[
    ("^/$", "page_home"),
    ("^/post/[^/]+$", "pages"),
    ("^/user/[^/]+$", "pages"),
    ("^/user/[^/]+/follow(ers|ing)$", "pages"),
    ("^/outbox$", "pages"),
    ("^/activity$", "page_activity"),
    ("^/settings$", "extras"),
    ("^/bookmarks$", "page_bookmarks"),
    ("^/drafts$", "page_drafts"),
    ("^/search$", "page_search"),
    ("^/lists(/[^/]+)?$", "page_lists"),
    ("^/signin$", "page_signin"),
];

type Failure = Box<dyn std::error::Error>;

fn main() {
    let what = env::args().nth(1).unwrap_or_default();
    let result = match what.as_str() {
        "web" => web(),
        "plan" => {
            let args: Vec<String> = env::args().skip(2).collect();
            let measure = args.iter().any(|a| a == "--measure");
            let listing = args.iter().find(|a| !a.starts_with("--")).cloned();
            plan_again(&listing.unwrap_or_else(|| "target/split/chunks.tsv".into()), measure)
        }
        // The measured size of chunks joined (docs/split.md, "The chunk
        // planner"): `perch-xtask join chunk_11 chunk_40 …`.
        "join" => (|| {
            let stems: Vec<String> = env::args().skip(2).collect();
            let mut joins = measure::Joins::new("target/split/chunks".into(), "target/split/measure".into(), true)?;
            println!("{}", joins.size(&stems)?);
            Ok(())
        })(),
        _ => {
            Err("usage: perch-xtask web (run by trunk: see Trunk.toml) | perch-xtask plan [chunks.tsv] [--measure]"
                .into())
        }
    };
    if let Err(e) = result {
        eprintln!("perch-xtask: {e}");
        std::process::exit(1);
    }
}

/// Plans again the chunks a build kept (`target/split/chunks.tsv`) and
/// prints the plan and what each load costs: for tuning the planner
/// without building (docs/split.md, "The chunk planner").
/// With `--measure`, each file of the plan is also joined and measured as
/// it would be served (the chunks the build kept beside the listing).
fn plan_again(listing: &str, measure: bool) -> Result<(), Failure> {
    let mut chunks = Vec::new();
    let mut split_modules = std::collections::BTreeSet::new();
    for line in fs::read_to_string(listing)?.lines() {
        let mut parts = line.split('\t');
        let (Some(stem), Some(bytes), Some(users)) = (parts.next(), parts.next(), parts.next()) else { continue };
        let users: std::collections::BTreeSet<String> = users.split(',').map(str::to_owned).collect();
        split_modules.extend(users.iter().cloned());
        chunks.push(plan::Chunk { stem: stem.to_owned(), users, bytes: bytes.parse()? });
    }
    let dir = Path::new(listing).parent().unwrap_or(Path::new("."));
    let mut joins = measure::Joins::new(dir.join("chunks"), dir.join("measure"), true)?;
    let (hosts, chunks) = hosted(&chunks, &split_modules);
    let groups = if measure {
        choose(&chunks, &split_modules, &mut joins, true)?
    } else {
        plan::plan(&chunks, &split_modules, plan::LOADS, plan::MAX_FILES, &plan::MODEL)?
    };
    let groups = plan::with_hosted(groups, hosts);
    for group in &groups {
        let users: Vec<&str> = group.users.iter().map(String::as_str).collect();
        let measured = if measure && group.stems[0] != plan::MAIN && plan::host_of(group).is_none() {
            format!(", {:.1} KB measured", joins.size(&group.stems)? as f64 / 1000.0)
        } else {
            String::new()
        };
        println!(
            "{} <- {} chunks ({:.1} KB in the model{measured}, loaded by {})",
            group.stems[0],
            group.stems.len(),
            group.bytes as f64 / 1000.0,
            users.join(", ")
        );
    }
    for (name, bytes, files) in plan::loads_with(&groups, plan::LOADS) {
        println!("{name}: {:.1} KB of chunks, {files} wasm files", bytes as f64 / 1000.0);
    }
    Ok(())
}

fn web() -> Result<(), Failure> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().ok_or("no workspace")?.to_path_buf();
    let release = env::var("TRUNK_PROFILE").map_or(true, |p| p == "release");
    let staging =
        PathBuf::from(env::var("TRUNK_STAGING_DIR").map_err(|_| "TRUNK_STAGING_DIR is not set: trunk runs this")?);
    let public_url = env::var("TRUNK_PUBLIC_URL").unwrap_or_else(|_| "/".into());
    let public_url = if public_url.ends_with('/') { public_url } else { format!("{public_url}/") };
    // PERCH_SPLIT=0: the same code as one wasm (`lazy!` compiles to plain
    // calls without `--cfg perch_split`), to measure what the split costs
    // against it (docs/size.md); with PERCH_SPLIT_PARTIAL=1, since no page
    // is a split module then.
    let unsplit = env::var("PERCH_SPLIT").as_deref() == Ok("0");
    let target_dir = root.join(if unsplit { "target/unsplit" } else { "target/split" });

    let wasm = build(&root, &target_dir, release, unsplit)?;
    let work = target_dir.join("pkg");
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work)?;
    let input = fs::read(&wasm)?;
    // The main module before wasm-bindgen stays outside the package: the
    // planner may join chunks into it and run wasm-bindgen again.
    let main_split = target_dir.join("main_split.wasm");
    let split = wasm_split_cli_support::transform({
        let mut o = wasm_split_cli_support::Options::new(&input);
        o.output_dir = &work;
        o.main_out_path = &main_split;
        o.main_module = "./perch.js";
        o.link_name = "./__wasm_split.js";
        o
    })?;
    bindgen(&main_split, &work)?;
    // PERCH_WASM_OPT=0 keeps the modules as the splitter and wasm-bindgen
    // left them, names and all, for looking inside (twiggy; docs/size.md).
    let opt = release && env::var("PERCH_WASM_OPT").as_deref() != Ok("0");
    if opt {
        optimize(&work, &files_of(&work)?)?;
    }
    let modules = with_app_shell(join_chunks(&work, &main_split, &split.prefetch_map, opt)?);
    fs::remove_file(&main_split)?;
    if release {
        minify(&work)?;
        for file in files_of(&work)?.into_iter().filter(|f| f.ends_with(".wasm")) {
            let path = work.join(file);
            fs::write(&path, strip::served(&fs::read(&path)?)?)?;
        }
    }
    let hash = hash_of(&work)?;
    let pkg = format!("pkg-{hash}");
    let out = staging.join(&pkg);
    fs::create_dir_all(&out)?;
    for entry in fs::read_dir(&work)? {
        let entry = entry?;
        fs::copy(entry.path(), out.join(entry.file_name()))?;
    }
    let base = format!("{public_url}{pkg}/");
    let index = staging.join("index.html");
    let html = fs::read_to_string(&index)?;
    let html = with_tags(&html, &public_url, &base, &modules, &files_of(&work)?)?;
    let screens = prerender(&root)?;
    fs::write(&index, with_first_screen(&html, &screens)?)?;
    write_words(&staging, &screens)?;
    if release {
        run(Command::new(root.join("scripts/precompress.sh")).arg(&staging))?;
    }
    let wasm_files = files_of(&out)?.iter().filter(|f| f.ends_with(".wasm")).count();
    println!("perch-xtask: {wasm_files} wasm files in {pkg}/");
    Ok(())
}

/// Step 1: the app for wasm, with the relocations the splitter reads.
fn build(root: &Path, target_dir: &Path, release: bool, unsplit: bool) -> Result<PathBuf, Failure> {
    let mut cargo = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo
        .current_dir(root)
        .args(["build", "--quiet", "-p", APP, "--bin", APP, "--target", TARGET, "--target-dir"])
        .arg(target_dir)
        // These flags replace .cargo/config.toml's rustflags: repeat them.
        .env("CARGO_ENCODED_RUSTFLAGS", rustflags(unsplit, release).join("\x1f"))
        .env_remove("RUSTFLAGS");
    if release {
        // The standard library as shipped carries the whole machinery that
        // formats a panic's message and where it happened (core::fmt for
        // every `unwrap`, `expect` and index). Built again from rust-src with
        // `-Cpanic=immediate-abort` (`rustflags`), a panic is a trap at once:
        // the main module 19 KB smaller in brotli, every page's first load
        // 20-25 KB (docs/size.md, "Panics that stop at once"). A panic was
        // already the end of the app (panic = "abort"); the browser still
        // reports it as an uncaught `RuntimeError: unreachable`, which the
        // end-to-end suite fails on. Debug builds keep the messages.
        // `-Z` on the stable toolchain needs RUSTC_BOOTSTRAP; rust-src is
        // installed by scripts/setup.sh.
        cargo.args(["--release", "-Zbuild-std=std,panic_abort"]).env("RUSTC_BOOTSTRAP", "1");
    }
    // Extra features of the app (the benchmarks' `marks`): trunk no longer
    // runs cargo, so `trunk build --features` cannot reach it.
    if let Ok(features) = env::var("PERCH_FEATURES") {
        if !features.is_empty() {
            cargo.args(["--features", &features]);
        }
    }
    run(&mut cargo)?;
    Ok(target_dir.join(TARGET).join(if release { "release" } else { "debug" }).join(format!("{APP}.wasm")))
}

/// The flags of the app's wasm build. Panic messages carry the source path
/// of every crate they come from; a crate from the registry sits under the
/// machine's cargo home (`/root/.cargo/registry/src/index.crates.io-…/`), so
/// the same commit built where that folder is elsewhere gave other bytes, and
/// a size limit held here and failed in CI. Each registry folder is written as
/// `crates/`: the wasm is the same wherever it is built (and ~4 KB shorter
/// before compression). Release builds no longer carry panic messages
/// (`-Cpanic=immediate-abort`, below); the remapping still holds debug
/// builds, and any path a crate writes with `file!()`, to one form.
fn rustflags(unsplit: bool, release: bool) -> Vec<String> {
    let mut flags: Vec<String> = vec!["--cfg".into(), "erase_components".into()];
    if !unsplit {
        flags.extend(["--cfg".into(), "perch_split".into()]);
    }
    flags.push("-Clink-args=--emit-relocs".into());
    if release {
        flags.extend(["-Zunstable-options".into(), "-Cpanic=immediate-abort".into()]);
    }
    let cargo_home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")));
    if let Some(cargo_home) = cargo_home {
        // The home itself first: rustc lets the last matching prefix win.
        flags.push(format!("--remap-path-prefix={}=cargo", cargo_home.display()));
        let registries = fs::read_dir(cargo_home.join("registry/src")).into_iter().flatten().flatten();
        for registry in registries {
            flags.push(format!("--remap-path-prefix={}=crates", registry.path().display()));
        }
    }
    flags
}

/// Step 6b: the first screen, rendered from the app's components at build
/// time in every language (`perch-prerender`, a native build of the app:
/// docs/prerender.md). Its JSON: `{"en": {"html": …, "title": …, "words":
/// …, "later_words": …}, …}`.
fn prerender(root: &Path) -> Result<serde_json::Value, Failure> {
    let output = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root)
        .args(["run", "--quiet", "-p", APP, "--bin", "perch-prerender", "--"])
        .arg(root)
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .stderr(std::process::Stdio::inherit())
        .output()?;
    if !output.status.success() {
        return Err(format!("perch-prerender failed ({})", output.status).into());
    }
    Ok(serde_json::from_slice(&output.stdout)?)
}

/// The rendered first screens, one `<template id="perch-first-<language>"
/// data-title="…">` each, before `</head>`: `index.html`'s start puts the
/// reader's language's on screen before the first paint.
fn with_first_screen(html: &str, screens: &serde_json::Value) -> Result<String, Failure> {
    let screens = screens.as_object().ok_or("perch-prerender: not an object")?;
    let mut templates = String::new();
    for (language, screen) in screens {
        let (Some(body), Some(title)) = (screen["html"].as_str(), screen["title"].as_str()) else {
            return Err(format!("perch-prerender: no html or title for {language}").into());
        };
        if !language.chars().all(|c| c.is_ascii_lowercase()) {
            return Err(format!("perch-prerender: a language code {language:?}").into());
        }
        let title = title.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
        templates
            .push_str(&format!("<template id=\"perch-first-{language}\" data-title=\"{title}\">{body}</template>"));
    }
    let at = html.rfind("</head>").ok_or("index.html has no </head>")?;
    Ok(format!("{}{}{}", &html[..at], templates, &html[at..]))
}

/// Step 6c: each language's catalog in its two parts (`perch-prerender`
/// made them: `src/i18n/mod.rs`, "Words by page"): `locales/<code>.json`,
/// which every start reads, in place of the whole catalog trunk copied,
/// and `locales/<code>.later.json`, which the later pages load.
fn write_words(staging: &Path, screens: &serde_json::Value) -> Result<(), Failure> {
    let screens = screens.as_object().ok_or("perch-prerender: not an object")?;
    for (language, screen) in screens {
        let (Some(words), Some(later)) = (screen["words"].as_str(), screen["later_words"].as_str()) else {
            return Err(format!("perch-prerender: no words for {language}").into());
        };
        if !language.chars().all(|c| c.is_ascii_lowercase()) {
            return Err(format!("perch-prerender: a language code {language:?}").into());
        }
        let dir = staging.join("locales");
        fs::create_dir_all(&dir)?;
        fs::write(dir.join(format!("{language}.json")), words)?;
        fs::write(dir.join(format!("{language}.later.json")), later)?;
    }
    Ok(())
}

/// Step 3: the main module's JS glue (`perch.js`) and its wasm
/// (`perch_bg.wasm`), in `work`.
fn bindgen(main_split: &Path, work: &Path) -> Result<(), Failure> {
    run(Command::new("wasm-bindgen")
        .args([
            "--target",
            "web",
            "--keep-lld-exports",
            "--no-demangle",
            "--no-typescript",
            "--out-name",
            APP,
            "--out-dir",
        ])
        .arg(work)
        .arg(main_split))
}

/// Step 4b, the chunk planner (`plan.rs`): the splitter's chunks joined as
/// the plan says, measured as they will be served (after wasm-opt in a
/// release build), the loader told, the joined files optimised again. The
/// chunks joined into the main module go into it before wasm-bindgen,
/// which runs again. Answers each split module's files.
fn join_chunks(
    work: &Path,
    main_split: &Path,
    map: &std::collections::HashMap<String, Vec<String>>,
    opt: bool,
) -> Result<std::collections::HashMap<String, Vec<String>>, Failure> {
    let mut chunks = Vec::new();
    for file in files_of(work)? {
        let Some(stem) = file.strip_suffix(".wasm").filter(|s| s.starts_with("chunk_")) else { continue };
        let users = map.iter().filter(|(_, files)| files.iter().any(|f| f == stem)).map(|(m, _)| m.clone()).collect();
        chunks.push(plan::Chunk { stem: stem.to_owned(), users, bytes: brotli_size(&work.join(&file))? });
    }
    // The planner's input, kept beside the build: `perch-xtask plan FILE`
    // plans it again without building (for tuning the planner).
    let listing: String = chunks
        .iter()
        .map(|c| format!("{}\t{}\t{}\n", c.stem, c.bytes, c.users.iter().cloned().collect::<Vec<_>>().join(",")))
        .collect();
    let kept = work.parent().ok_or("no target dir")?;
    fs::write(kept.join("chunks.tsv"), listing)?;
    // And the chunks themselves, for measuring joins without building
    // (`perch-xtask plan --measure`).
    let _ = fs::remove_dir_all(kept.join("chunks"));
    fs::create_dir_all(kept.join("chunks"))?;
    for chunk in &chunks {
        let file = format!("{}.wasm", chunk.stem);
        fs::copy(work.join(&file), kept.join("chunks").join(&file))?;
    }
    if env::var("PERCH_PLAN_CHUNKS").as_deref() == Ok("1") {
        for chunk in &chunks {
            let users: Vec<&str> = chunk.users.iter().map(String::as_str).collect();
            println!("perch-xtask: chunk {} ({} B): {}", chunk.stem, chunk.bytes, users.join(", "));
        }
    }
    let split_modules = map.keys().cloned().collect();
    // First the chunks that cost no load anything in a split module's own
    // file (`plan::hosted`); the planner plans the others.
    let (hosts, chunks) = hosted(&chunks, &split_modules);
    // A release build measures the plans it weighs; a debug one (`trunk
    // serve`) takes the model's best.
    let mut joins = if opt { Some(measure::Joins::new(kept.join("chunks"), kept.join("measure"), opt)?) } else { None };
    let groups = match &mut joins {
        Some(joins) => choose(&chunks, &split_modules, joins, false)?,
        None => plan::plan(&chunks, &split_modules, plan::LOADS, plan::MAX_FILES, &plan::MODEL)?,
    };
    let groups = plan::with_hosted(groups, hosts);
    let mut joined = Vec::new();
    for group in &groups {
        let users: Vec<&str> = group.users.iter().map(String::as_str).collect();
        println!(
            "perch-xtask: plan: {}.wasm <- {} ({:.1} KB, loaded by {})",
            group.stems[0],
            group.stems.join(" + "),
            group.bytes as f64 / 1000.0,
            users.join(", ")
        );
        if group.stems.len() < 2 {
            continue;
        }
        let into_main = group.stems[0] == plan::MAIN;
        let parts_of = if into_main { &group.stems[1..] } else { &group.stems[..] };
        let mut parts = Vec::new();
        for stem in parts_of {
            // What the splitter wrote: a chunk already through wasm-opt is
            // as good, and the main module is not yet (it is optimised
            // again with what joined it).
            parts.push(fs::read(work.join(format!("{stem}.wasm")))?);
        }
        for stem in &parts_of[usize::from(!into_main)..] {
            fs::remove_file(work.join(format!("{stem}.wasm")))?;
        }
        if into_main {
            fs::write(main_split, merge::join_into_main(&fs::read(main_split)?, &parts)?)?;
            bindgen(main_split, work)?;
            joined.push(format!("{APP}_bg.wasm"));
        } else {
            let file = format!("{}.wasm", group.stems[0]);
            // Measured: joined and optimised already, the same bytes.
            match joins.as_ref().and_then(|j| j.made(&group.stems)) {
                Some(made) => _ = fs::copy(made, work.join(&file))?,
                None => {
                    fs::write(work.join(&file), merge::join(&parts)?)?;
                    joined.push(file);
                }
            }
        }
    }
    let loader = work.join("__wasm_split.js");
    fs::write(&loader, plan::loader(&fs::read_to_string(&loader)?, &groups)?)?;
    if opt {
        optimize(work, &joined)?;
    }
    Ok(plan::files_of_modules(map, &groups)?)
}

/// The split modules a page loads without `plan::APP_SHELL`: signed out,
/// the sign-in page draws from the main module's start.
const WITHOUT_APP_SHELL: &[&str] = &["page_signin"];

/// Each split module's files with `plan::APP_SHELL`'s first, but for the
/// modules in [`WITHOUT_APP_SHELL`]: what `index.html` fetches for a page
/// and `make size` counts.
fn with_app_shell(
    mut modules: std::collections::HashMap<String, Vec<String>>,
) -> std::collections::HashMap<String, Vec<String>> {
    let Some(shell) = modules.get(plan::APP_SHELL).cloned() else { return modules };
    for (module, files) in modules.iter_mut() {
        if module == plan::APP_SHELL || WITHOUT_APP_SHELL.contains(&module.as_str()) {
            continue;
        }
        let own: Vec<String> = files.drain(..).filter(|f| !shell.contains(f)).collect();
        files.extend(shell.iter().cloned());
        files.extend(own);
    }
    modules
}

/// The chunks that go into a split module's own file (`plan::hosted`), and
/// the chunks left to plan.
fn hosted(
    chunks: &[plan::Chunk],
    split_modules: &std::collections::BTreeSet<String>,
) -> (Vec<plan::Group>, Vec<plan::Chunk>) {
    let hosts = plan::hosted(chunks, &plan::loads_of(plan::LOADS, split_modules));
    let left = chunks.iter().filter(|c| !hosts.iter().any(|g| g.stems[1..].contains(&c.stem))).cloned().collect();
    (hosts, left)
}

/// How many of the model's best plans are measured.
const MEASURED_PLANS: usize = 4;

/// The plan of the chunk planner: of the model's best plans
/// ([`MEASURED_PLANS`]), the one whose files, joined and measured as they
/// will be served, cost the weighted first loads least (the chunks joined
/// into the main module weighed by the model: measuring them would take
/// wasm-bindgen and wasm-opt over the whole main module each time).
fn choose(
    chunks: &[plan::Chunk],
    split_modules: &std::collections::BTreeSet<String>,
    joins: &mut measure::Joins,
    say: bool,
) -> Result<Vec<plan::Group>, Failure> {
    let started = std::time::Instant::now();
    let candidates = plan::plans(chunks, split_modules, plan::LOADS, plan::MAX_FILES, &plan::MODEL, plan::STARTS)?;
    let loads = plan::loads_of(plan::LOADS, split_modules);
    let mut best: Option<(u64, Vec<plan::Group>)> = None;
    for (modelled, groups) in candidates.into_iter().take(MEASURED_PLANS) {
        let mut sizes = Vec::new();
        for group in &groups {
            // The main module's and a split module's own file: the model's.
            let modelled = group.stems[0] == plan::MAIN || plan::host_of(group).is_some();
            sizes.push(if modelled { group.bytes } else { joins.size(&group.stems)? });
        }
        let measured = plan::weighed_cost(&groups, &sizes, &loads, plan::MODEL.per_request);
        if say {
            println!("a plan of {} files: {modelled} in the model, {measured} measured", groups.len());
        }
        if best.as_ref().is_none_or(|(b, _)| measured < *b) {
            best = Some((measured, groups));
        }
    }
    println!(
        "perch-xtask: planned in {:.1} s, {} joins measured in {:.1} s",
        started.elapsed().as_secs_f64(),
        joins.measured,
        joins.seconds
    );
    Ok(best.ok_or("no plan")?.1)
}

/// A file's size compressed as `scripts/precompress.sh` serves it (brotli,
/// quality 11, by the same program).
fn brotli_size(path: &Path) -> Result<u64, Failure> {
    let output = Command::new("brotli")
        .args(["-q", "11", "-c"])
        .arg(path)
        .output()
        .map_err(|e| format!("brotli: {e} (scripts/setup.sh installs it)"))?;
    if !output.status.success() {
        return Err(format!("brotli failed on {}", path.display()).into());
    }
    Ok(output.stdout.len() as u64)
}

/// Step 4: wasm-opt -Oz on the modules named, in place.
fn optimize(dir: &Path, files: &[String]) -> Result<(), Failure> {
    let version = Command::new("wasm-opt")
        .arg("--version")
        .output()
        .map_err(|e| format!("wasm-opt: {e} (scripts/setup.sh installs it)"))?;
    let version = String::from_utf8_lossy(&version.stdout);
    if !version.starts_with(WASM_OPT_VERSION) {
        return Err(format!("wasm-opt is {:?}, {WASM_OPT_VERSION} is needed (scripts/setup.sh)", version.trim()).into());
    }
    for file in files.iter().filter(|f| f.ends_with(".wasm")) {
        let path = dir.join(file);
        // What trunk ran for the unsplit wasm (`data-wasm-opt="z"`).
        run(Command::new("wasm-opt").arg("-Oz").arg("--output").arg(&path).arg(&path))?;
    }
    Ok(())
}

/// The JS glue and the split loader, minified as trunk minified the glue it
/// made (npm's terser, installed by scripts/setup.sh with wasm-opt).
fn minify(dir: &Path) -> Result<(), Failure> {
    for file in files_of(dir)?.into_iter().filter(|f| f.ends_with(".js")) {
        let path = dir.join(&file);
        run(Command::new("terser")
            .args(["--module", "--compress", "--mangle", "--output"])
            .arg(&path)
            .arg(&path)
            .stdout(std::process::Stdio::null()))
        .map_err(|e| format!("{e} (terser: scripts/setup.sh installs it)"))?;
    }
    Ok(())
}

/// The names of the files in `dir`, sorted.
fn files_of(dir: &Path) -> Result<Vec<String>, Failure> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir)? {
        names.push(entry?.file_name().into_string().map_err(|_| "a file name that is not UTF-8")?);
    }
    names.sort();
    Ok(names)
}

/// Step 5: 16 hex digits of a hash of every file and its name. One folder
/// for all: the main glue and the split loader import each other, so they
/// cannot each carry the other's hash.
fn hash_of(dir: &Path) -> Result<String, Failure> {
    let mut hasher = Sha256::new();
    for name in files_of(dir)? {
        let bytes = fs::read(dir.join(&name))?;
        hasher.update((name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hasher.finalize()[..8].iter().map(|b| format!("{b:02x}")).collect())
}

/// Steps 6 and 7: the staged `index.html` with, before `</head>`:
/// - `window.perchChunks`: every file of the version (the service worker
///   keeps what index.html names), the files of each split module, and the
///   path patterns of [`ENTRIES`]; a script that asks at once for the files
///   of the page being opened;
/// - preloads of the main module and its glue, and the module script that
///   starts the app.
fn with_tags(
    html: &str,
    root: &str,
    base: &str,
    modules: &std::collections::HashMap<String, Vec<String>>,
    files: &[String],
) -> Result<String, Failure> {
    // trunk leaves the link that told it not to build the wasm.
    let html = &match (html.find("<link data-trunk"), html.find("data-trunk-skip")) {
        (Some(start), Some(skip)) if skip > start => {
            let end = start + html[start..].find('>').ok_or("an unclosed link")? + 1;
            format!("{}{}", &html[..start], &html[end..])
        }
        _ => html.to_owned(),
    };
    let at = html.rfind("</head>").ok_or("index.html has no </head>")?;
    let path = |f: &str| format!("{base}{f}");
    let later_groups = later_groups()?;
    let wasm = |stem: &String| path(&format!("{stem}.wasm"));
    let sorted: BTreeMap<_, _> =
        modules.iter().map(|(k, v)| (k.clone(), v.iter().map(wasm).collect::<Vec<_>>())).collect();
    // scripts/size-by-part.sh builds variants with pages taken out.
    let partial = env::var("PERCH_SPLIT_PARTIAL").as_deref() == Ok("1");
    for (_, split) in ENTRIES {
        if !sorted.contains_key(*split) && !partial {
            return Err(format!("no split module {split}: ENTRIES and src/routes/ differ").into());
        }
    }
    let chunks = serde_json::json!({
        "all": files.iter().map(|f| path(f)).collect::<Vec<_>>(),
        "modules": sorted,
        "entries": ENTRIES.iter().map(|(p, s)| [p, s]).collect::<Vec<_>>(),
        "root": root,
        "later": later_groups,
        "after": AFTER_PAINT,
    });
    let js = path(&format!("{APP}.js"));
    let bg = path(&format!("{APP}_bg.wasm"));
    let split_js = path("__wasm_split.js");
    let main = serde_json::json!({ "js": [js.clone(), split_js], "wasm": bg.clone() });
    let tags = format!(
        concat!(
            "<script>window.perchChunks={chunks};window.perchChunks.main={main};{starter}</script>",
            "<script type=\"module\">await window.perchChunks.started;",
            "const{{default:init}}=await import(\"{js}\");",
            "const wasm=await init({{module_or_path:\"{bg}\"}});",
            "dispatchEvent(new CustomEvent(\"TrunkApplicationStarted\",{{detail:{{wasm}}}}));</script>"
        ),
        chunks = chunks,
        main = main,
        starter = STARTER,
        js = js,
        bg = bg,
    );
    Ok(format!("{}{}{}", &html[..at], tags, &html[at..]))
}

/// The split modules whose words come with them (`build.rs`'s
/// `LATER_GROUPS`, the one list: `src/i18n/mod.rs`, "Words by page"): a
/// direct load of one of their pages asks for the later words beside its
/// files.
fn later_groups() -> Result<Vec<String>, Failure> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().ok_or("no workspace")?;
    let text = fs::read_to_string(root.join("build.rs"))?;
    let before = "const LATER_GROUPS: &[&str] =";
    let rest = &text[text.find(before).ok_or("build.rs has no LATER_GROUPS")? + before.len()..];
    // As rustfmt lays it out: on that line or the next.
    let rest = rest.trim_start().strip_prefix("&[").ok_or("build.rs: LATER_GROUPS is not a list")?;
    let list = &rest[..rest.find(']').ok_or("build.rs: LATER_GROUPS is not closed")?];
    let groups: Vec<String> =
        list.split(',').map(|g| g.trim().trim_matches('"').to_owned()).filter(|g| !g.is_empty()).collect();
    if groups.iter().any(|g| !g.chars().all(|c| c.is_ascii_lowercase() || c == '_')) {
        return Err(format!("build.rs: LATER_GROUPS {groups:?}").into());
    }
    Ok(groups)
}

/// The split modules whose own file a page's links do not ask for early
/// (`perchChunks.after`): they come on their own once the page's reads are
/// answered (`routes::watch_activity_after_paint`), and the chunks the
/// planner put in their file (`plan::hosted`) with them.
const AFTER_PAINT: &[&str] = &["background"];

/// Asks for the main module, its glue and loader, and the files of the page
/// being opened (`perchChunks.entries`): at once, or, when `index.html`
/// shows the first screen rendered at build time (`perchFirstScreenDue`),
/// after the first paint, so the page's words are not waiting behind them
/// on a slow network (docs/performance.md). `perchChunks.started` says when
/// the app's module script may import the glue. It also
/// gives the app `perchChunks.fetchLinked()`: called once the first page is
/// drawn, it asks, at low priority, for the files of the pages the page
/// links to, and again as links appear, until every page's files were asked
/// for, but the own files of the modules that come after a page's reads
/// ([`AFTER_PAINT`]). Only once the page has settled (its `load`, then 3 s,
/// then an idle moment): asked at once, they took the slow network from the
/// page's own reads (Lighthouse, Home cold: LCP 3.54 -> 4.00 s; docs/performance.md).
/// A page of a module whose words come later (`perchChunks.later`) asks for
/// them too, once, in the language the start chose (`perchLanguage`).
/// Each file is asked for in a task of its own: a `<link>` that starts a
/// request costs 2-10 ms on a slow phone, and the page's files together
/// made the page's parsing a long task (20-75 ms at 4x CPU, issue 37).
const STARTER: &str = "(function(c){\
var asked={},left=0,ric=window.requestIdleCallback||function(f){setTimeout(f,200)};\
function idle(f){function later(){setTimeout(function(){ric(f)},3000)}\
if(document.readyState==='complete')later();else addEventListener('load',later,{once:true})}\
function ask(rel,split){if(asked[split])return;asked[split]=1;left--;var files=(c.modules[split]||[]).filter(function(f){\
return rel!=='prefetch'||!c.after.some(function(m){return f.endsWith('/split_'+m+'.wasm')})});\
if(c.later.indexOf(split)>=0&&!asked.words&&window.perchLanguage){asked.words=1;files.push('locales/'+window.perchLanguage+'.later.json')}\
files.forEach(function(f){\
setTimeout(function(){var l=document.createElement('link');l.rel=rel;l.as='fetch';l.crossOrigin='anonymous';l.href=f;\
document.head.appendChild(l)})})}\
function page(p){for(var i=0;i<c.entries.length;i++)if(new RegExp(c.entries[i][0]).test(p))return c.entries[i][1]}\
var root=new URL(c.root,location.href).pathname;\
function here(href){var u=new URL(href,location.href);if(u.origin!==location.origin||u.pathname.indexOf(root)!==0)return;\
return page('/'+u.pathname.slice(root.length))}\
c.entries.forEach(function(e){if(!(e[1] in asked)){asked[e[1]]=0;left++}});\
function start(){c.main.js.forEach(function(f){var l=document.createElement('link');l.rel='modulepreload';l.href=f;document.head.appendChild(l)});\
var w=document.createElement('link');w.rel='preload';w.as='fetch';w.type='application/wasm';w.crossOrigin='anonymous';w.href=c.main.wasm;document.head.appendChild(w);\
var now=here(location.href);if(now)ask('preload',now)}\
c.started=window.perchFirstScreenDue&&!document.hidden?new Promise(function(ok){requestAnimationFrame(function(){setTimeout(ok)});\
addEventListener('visibilitychange',ok,{once:true})}).then(start):Promise.resolve(start());\
var waiting=false,watch=null;function scan(){waiting=false;\
document.querySelectorAll('a[href]').forEach(function(a){var s=here(a.href);if(s)ask('prefetch',s)});\
if(left<=0&&watch)watch.disconnect()}\
c.fetchLinked=function(){if(left<=0)return;idle(scan);if(!watch&&window.MutationObserver){\
watch=new MutationObserver(function(){if(!waiting&&left>0){waiting=true;idle(scan)}});\
watch.observe(document.body,{childList:true,subtree:true})}}\
})(window.perchChunks);";

/// Runs a command; a failure says which.
fn run(command: &mut Command) -> Result<(), Failure> {
    let status = command.status().map_err(|e| format!("{:?}: {e}", command.get_program()))?;
    if !status.success() {
        return Err(format!("{:?} failed ({status})", command.get_program()).into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_of_the_map_must_be_a_split_module() {
        let mut modules = std::collections::HashMap::new();
        for (_, split) in ENTRIES {
            modules.insert(split.to_string(), vec![format!("split_{split}")]);
        }
        let html = with_tags("<head></head><body></body>", "/", "/pkg-0/", &modules, &["perch.js".into()]).unwrap();
        assert!(html.contains("\"/pkg-0/split_pages.wasm\""), "{html}");
        // The app's module script imports the glue once the start has asked
        // for the main files (perchChunks.started), which it names.
        assert!(html.find("await window.perchChunks.started").unwrap() < html.find("await import(").unwrap());
        assert!(html.find("await import(").unwrap() < html.find("</head>").unwrap());
        assert!(html.contains("\"wasm\":\"/pkg-0/perch_bg.wasm\""), "{html}");
        assert!(html.contains("perchFirstScreenDue"), "{html}");
        modules.remove("pages");
        assert!(with_tags("<head></head>", "/", "/pkg-0/", &modules, &[]).is_err());
    }
}
