//! `perch-prerender`: the first screen, rendered at build time from the
//! app's own components and catalogs (docs/prerender.md). Run by
//! `perch-xtask web`; prints one JSON object: for each language, the
//! signed-out sign-in page (header and page) as HTML, and its title.
//! With `--icons` after the root: the icons' SVG sprite.
//!
//! Nothing is known at build time about the server the app will be put in
//! front of: where its name goes, the HTML has `<span data-perch-server>`,
//! which `index.html`'s start fills in before the first paint.
//!
//! Native only: the wasm build of this file is an empty program.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let root = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let root = std::path::Path::new(&root);
    // `--icons`: the icons' sprite instead (`components/icon.rs`).
    let printed = if std::env::args().nth(2).as_deref() == Some("--icons") {
        perch::components::icon::sprite(root)
    } else {
        perch::routes::prerender::every_language(root)
    };
    match printed {
        Ok(json) => println!("{json}"),
        Err(why) => {
            eprintln!("perch-prerender: {why}");
            std::process::exit(1);
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
