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
//! 4. each chunk the splitter cut joins the file split.toml's fixed rule
//!    gives it (`perch_split::rule`, `plan.rs`); wasm-opt shrinks every
//!    file, terser the JS (release);
//!    the served files lose the build's notes to itself (`strip.rs`);
//! 5. the files go to one `pkg-<hash>/` folder named by a hash of them all;
//! 6. the staged `index.html` gets the tags that start the app and the map of
//!    which files each page needs (asked for before the app starts);
//!    and the first screen rendered from the app's components in every
//!    language (`perch-prerender`, docs/prerender.md), and each language's
//!    catalog cut in the words every start reads and the later ones;
//!    (from split.toml: `perch_split::Table`);
//! 7. that map names every file, so the service worker keeps them all, and
//!    `split-plan.json` beside it says which file each module loads, for
//!    `make size`;
//! 8. release files get their brotli and gzip twins (`scripts/precompress.sh`).

mod merge;
mod plan;
mod strip;

use perch_split::{Layer, Table};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

/// The wasm target and the app's binary.
const TARGET: &str = "wasm32-unknown-unknown";
const APP: &str = "perch";
/// The wasm-opt that makes working bundles (Debian's 108 does not): npm's
/// binaryen, installed by scripts/setup.sh.
const WASM_OPT_VERSION: &str = "wasm-opt version 132";
type Failure = Box<dyn std::error::Error>;

fn main() {
    let what = env::args().nth(1).unwrap_or_default();
    let result = match what.as_str() {
        "web" => web(),
        _ => Err("usage: perch-xtask web (run by trunk: see Trunk.toml)".into()),
    };
    if let Err(e) = result {
        eprintln!("perch-xtask: {e}");
        std::process::exit(1);
    }
}

fn web() -> Result<(), Failure> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().ok_or("no workspace")?.to_path_buf();
    let table = Table::read(&root)?;
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
    // PERCH_SPLIT_PARTIAL=1: scripts/size-by-part.sh's variants, pages taken out.
    if env::var("PERCH_SPLIT_PARTIAL").as_deref() != Ok("1") {
        agree(&table, &split.prefetch_map)?;
    }
    bindgen(&main_split, &work)?;
    // PERCH_WASM_OPT=0 keeps the modules as the splitter and wasm-bindgen
    // left them, names and all, for looking inside (twiggy; docs/size.md).
    let opt = release && env::var("PERCH_WASM_OPT").as_deref() != Ok("0");
    let modules = with_app_shell(&table, join_chunks(&table, &work, &main_split, &split.prefetch_map)?);
    // Once, on the files as served: the rule needs no sizes, so nothing is
    // optimised before it joins.
    if opt {
        optimize(&work, &files_of(&work)?)?;
    }
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
    let html = with_tags(&table, &html, &public_url, &base, &modules, &files_of(&work)?)?;
    fs::write(staging.join("split-plan.json"), plan_json(&pkg, &modules)?)?;
    let prerenderer = prerender_binary(&root)?;
    let screens = prerender(&prerenderer, &root, &[])?;
    let sprite = prerender(&prerenderer, &root, &["--icons"])?;
    let html = with_first_screen(&html, &screens)?;
    fs::write(&index, with_icons(&html, sprite.as_str().ok_or("perch-prerender --icons: not text")?)?)?;
    licences(&root, &staging)?;
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
fn prerender(binary: &Path, root: &Path, args: &[&str]) -> Result<serde_json::Value, Failure> {
    let output = Command::new(binary).arg(root).args(args).stderr(std::process::Stdio::inherit()).output()?;
    if !output.status.success() {
        return Err(format!("perch-prerender failed ({})", output.status).into());
    }
    if args.is_empty() {
        Ok(serde_json::from_slice(&output.stdout)?)
    } else {
        Ok(serde_json::Value::String(String::from_utf8(output.stdout)?.trim_end().to_owned()))
    }
}

