//! The icons: one SVG sprite built at build time from Lucide's icons (npm
//! package `lucide-static`, ISC licence, installed by scripts/setup.sh), and
//! the `<Icon>` that draws one of them. [`Icon::ALL`] is the one list: the
//! build puts exactly these in the sprite (`perch-prerender --icons`, run
//! by perch-xtask), inside `index.html`'s body, so a card's icons need no
//! request and the service worker keeps them with the page.
//!
//! An icon is decoration: its control carries the accessible name (its
//! `aria-label` on a card's controls, `visually-hidden` text or a label
//! elsewhere), the icon is `aria-hidden`.

use leptos::prelude::*;

/// Every icon the app draws, by what it is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    Reply,
    Like,
    Bookmark,
    More,
    Lock,
    Link,
    Mute,
    Home,
    Activity,
    Search,
    Lists,
    Drafts,
    Profile,
    Settings,
    Write,
    SignIn,
    Edit,
    Delete,
}

impl Icon {
    pub const ALL: [Icon; 18] = [
        Icon::Reply,
        Icon::Like,
        Icon::Bookmark,
        Icon::More,
        Icon::Lock,
        Icon::Link,
        Icon::Mute,
        Icon::Home,
        Icon::Activity,
        Icon::Search,
        Icon::Lists,
        Icon::Drafts,
        Icon::Profile,
        Icon::Settings,
        Icon::Write,
        Icon::SignIn,
        Icon::Edit,
        Icon::Delete,
    ];

    /// Lucide's name of the icon: its file in `lucide-static/icons/`, and
    /// the id of its `<symbol>` (after `i-`).
    pub const fn lucide(self) -> &'static str {
        match self {
            Icon::Reply => "message-circle",
            Icon::Like => "heart",
            Icon::Bookmark => "bookmark",
            Icon::More => "ellipsis",
            Icon::Lock => "lock",
            Icon::Link => "link",
            Icon::Mute => "volume-x",
            Icon::Home => "house",
            Icon::Activity => "bell",
            Icon::Search => "search",
            Icon::Lists => "list",
            Icon::Drafts => "notebook-pen",
            Icon::Profile => "user-round",
            Icon::Settings => "settings",
            Icon::Write => "square-pen",
            Icon::SignIn => "log-in",
            Icon::Edit => "pencil",
            Icon::Delete => "trash-2",
        }
    }

    fn href(self) -> String {
        format!("#i-{}", self.lucide())
    }
}

/// One icon from the sprite, at the text's size, in its colour; filled
/// where the CSS says (a pressed Like or Bookmark).
#[component]
pub fn Icon(icon: Icon) -> impl IntoView {
    view! {
        <svg class="icon" aria-hidden="true" focusable="false" viewBox="0 0 24 24">
            <use_ href=icon.href()></use_>
        </svg>
    }
}

/// The sprite `index.html` carries (native builds only: the build runs it):
/// one `<symbol id="i-<name>">` per icon of [`Icon::ALL`], read from
/// `root/end2end/node_modules/lucide-static/icons/`. Each file is Lucide's
/// 24×24 stroke drawing; the stroke's width, caps and joins are set once in
/// the CSS (`.icon`), so they are left out here. The sprite takes no room:
/// `hidden` does nothing on an `<svg>`, so it is 0×0 here and `display:
/// none` in the CSS (a `<use>` still finds a symbol in it).
#[cfg(not(target_arch = "wasm32"))]
pub fn sprite(root: &std::path::Path) -> Result<String, String> {
    let dir = root.join("end2end/node_modules/lucide-static/icons");
    let mut symbols = String::new();
    for icon in Icon::ALL {
        let path = dir.join(format!("{}.svg", icon.lucide()));
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e} (make setup)", path.display()))?;
        symbols.push_str(&symbol(icon.lucide(), &text).ok_or_else(|| format!("{}: not a 24×24 icon", path.display()))?);
    }
    Ok(format!(
        "<svg id=\"perch-icons\" xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" aria-hidden=\"true\">\
         <!-- Lucide icons (lucide-static), ISC licence: /licenses/lucide.txt -->{symbols}</svg>"
    ))
}

/// One Lucide file as a `<symbol>`: what is inside its `<svg>`, each
/// element on one line.
#[cfg(not(target_arch = "wasm32"))]
fn symbol(name: &str, file: &str) -> Option<String> {
    let open = file.find("<svg")?;
    let body_start = open + file[open..].find('>')? + 1;
    let head = &file[open..body_start];
    if !head.contains("viewBox=\"0 0 24 24\"") {
        return None;
    }
    let body_end = file.rfind("</svg>")?;
    let body: String = file[body_start..body_end].lines().map(str::trim).collect::<Vec<_>>().join("");
    // Only drawing elements, with no reference out: nothing that could run
    // or fetch.
    const DRAWING: [&str; 7] = ["path ", "circle ", "rect ", "line ", "polyline ", "polygon ", "ellipse "];
    let drawing_only = body.split('<').skip(1).all(|element| DRAWING.iter().any(|d| element.starts_with(d)));
    if !drawing_only || body.contains("href") || body.contains(" on") {
        return None;
    }
    Some(format!("<symbol id=\"i-{name}\" viewBox=\"0 0 24 24\">{}</symbol>", body.replace(" />", "/>")))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn a_lucide_file_becomes_a_symbol_of_its_drawing() {
        let file = "<!-- @license lucide-static v1 - ISC -->\n<svg\n  class=\"lucide\"\n  viewBox=\"0 0 24 24\"\n  fill=\"none\"\n>\n  <path d=\"M2 9.5\" />\n  <circle cx=\"12\" cy=\"12\" r=\"1\" />\n</svg>\n";
        assert_eq!(
            symbol("heart", file).unwrap(),
            "<symbol id=\"i-heart\" viewBox=\"0 0 24 24\"><path d=\"M2 9.5\"/><circle cx=\"12\" cy=\"12\" r=\"1\"/></symbol>"
        );
    }

    #[test]
    fn a_file_of_another_size_or_with_a_reference_is_refused() {
        assert_eq!(symbol("x", "<svg viewBox=\"0 0 16 16\"><path d=\"M0\"/></svg>"), None);
        assert_eq!(symbol("x", "<svg viewBox=\"0 0 24 24\"><use href=\"https://x\"/></svg>"), None);
        assert_eq!(symbol("x", "<svg viewBox=\"0 0 24 24\"><script>1</script></svg>"), None);
    }
}
