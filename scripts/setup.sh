#!/usr/bin/env bash
# Installs what building, running and testing Perch needs, and only what is
# missing, so it is cheap to run before every build. Nothing here downloads a
# prebuilt binary: Rust tools are compiled from crates.io, the browser comes
# from Debian, wasm-opt and Playwright from the npm registry (no browser
# download). Versions that worked together: ../shared/TOOLCHAIN.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/end2end/node_modules/.bin:$HOME/.cargo/bin:$PATH"

TRUNK_VERSION=0.22.1
DEBIAN_PACKAGES=(chromium chromium-driver brotli)

step() { printf '\n==> %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# The two tools compiled from crates.io (wasm-bindgen-cli, trunk) are build
# tools, run on a few files: what matters is how long they take to compile
# on a new 2-core machine, not how fast they run. trunk's own release profile
# asks for fat LTO in one codegen unit, most of its 20 minutes; these
# overrides (cargo's config outranks a package's profile) build both with
# light optimisation (no LTO, opt-level 1) in parallel units, in one target
# folder, so the crates they share compile once. Figures: docs/testing.md,
# "The test command's time".
tool_install() {
  CARGO_PROFILE_RELEASE_LTO=off \
  CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
  CARGO_PROFILE_RELEASE_DEBUG=0 \
  CARGO_PROFILE_RELEASE_INCREMENTAL=false \
  CARGO_TARGET_DIR="$PWD/target/tools" \
    cargo install "$@"
}

# 0. Room on disk. A clean `make test` writes about NEED_GB GB (target/:
#    the native, wasm and split builds; end2end/node_modules; docs/testing.md,
#    "Disk"); a full disk fails deep in a build with "No space left on device".
#    Said here, first, and not refused: the figure is an estimate.
NEED_GB=9
avail_gb=$(( $(df -Pk . | awk 'NR == 2 { print $4 }') / 1024 / 1024 ))
if [ "$avail_gb" -lt "$NEED_GB" ]; then
  echo "setup: warning: $avail_gb GB free on this disk; a clean make test writes about $NEED_GB GB (docs/testing.md, Disk)." >&2
fi

# 1. The WebAssembly target of the machine's Rust toolchain.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "Adding the Rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 1b. rustfmt and clippy, which `make test` runs (test-lint), and rust-src:
# release builds of the wasm build std again with panics that stop at once
# (xtask/src/main.rs, `build`; docs/size.md, "Panics that stop at once").
for component in rustfmt clippy rust-src; do
  if ! rustup component list --installed | grep -q "^$component"; then
    step "Adding the Rust component $component"
    rustup component add "$component"
  fi
done
# std's own dependencies (compiler_builtins, dlmalloc, hashbrown...) come
# from crates.io the first time a release build asks for them; fetched here
# with the rest, so that the build step (make app) needs no network. Cheap
# when they are there (cargo's retries cover a registry's hiccup).
RUSTC_BOOTSTRAP=1 cargo fetch --quiet --target wasm32-unknown-unknown \
  --manifest-path "$(rustc --print sysroot)/lib/rustlib/src/rust/library/Cargo.toml"

# 2. Chromium and its driver for the browser tests, brotli for the size report.
missing=()
for pkg in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  step "Installing ${missing[*]} from Debian (about a minute)"
  as_root apt-get update -q
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q "${missing[@]}"
fi

# 3. wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock
#    (it also provides wasm-bindgen-test-runner for the browser tests).
wbg_version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$wbg_version" ] || { echo "setup: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
# The split build (xtask, docs/split.md) was tested with exactly this pair:
# the splitter broke on wasm-bindgen 0.2.125 and 0.2.128. A bump of either
# changes the pair here only after `make test` (end2end/tests/split.spec.ts)
# passed with it.
SPLIT_TESTED_WITH="wasm-bindgen 0.2.130, wasm_split_cli_support 0.2.4"
split_version=$(awk '$0 == "name = \"wasm_split_cli_support\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "wasm-bindgen $wbg_version, wasm_split_cli_support $split_version" != "$SPLIT_TESTED_WITH" ]; then
  echo "setup: Cargo.lock has wasm-bindgen $wbg_version and wasm_split_cli_support $split_version;" >&2
  echo "  the split build was tested with $SPLIT_TESTED_WITH (docs/split.md, Versions)." >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wbg_version" ] \
  || [ "$(wasm-bindgen-test-runner --version 2>/dev/null)" != "wasm-bindgen-test-runner $wbg_version" ]; then
  step "Building wasm-bindgen-cli $wbg_version from crates.io (about 1.5 minutes on 2 cores, once)"
  # Not --locked: its lock file pins a crate version the registry no longer has.
  tool_install wasm-bindgen-cli --version "$wbg_version" --no-default-features --force
fi

# 4. trunk, pinned. --ignore-rust-version: its manifest asks for an older rustc
#    than it builds with.
if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  step "Building trunk $TRUNK_VERSION from crates.io (about 5.5 minutes on 2 cores, once)"
  tool_install trunk --version "$TRUNK_VERSION" --locked --ignore-rust-version --no-default-features --features rustls --force
fi

# The tools' build folder is needed only while they compile; a
# later run finds them installed and builds nothing.
rm -rf target/tools

# 5. Node packages from the lock file: Playwright, axe-core, and binaryen's
#    wasm-opt (Debian's is too old and breaks the bundle).
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js 20 or newer is needed for the browser tests (found: $(node --version 2>/dev/null || echo none))." >&2
  exit 1
fi
stamp=end2end/node_modules/.perch-package-lock.json
if ! cmp -s end2end/package-lock.json "$stamp"; then
  step "Installing the end2end npm packages from package-lock.json"
  (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
  cp end2end/package-lock.json "$stamp"
fi

# 6. Schemathesis from PyPI, pinned, in a virtual environment of its own,
#    for the OpenAPI check of `make test` (scripts/schemathesis.sh).
SCHEMATHESIS_VERSION=4.32.5
venv=.venv-schemathesis
if [ "$("$venv/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
  step "Installing schemathesis $SCHEMATHESIS_VERSION from PyPI into $venv (about a minute, once)"
  python3 -m venv "$venv" || { echo "setup: python3 with venv is needed (Debian: python3-venv)" >&2; exit 1; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# A last check, so a broken install is named here rather than deep in a build.
wasm-opt --version | grep -q "version 132" || { echo "setup: wasm-opt 132 not found on PATH" >&2; exit 1; }
test -x /usr/bin/chromium && test -x /usr/bin/chromedriver
echo "setup: toolchain ready (trunk $TRUNK_VERSION, wasm-bindgen $wbg_version, wasm-opt 132, $(/usr/bin/chromium --version 2>/dev/null))"
