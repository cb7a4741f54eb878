//! The fixed rule that places the splitter's chunks (docs/split.md, "Where
//! a chunk goes"). The splitter cuts a chunk for every set of split modules
//! that share code. Each chunk goes into the file of the most specific
//! module that every first load needing it already carries: the module
//! carried by the fewest loads among those every such load has (ties: the
//! higher layer, then the name); the main module when no split module is
//! common to them. No chunk is a file of its own, so a page loads the main
//! module and the modules its row carries (`Table::carries`), nothing
//! more; and a chunk's place depends only on who uses it, never on sizes,
//! so an edit moves only the bytes it adds.

use crate::{Table, MAIN};
use std::collections::{BTreeMap, BTreeSet};

/// Where each chunk goes: its host module (or [`MAIN`]) -> the chunks, in
/// the order given. `Err` names a chunk whose users no row names.
pub fn place<'a>(
    table: &Table,
    chunks: impl IntoIterator<Item = (&'a str, &'a BTreeSet<String>)>,
) -> Result<BTreeMap<String, Vec<String>>, String> {
    let loads: Vec<Vec<String>> = table.modules.iter().map(|m| table.carries(m)).collect();
    let carried_by = |module: &str| loads.iter().filter(|l| l.iter().any(|m| m == module)).count();
    let layer = |module: &str| table.module(module).map(|m| m.layer);
    let mut placed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (chunk, users) in chunks {
        if let Some(stranger) = users.iter().find(|u| table.module(u).is_none()) {
            return Err(format!(
                "{chunk} is used by the split module `{stranger}`, which split.toml does not name: add its row"
            ));
        }
        let needing: Vec<&Vec<String>> = loads.iter().filter(|l| l.iter().any(|m| users.contains(m))).collect();
        let mut common: BTreeSet<&String> = needing.first().map(|l| l.iter().collect()).unwrap_or_default();
        for load in &needing[1..] {
            common.retain(|m| load.contains(m));
        }
        let host = common
            .into_iter()
            .min_by(|a, b| {
                (carried_by(a), std::cmp::Reverse(layer(a)), *a).cmp(&(carried_by(b), std::cmp::Reverse(layer(b)), *b))
            })
            .map_or(MAIN.to_owned(), |m| m.to_owned());
        placed.entry(host).or_default().push(chunk.to_owned());
    }
    Ok(placed)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::TEST_TABLE as TABLE;

    fn where_goes(users: &[&str]) -> String {
        let table = Table::parse(TABLE).unwrap();
        let users: BTreeSet<String> = users.iter().map(|u| u.to_string()).collect();
        let placed = place(&table, [("chunk_1", &users)]).unwrap();
        placed.into_keys().next().unwrap()
    }

    #[test]
    fn a_chunk_goes_to_the_most_specific_module_every_load_needing_it_carries() {
        // Sign-in carries only itself: code it shares is the main module's.
        assert_eq!(where_goes(&["page_signin", "page_home"]), MAIN);
        assert_eq!(where_goes(&["page_signin", "app_shell"]), MAIN);
        // Home and a thread share the shell only.
        assert_eq!(where_goes(&["page_home", "pages"]), "app_shell");
        assert_eq!(where_goes(&["app_shell", "page_search"]), "app_shell");
        // Two later pages carry the shared layer: Home does not pay for them.
        assert_eq!(where_goes(&["page_search", "page_lists"]), "background");
        assert_eq!(where_goes(&["background", "page_lists"]), "background");
        // A later page and a first-screen page: the shell.
        assert_eq!(where_goes(&["page_search", "pages"]), "app_shell");
        // A feature on demand comes on any signed-in page.
        assert_eq!(where_goes(&["composing", "page_search"]), "app_shell");
    }

    #[test]
    fn a_chunk_s_place_depends_on_its_users_only() {
        let table = Table::parse(TABLE).unwrap();
        let a: BTreeSet<String> = ["page_search", "page_lists"].iter().map(|u| u.to_string()).collect();
        let b: BTreeSet<String> = ["page_home", "pages"].iter().map(|u| u.to_string()).collect();
        let both = place(&table, [("chunk_1", &a), ("chunk_2", &b)]).unwrap();
        let one = place(&table, [("chunk_2", &b)]).unwrap();
        assert_eq!(both["app_shell"], one["app_shell"]);
        assert_eq!(both["background"], ["chunk_1"]);
    }

    #[test]
    fn a_chunk_of_a_module_the_table_lacks_is_an_error_saying_so() {
        let table = Table::parse(TABLE).unwrap();
        let users: BTreeSet<String> = ["page_new".to_owned()].into();
        let err = place(&table, [("chunk_9", &users)]).unwrap_err();
        assert_eq!(err, "chunk_9 is used by the split module `page_new`, which split.toml does not name: add its row");
    }
}
