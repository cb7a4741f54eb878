#!/usr/bin/env bash
# Benchmark, not a test: what each page and each part of the shell weighs in
# the first load. It builds the release bundle once per variant of the app
# in a scratch worktree of HEAD, each variant with some pages (routes) or
# parts of the shell taken out, and prints the wasm and JS (brotli) of each.
#
# A page-only build is what a first visit to that page would download if
# the wasm were split perfectly by route: everything it cannot reach is
# gone. (The app is split now, docs/split.md: `make size` prints what each
# entry really loads; these figures sum every module of a variant.) The differences between variants are what a part costs. Builds are
# deterministic, so one build per variant is the whole spread.
# Figures and what they mean: docs/size.md, "What a split could give".
#
#   scripts/size-by-part.sh            every variant (about 45 s each)
#   scripts/size-by-part.sh home all   the variants named
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# trunk, and wasm-opt 132 from npm (scripts/setup.sh installs both).
export PATH="$root/end2end/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
# The scratch builds have a target directory of their own. Sharing the
# repository's would be wrong, not just slower: cargo would take the last
# variant's wasm for the real app's next build, whose sources are older.
# The first run compiles the dependencies once (a few minutes).
export CARGO_TARGET_DIR=$root/target/size-by-part
# A variant may lack a page that index.html's map of split modules names.
export PERCH_SPLIT_PARTIAL=1
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach -q "$work/tree" HEAD

# name @@ routes kept (a regex on the <Route .../> lines of src/routes/mod.rs,
# "-" for none: "/" then shows the not-found page) @@ edits, "file::old=>new"
# separated by ";", where "file::old" alone deletes the lines holding old.
variants=(
  'all@@.@@'
  'home@@path!\("/"\)@@'
  'thread@@"/post/:uuid"@@'
  'profile@@"/user/:id"\)@@'
  'follow-lists@@followers|following@@'
  'signin@@/signin|/oauth/callback@@'
  'no-page@@-@@'
  'no-page-no-header-timeline-shortcuts@@-@@src/routes/mod.rs::<SiteHeader/>;src/routes/mod.rs::HomeTimeline;src/routes/mod.rs::shortcuts::;src/routes/mod.rs::provide_context(help)'
  'router-config-api-store@@-@@src/routes/mod.rs::<SiteHeader/>;src/routes/mod.rs::HomeTimeline;src/routes/mod.rs::shortcuts::;src/routes/mod.rs::provide_context(help);src/routes/mod.rs::offline::;src/routes/mod.rs::navigation::install;src/routes/mod.rs::follow_other_tabs;src/routes/mod.rs::forget_unowned;src/routes/mod.rs::clock::'
  'home-no-composer@@path!\("/"\)@@src/routes/home.rs::<crate::components::composer::Composer/>'
  'home-no-post-list@@path!\("/"\)@@src/routes/home.rs::<Feed list=Signal::from(list);src/routes/home.rs::move |_| home.load_more()=>move |_: leptos::ev::MouseEvent| home.load_more()'
)

build() {
  local spec=$1 name routes edits
  name=${spec%%@@*}
  edits=${spec##*@@}
  routes=${spec#*@@}; routes=${routes%@@*}
  git -C "$work/tree" checkout -q -- src
  (cd "$work/tree" && python3 - "$routes" "$edits" <<'PY'
import re, sys
routes, edits = sys.argv[1], sys.argv[2]
path = 'src/routes/mod.rs'
text = open(path).read()
kept = [l for l in text.split('\n')
        if not l.strip().startswith('<Route ') or (routes != '-' and re.search(routes, l))]
text = '\n'.join(kept)
if routes == '-':
    anchor = '<Routes fallback=NotFound>'
    assert anchor in text, anchor
    text = text.replace(anchor, anchor + '<Route path=path!("/") view=NotFound/>')
open(path, 'w').write(text)
for edit in filter(None, edits.split(';')):
    file, rest = edit.split('::', 1)
    text = open(file).read()
    old, _, new = rest.partition('=>')
    assert old in text, f'{file}: "{old}" is gone; update scripts/size-by-part.sh'
    if new:
        text = text.replace(old, new)
    else:
        text = '\n'.join(l for l in text.split('\n') if old not in l)
    open(file, 'w').write(text)
PY
  )
  local dist=$work/dist-$name log=$work/$name.log
  if ! (cd "$work/tree" && trunk build --release --dist "$dist" >"$log" 2>&1); then
    grep -A12 '^error' "$log" | head -30 >&2
    echo "$name: build failed" >&2
    return 1
  fi
  local wasm js
  # Every module of the split build (docs/split.md), each compressed alone.
  wasm=0 js=0
  for f in "$dist"/pkg-*/*.wasm; do wasm=$((wasm + $(brotli -q 11 -c "$f" | wc -c))); done
  for f in "$dist"/pkg-*/*.js; do js=$((js + $(brotli -q 11 -c "$f" | wc -c))); done
  printf '%-40s %12d %10d\n' "$name" "$wasm" "$js"
}

printf '%-40s %12s %10s\n' variant 'wasm (br)' 'JS (br)'
for spec in "${variants[@]}"; do
  name=${spec%%@@*}
  if [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx "$name"; then
    build "$spec"
  fi
done
