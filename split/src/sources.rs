//! The checks that the app's sources and `split.toml` agree, read as Rust
//! tokens (`proc-macro2`), never as text: comments and strings cannot fool
//! them. `build.rs` runs [`check`], so a forgotten registration fails the
//! build with a sentence that says what to add:
//! - a route of the router (`path!("…")`) that no row draws;
//! - a row whose module no `lazy! { module, … }` fills (no caller), or a
//!   `lazy!` whose module has no row;
//! - a route drawn by a file whose code is in another module than its row's;
//! - a file marked `//! Words: later.` that puts code in a module whose
//!   words every start reads.
//!
//! The groups of words named nowhere are the table's own check
//! (`Table::problems`).

use crate::{Table, MAIN};
use proc_macro2::{Delimiter, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};

/// What a file says in its first lines when its words come later.
pub const LATER_MARK: &str = "//! Words: later.";

/// What one source file declares that the table must agree with.
#[derive(Debug, Default)]
pub struct Found {
    /// `lazy! { module, fn name … }`: the modules it puts code in.
    pub lazy: BTreeSet<String>,
    /// `<Route path=path!("…") view=file::Page/>`: each path and the file
    /// (a module of `src/routes/`) whose component draws it.
    pub routes: Vec<(String, Option<String>)>,
    /// `t::key`: the messages it names.
    pub words: BTreeSet<String>,
    /// Whether its first lines say [`LATER_MARK`].
    pub later_mark: bool,
}

/// Reads one file's tokens. `Err` when it is not Rust.
pub fn scan(text: &str) -> Result<Found, String> {
    let tokens: TokenStream = text.parse().map_err(|e| format!("not Rust tokens: {e:?}"))?;
    let mut found = Found {
        later_mark: text.lines().take_while(|l| l.starts_with("//!")).any(|l| l.trim() == LATER_MARK),
        ..Found::default()
    };
    walk(tokens, &mut found);
    Ok(found)
}

fn walk(tokens: TokenStream, found: &mut Found) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Ident(ident) => {
                let bang = matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
                let next = trees.get(i + 2);
                if ident == "lazy" && bang {
                    if let Some(TokenTree::Group(g)) = next {
                        if let Some(TokenTree::Ident(module)) = g.stream().into_iter().next() {
                            found.lazy.insert(module.to_string());
                        }
                    }
                } else if ident == "path" && bang {
                    if let Some(TokenTree::Group(g)) =
                        next.filter(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis))
                    {
                        if let Some(TokenTree::Literal(lit)) = g.stream().into_iter().next() {
                            let path = lit.to_string().trim_matches('"').to_owned();
                            found.routes.push((path, view_file(&trees[i + 3..])));
                        }
                    }
                } else if ident == "t" && is_path_sep(&trees, i + 1) {
                    if let Some(TokenTree::Ident(key)) = trees.get(i + 3) {
                        found.words.insert(key.to_string());
                    }
                }
            }
            TokenTree::Group(g) => walk(g.stream(), found),
            _ => {}
        }
    }
}

