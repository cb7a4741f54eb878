//! The plan of the wasm's files, after the split: where each chunk the
//! splitter cut goes, by split.toml's fixed rule (`perch_split::rule`), and
//! what follows from it: the groups joined into one file (`merge.rs`), the
//! loader's lists of what each split module waits for (`__wasm_split.js`,
//! as the splitter wrote it but for those lists), and the map of each
//! split module's files that index.html carries (docs/split.md).

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The main module's name in a plan: a chunk joined into it is loaded by
/// every page, in the main module's file.
pub const MAIN: &str = perch_split::MAIN;

/// The prefix of a split module's file: `split_<module>.wasm`.
pub const SPLIT_FILE: &str = "split_";

/// One file of the plan: a split module's own file (`split_<module>`) with
/// the chunks that joined it after its own code, or the main module
/// ([`MAIN`]) with the chunks joined into it.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub stems: Vec<String>,
    /// The split modules that load some part of it.
    pub users: BTreeSet<String>,
}

/// The split module whose own file `group` is (`split_<module>`), if it is one.
pub fn host_of(group: &Group) -> Option<&str> {
    group.stems[0].strip_prefix(SPLIT_FILE)
}

/// The rule's placement as the files of the plan: the main module's first,
/// then each split module's own file by name, its chunks in the splitter's
/// order. `users` says who loads each chunk.
pub fn groups(placed: BTreeMap<String, Vec<String>>, users: &HashMap<String, BTreeSet<String>>) -> Vec<Group> {
    let mut groups: Vec<Group> = placed
        .into_iter()
        .map(|(host, mut chunks)| {
            chunks.sort_by_key(|c| number(c));
            let mut loaders: BTreeSet<String> = chunks.iter().flat_map(|c| users[c].iter().cloned()).collect();
            let head = if host == MAIN {
                host
            } else {
                loaders.insert(host.clone());
                format!("{SPLIT_FILE}{host}")
            };
            Group { stems: std::iter::once(head).chain(chunks).collect(), users: loaders }
        })
        .collect();
    groups.sort_by_key(|g| (g.stems[0] != MAIN, g.stems[0].clone()));
    groups
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

    fn modules(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    const LOADER: &str = "import { initSync } from \"./perch.js\";\n\nfunction makeLoad() {}\n\
/* a, b */\nconst __chunk_1 = makeLoad(() => {\n    const src = fetch(new URL(\"./chunk_1.wasm\", import.meta.url));\n}\n, []);\n\
/* a */\nconst __chunk_2 = makeLoad(() => {\n    const src = fetch(new URL(\"./chunk_2.wasm\", import.meta.url));\n}\n, []);\n\
/* b */\nconst __chunk_3 = makeLoad(() => {\n    const src = fetch(new URL(\"./chunk_3.wasm\", import.meta.url));\n}\n, []);\n\
export const __wasm_split_load_b = wrapAsyncCb(makeLoad(() => {\n    const src = fetch(new URL(\"./split_b.wasm\", import.meta.url));\n}\n, [__chunk_1, __chunk_3]));\n\
export const __wasm_split_load_a = wrapAsyncCb(makeLoad(() => {\n    const src = fetch(new URL(\"./split_a.wasm\", import.meta.url));\n}\n, [__chunk_1, __chunk_2]));\n";

    #[test]
    fn the_placement_becomes_the_main_module_first_then_each_module_s_file() {
        let users: HashMap<String, BTreeSet<String>> = [
            ("chunk_10".to_string(), modules(&["x", "y"])),
            ("chunk_2".to_string(), modules(&["x", "z"])),
            ("chunk_3".to_string(), modules(&["s", "x"])),
        ]
        .into();
        let placed = BTreeMap::from([
            ("app_shell".to_string(), vec!["chunk_10".to_string(), "chunk_2".to_string()]),
            (MAIN.to_string(), vec!["chunk_3".to_string()]),
        ]);
        let groups = groups(placed, &users);
        assert_eq!(groups[0].stems, [MAIN, "chunk_3"]);
        assert_eq!(groups[1].stems, ["split_app_shell", "chunk_2", "chunk_10"]);
        assert_eq!(groups[1].users, modules(&["app_shell", "x", "y", "z"]));
    }

    #[test]
    fn the_loader_loads_each_planned_file_once() {
        let groups = [
            Group { stems: vec!["chunk_1".into(), "chunk_2".into()], users: modules(&["a", "b"]) },
            Group { stems: vec!["chunk_3".into()], users: modules(&["b"]) },
        ];
        let js = loader(LOADER, &groups).unwrap();
        // Joined into the main module: not loaded at all.
        let in_main = [
            Group { stems: vec![MAIN.into(), "chunk_3".into()], users: modules(&["b"]) },
            Group { stems: vec!["chunk_1".into(), "chunk_2".into()], users: modules(&["a", "b"]) },
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
    fn a_chunk_in_a_module_file_is_loaded_by_loading_that_module() {
        let groups = [
            Group { stems: vec!["split_a".into(), "chunk_1".into(), "chunk_2".into()], users: modules(&["a", "b"]) },
            Group { stems: vec!["chunk_3".into()], users: modules(&["b"]) },
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
        let groups = [Group { stems: vec!["chunk_1".into(), "chunk_2".into()], users: modules(&["a"]) }];
        let map = HashMap::from([("a".to_string(), vec!["chunk_1".into(), "chunk_2".into(), "split_a".into()])]);
        assert_eq!(files_of_modules(&map, &groups).unwrap()["a"], ["chunk_1", "split_a"]);
    }
}