/// Step 6a: `perch-prerender` built, and where. Built as `cargo test
/// --workspace` builds it (for the app's tests in `tests/`): the same
/// features of every dependency, so `make test` builds the app natively
/// once. `cargo run -p perch` chose other features (only the app's own
/// dependencies, no dev-dependencies) and built every shared dependency
/// and the app a second time: minutes, and a gigabyte of `target/`.
fn prerender_binary(root: &Path) -> Result<PathBuf, Failure> {
    let output = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root)
        .args([
            "test",
            "--workspace",
            "--no-run",
            "--quiet",
            "--test",
            "shell",
            "--message-format=json-render-diagnostics",
        ])
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .stderr(std::process::Stdio::inherit())
        .output()?;
    if !output.status.success() {
        return Err(format!("building perch-prerender failed ({})", output.status).into());
    }
    for line in output.stdout.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let message: serde_json::Value = serde_json::from_slice(line)?;
        if message["reason"] == "compiler-artifact" && message["target"]["name"] == "perch-prerender" {
            if let Some(path) = message["executable"].as_str() {
                return Ok(PathBuf::from(path));
            }
        }
    }
    Err("cargo built no perch-prerender (it comes with the app's tests in tests/)".into())
}

/// Step 6d: the icons' sprite (`perch-prerender --icons`:
/// `src/components/icon.rs`) first in the body, so that `<use
/// href="#i-…">` finds it in the first screen and in the app alike.
fn with_icons(html: &str, sprite: &str) -> Result<String, Failure> {
    if !sprite.starts_with("<svg id=\"perch-icons\"") {
        return Err("perch-prerender --icons: not the sprite".into());
    }
    let body = html.find("<body").ok_or("index.html has no <body>")?;
    let at = body + html[body..].find('>').ok_or("index.html: <body> not closed")? + 1;
    Ok(format!("{}{}{}", &html[..at], sprite, &html[at..]))
}