/// `::` at `at`.
fn is_path_sep(trees: &[TokenTree], at: usize) -> bool {
    matches!((trees.get(at), trees.get(at + 1)), (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':')
}

/// After a route's `path!(…)`: `view = file :: Page` names `file`.
fn view_file(after: &[TokenTree]) -> Option<String> {
    let at = after.iter().position(|t| matches!(t, TokenTree::Ident(i) if i == "view"))?;
    if at > 2 {
        return None;
    }
    match (after.get(at + 1), after.get(at + 2)) {
        (Some(TokenTree::Punct(eq)), Some(TokenTree::Ident(file)))
            if eq.as_char() == '=' && is_path_sep(after, at + 3) =>
        {
            Some(file.to_string())
        }
        _ => None,
    }
}

/// Every disagreement between `files` (a path under `src/` and what it
/// declares) and `table`, each as a sentence saying what to add or change.
pub fn check(table: &Table, files: &BTreeMap<String, Found>) -> Vec<String> {
    let mut problems = Vec::new();
    let rows: BTreeSet<&str> = table.modules.iter().map(|m| m.name.as_str()).collect();
    let mut filled: BTreeSet<&str> = BTreeSet::new();
    for (path, found) in files {
        for module in &found.lazy {
            filled.insert(module);
            if !rows.contains(module.as_str()) {
                problems.push(format!(
                    "{path} puts code in the split module `{module}` (lazy!), which split.toml does not name: add a row [[module]] name = \"{module}\" with its layer, routes and words"
                ));
            }
            if found.later_mark && table.module(module).is_some_and(|m| m.words != "later") {
                problems.push(format!(
                    "{path} says \"{LATER_MARK}\" but puts code in `{module}`, whose words are \"{}\": move the code, drop the mark, or give `{module}` words = \"later\"",
                    table.module(module).map_or("", |m| m.words.as_str())
                ));
            }
        }
    }
    for module in &table.modules {
        if !filled.contains(module.name.as_str()) {
            problems.push(format!(
                "split.toml names the module `{}`, which no `lazy! {{ {}, … }}` in src/ puts code in (no caller): write the lazy! that fills it, or remove its row",
                module.name, module.name
            ));
        }
    }
    let drawn: BTreeMap<&str, &str> = table.routes().into_iter().map(|(m, r)| (r, m)).collect();
    for (path, found) in files {
        for (route, file) in &found.routes {
            let Some(&module) = drawn.get(route.as_str()) else {
                let hint = file
                    .as_ref()
                    .and_then(|f| files.get(&format!("src/routes/{f}.rs")))
                    .and_then(|f| f.lazy.iter().next())
                    .map_or(String::new(), |m| format!(" (its page's code is in `{m}`)"));
                problems.push(format!(
                    "the router's route \"{route}\" ({path}) is drawn by no module of split.toml: add \"{route}\" to the routes of the module that draws it{hint}"
                ));
                continue;
            };
            let Some(view) = file.as_ref().and_then(|f| files.get(&format!("src/routes/{f}.rs"))) else { continue };
            let agrees = if module == MAIN { view.lazy.is_empty() } else { view.lazy.contains(module) };
            if !agrees {
                problems.push(format!(
                    "the route \"{route}\" is drawn by src/routes/{}.rs, whose code is in {:?}, but split.toml gives it to `{module}`: move the route to that module's row",
                    file.as_deref().unwrap_or(""),
                    view.lazy
                ));
            }
        }
    }
    let routed: BTreeSet<&str> = files.values().flat_map(|f| f.routes.iter().map(|(r, _)| r.as_str())).collect();
    for (module, route) in table.routes() {
        if !routed.contains(route) {
            problems.push(format!(
                "split.toml gives `{module}` the route \"{route}\", which the router (src/routes/mod.rs) does not have: add the route, or remove it from the row"
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::TEST_TABLE as TABLE;

    fn sources(extra: &[(&str, &str)]) -> BTreeMap<String, Found> {
        let mut files = vec![
            (
                "src/routes/mod.rs",
                r#"lazy! { app_shell, fn app_shell() { view! { <Routes>
                    <Route path=path!("/") view=home::HomePage/>
                    <Route path=path!("/post/:uuid") view=thread::Thread/>
                    <Route path=path!("/search") view=search::SearchPage/>
                    <Route path=path!("/lists") view=lists::ListsPage/>
                    <Route path=path!("/drafts") view=drafts::DraftsPage/>
                    <Route path=path!("/signin") view=signin::SignIn/>
                    <Route path=path!("/oauth/callback") view=oauth_callback::OAuthCallback/>
                </Routes> } } }
                lazy! { background, fn background_work() {} }"#,
            ),
            ("src/routes/home.rs", "lazy! { page_home, fn home_page() { t::home_title() } }"),
            ("src/routes/thread.rs", "lazy! { pages, fn thread_page() { crate::i18n::t::post_by() } }"),
            ("src/routes/search.rs", "//! Search.\n//! Words: later.\nlazy! { page_search, fn search_page() {} }"),
            ("src/routes/lists.rs", "//! Words: later.\nlazy! { page_lists, fn lists_page() {} }"),
            (
                "src/routes/drafts.rs",
                "//! Drafts.\n//! Words: later.\nlazy! { page_drafts, fn drafts_page() { t::drafts() } }",
            ),
            ("src/routes/signin.rs", "lazy! { page_signin, fn signin_page() {} }"),
            ("src/components/mention.rs", "lazy! { composing, fn mention_list() {} }"),
            (
                "src/routes/oauth_callback.rs",
                "/// lazy! { page_home, fn not_code() {} }\nfn callback() { \"path!(\\\"/x\\\")\" }",
            ),
        ];
        files.extend_from_slice(extra);
        files.into_iter().map(|(p, t)| (p.to_owned(), scan(t).unwrap())).collect()
    }

    fn problems(table: &str, extra: &[(&str, &str)]) -> Vec<String> {
        check(&Table::parse(table).unwrap(), &sources(extra))
    }

    #[test]
    fn sources_that_agree_with_the_table_pass_and_comments_or_strings_count_for_nothing() {
        assert_eq!(problems(TABLE, &[]), Vec::<String>::new());
        let found = sources(&[]);
        assert!(found["src/routes/oauth_callback.rs"].lazy.is_empty());
        assert!(found["src/routes/drafts.rs"].later_mark);
        assert_eq!(found["src/routes/home.rs"].words, BTreeSet::from(["home_title".to_owned()]));
        // A message named through its whole path counts too.
        assert_eq!(found["src/routes/thread.rs"].words, BTreeSet::from(["post_by".to_owned()]));
    }

    #[test]
    fn a_route_no_module_draws_fails_and_says_what_to_add() {
        let table = TABLE.replace("routes = [\"/drafts\"]\n", "");
        let p = problems(&table, &[]);
        assert!(
            p.iter().any(|p| p.contains(
                "the router's route \"/drafts\" (src/routes/mod.rs) is drawn by no module of split.toml: add \"/drafts\" to the routes of the module that draws it (its page's code is in `page_drafts`)"
            )),
            "{p:?}"
        );
    }

    #[test]
    fn a_module_with_no_caller_fails_and_says_what_to_do() {
        let table = format!("{TABLE}[[module]]\nname = \"page_gone\"\nlayer = \"page\"\nwords = \"later\"\n");
        let p = problems(&table, &[]);
        assert!(
            p.iter().any(|p| p.contains("split.toml names the module `page_gone`, which no `lazy! { page_gone, … }` in src/ puts code in (no caller)")),
            "{p:?}"
        );
    }

    #[test]
    fn a_lazy_module_without_a_row_fails_and_says_what_to_add() {
        let p = problems(TABLE, &[("src/components/new.rs", "lazy! { page_new, fn new_page() {} }")]);
        assert!(
            p.iter().any(|p| p.contains("src/components/new.rs puts code in the split module `page_new` (lazy!), which split.toml does not name: add a row")),
            "{p:?}"
        );
    }

    #[test]
    fn a_route_given_to_another_module_than_its_page_s_fails() {
        let table =
            TABLE.replace("routes = [\"/drafts\"]\n", "").replace("routes = [\"/\"]", "routes = [\"/\", \"/drafts\"]");
        let p = problems(&table, &[]);
        assert!(p.iter().any(|p| p.contains("the route \"/drafts\" is drawn by src/routes/drafts.rs, whose code is in {\"page_drafts\"}, but split.toml gives it to `page_home`")), "{p:?}");
    }

    #[test]
    fn a_route_of_the_table_the_router_lacks_fails() {
        let table = TABLE.replace("routes = [\"/\"]", "routes = [\"/\", \"/home\"]");
        let p = problems(&table, &[]);
        assert!(
            p.iter().any(|p| p.contains("split.toml gives `page_home` the route \"/home\", which the router")),
            "{p:?}"
        );
    }

    #[test]
    fn later_words_in_a_module_whose_words_every_start_reads_fail() {
        let p = problems(TABLE, &[("src/components/x.rs", "//! Words: later.\nlazy! { page_home, fn x() {} }")]);
        assert!(
            p.iter().any(|p| p.contains("src/components/x.rs says \"//! Words: later.\" but puts code in `page_home`")),
            "{p:?}"
        );
    }
}