/// Step 6e: the licences of what the bundle carries from others, in
/// `licenses/` (the sprite names Lucide's).
fn licences(root: &Path, staging: &Path) -> Result<(), Failure> {
    let dir = staging.join("licenses");
    fs::create_dir_all(&dir)?;
    let lucide = root.join("end2end/node_modules/lucide-static/LICENSE");
    fs::copy(&lucide, dir.join("lucide.txt")).map_err(|e| format!("{}: {e} (make setup)", lucide.display()))?;
    Ok(())
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

/// The splitter's modules and split.toml's rows must be the same: a module
/// with no row, or a row the splitter made nothing for, stops the build
/// with what to add (build.rs checked the sources already; this is the
/// wasm's word).
fn agree(table: &Table, map: &HashMap<String, Vec<String>>) -> Result<(), Failure> {
    let mut problems = Vec::new();
    for module in map.keys() {
        if table.module(module).is_none() {
            problems
                .push(format!("the splitter made the module `{module}`, which split.toml does not name: add its row"));
        }
    }
    for module in &table.modules {
        if !map.contains_key(&module.name) {
            problems.push(format!(
                "split.toml names `{}`, which the splitter did not make (no lazy! that is called puts code in it): remove its row",
                module.name
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}

/// Step 4b: each chunk the splitter cut joins the file split.toml's fixed
/// rule gives it (`perch_split::rule`): a split module's own file, or the
/// main module, which wasm-bindgen then runs on again. The loader is told.
/// Answers each split module's files.
fn join_chunks(
    table: &Table,
    work: &Path,
    main_split: &Path,
    map: &HashMap<String, Vec<String>>,
) -> Result<HashMap<String, Vec<String>>, Failure> {
    let started = std::time::Instant::now();
    let mut users: HashMap<String, BTreeSet<String>> = HashMap::new();
    for file in files_of(work)? {
        let Some(stem) = file.strip_suffix(".wasm").filter(|s| s.starts_with("chunk_")) else { continue };
        let of = map.iter().filter(|(_, files)| files.iter().any(|f| f == stem)).map(|(m, _)| m.clone()).collect();
        users.insert(stem.to_owned(), of);
    }
    let placed = perch_split::rule::place(table, users.iter().map(|(c, u)| (c.as_str(), u)))?;
    let groups = plan::groups(placed, &users);
    let ruled = started.elapsed();
    for group in &groups {
        let into_main = group.stems[0] == plan::MAIN;
        let parts_of = if into_main { &group.stems[1..] } else { &group.stems[..] };
        let mut parts = Vec::new();
        for stem in parts_of {
            parts.push(fs::read(work.join(format!("{stem}.wasm")))?);
        }
        for stem in &parts_of[usize::from(!into_main)..] {
            fs::remove_file(work.join(format!("{stem}.wasm")))?;
        }
        if into_main {
            fs::write(main_split, merge::join_into_main(&fs::read(main_split)?, &parts)?)?;
            bindgen(main_split, work)?;
        } else if parts.len() > 1 {
            fs::write(work.join(format!("{}.wasm", group.stems[0])), merge::join(&parts)?)?;
        }
    }
    let loader = work.join("__wasm_split.js");
    fs::write(&loader, plan::loader(&fs::read_to_string(&loader)?, &groups)?)?;
    let planned = started.elapsed();
    for group in &groups {
        println!("perch-xtask: plan: {}.wasm <- {} chunks", group.stems[0], group.stems.len() - 1);
    }
    println!(
        "perch-xtask: {} chunks placed by the rule in {:.3} s, joined in {:.2} s",
        users.len(),
        ruled.as_secs_f64(),
        (planned - ruled).as_secs_f64()
    );
    Ok(plan::files_of_modules(map, &groups)?)
}

/// Each split module's files with the shell's first (split.toml's layer
/// "shell"), but for the start's (layer "start": signed out, the sign-in
/// page draws from the main module's start): what `index.html` fetches for
/// a page and `make size` counts.
fn with_app_shell(table: &Table, mut modules: HashMap<String, Vec<String>>) -> HashMap<String, Vec<String>> {
    let shell: Vec<String> =
        table.of_layer(Layer::Shell).flat_map(|m| modules.get(&m.name).cloned().unwrap_or_default()).collect();
    for (module, files) in modules.iter_mut() {
        let layer = table.module(module).map(|m| m.layer);
        if matches!(layer, Some(Layer::Shell | Layer::Start) | None) {
            continue;
        }
        let own: Vec<String> = files.drain(..).filter(|f| !shell.contains(f)).collect();
        files.extend(shell.iter().cloned());
        files.extend(own);
    }
    modules
}

/// `split-plan.json`, beside `index.html`: the version's folder and each
/// split module's files, for `make size` (scripts/size_report.py).
fn plan_json(pkg: &str, modules: &HashMap<String, Vec<String>>) -> Result<String, Failure> {
    let sorted: BTreeMap<_, _> =
        modules.iter().map(|(k, v)| (k.clone(), v.iter().map(|f| format!("{f}.wasm")).collect::<Vec<_>>())).collect();
    let main = [format!("{APP}_bg.wasm"), format!("{APP}.js"), "__wasm_split.js".to_owned()];
    Ok(serde_json::to_string_pretty(&serde_json::json!({ "pkg": pkg, "main": main, "modules": sorted }))?)
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
///   path patterns of split.toml's routes; a script that asks at once for the files
///   of the page being opened;
/// - preloads of the main module and its glue, and the module script that
///   starts the app.
fn with_tags(
    table: &Table,
    html: &str,
    root: &str,
    base: &str,
    modules: &HashMap<String, Vec<String>>,
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
    let later_groups: Vec<&str> = table.with_words("later").map(|m| m.name.as_str()).collect();
    let after: Vec<&str> = table.of_layer(Layer::Shared).map(|m| m.name.as_str()).collect();
    // What a direct load of a path needs first: each route's pattern and
    // the module that draws it (the main module's need nothing more).
    let entries: Vec<[String; 2]> = table
        .routes()
        .into_iter()
        .filter(|(m, _)| *m != perch_split::MAIN)
        .map(|(m, r)| [Table::pattern(r), m.to_owned()])
        .collect();
    let wasm = |stem: &String| path(&format!("{stem}.wasm"));
    let sorted: BTreeMap<_, _> =
        modules.iter().map(|(k, v)| (k.clone(), v.iter().map(wasm).collect::<Vec<_>>())).collect();
    let partial = env::var("PERCH_SPLIT_PARTIAL").as_deref() == Ok("1");
    for [_, split] in &entries {
        if !sorted.contains_key(split) && !partial {
            return Err(format!("no split module {split}: split.toml and the splitter differ").into());
        }
    }
    let chunks = serde_json::json!({
        "all": files.iter().map(|f| path(f)).collect::<Vec<_>>(),
        "modules": sorted,
        "entries": entries,
        "root": root,
        "later": later_groups,
        "after": after,
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
/// (split.toml's layer "shared"). Only once the page has settled (its `load`, then 3 s,
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

    fn table() -> Table {
        Table::read(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()).unwrap()
    }

    #[test]
    fn every_page_of_the_map_must_be_a_split_module() {
        let table = table();
        let mut modules = HashMap::new();
        for (split, _) in table.routes().into_iter().filter(|(m, _)| *m != perch_split::MAIN) {
            modules.insert(split.to_string(), vec![format!("split_{split}")]);
        }
        let html =
            with_tags(&table, "<head></head><body></body>", "/", "/pkg-0/", &modules, &["perch.js".into()]).unwrap();
        assert!(html.contains("\"/pkg-0/split_pages.wasm\""), "{html}");
        assert!(html.contains(r#"["^/post/[^/]+$","pages"]"#), "{html}");
        assert!(html.contains(r#""later":["page_activity","extras","#), "{html}");
        assert!(html.contains(r#""after":["background"]"#), "{html}");
        // The app's module script imports the glue once the start has asked
        // for the main files (perchChunks.started), which it names.
        assert!(html.find("await window.perchChunks.started").unwrap() < html.find("await import(").unwrap());
        assert!(html.find("await import(").unwrap() < html.find("</head>").unwrap());
        assert!(html.contains("\"wasm\":\"/pkg-0/perch_bg.wasm\""), "{html}");
        assert!(html.contains("perchFirstScreenDue"), "{html}");
        modules.remove("pages");
        assert!(with_tags(&table, "<head></head>", "/", "/pkg-0/", &modules, &[]).is_err());
    }

    #[test]
    fn the_splitter_s_modules_and_the_table_s_rows_must_be_the_same() {
        let table = table();
        let mut map: HashMap<String, Vec<String>> = table.modules.iter().map(|m| (m.name.clone(), vec![])).collect();
        assert!(agree(&table, &map).is_ok());
        map.insert("page_new".into(), vec![]);
        let err = agree(&table, &map).unwrap_err().to_string();
        assert!(
            err.contains("the splitter made the module `page_new`, which split.toml does not name: add its row"),
            "{err}"
        );
        map.remove("page_new");
        map.remove("page_drafts");
        let err = agree(&table, &map).unwrap_err().to_string();
        assert!(err.contains("split.toml names `page_drafts`, which the splitter did not make"), "{err}");
    }

    #[test]
    fn a_page_s_files_start_with_the_shell_s_but_sign_in_s() {
        let modules = HashMap::from([
            ("app_shell".to_string(), vec!["split_app_shell".to_string()]),
            ("page_home".to_string(), vec!["split_app_shell".to_string(), "split_page_home".to_string()]),
            ("page_signin".to_string(), vec!["split_page_signin".to_string()]),
            ("page_drafts".to_string(), vec!["split_background".to_string(), "split_page_drafts".to_string()]),
        ]);
        let files = with_app_shell(&table(), modules);
        assert_eq!(files["page_home"], ["split_app_shell", "split_page_home"]);
        assert_eq!(files["page_drafts"], ["split_app_shell", "split_background", "split_page_drafts"]);
        assert_eq!(files["page_signin"], ["split_page_signin"]);
        assert_eq!(files["app_shell"], ["split_app_shell"]);
    }
}
