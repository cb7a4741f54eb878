#!/usr/bin/env bash
# A check, not part of `make test` (about two and a half hours on 2 cores):
# mutation testing of the server's security code and of the wire model with
# cargo-mutants, pinned. Each mutant is a small change to the code (a `<`
# made `>`, a function that returns a constant); a mutant no test fails on
# is a defence no test holds in place. Which files, and which mutants are
# left out and why: .cargo/mutants.toml; scores: docs/testing.md.
#
# Prints the score per crate and every missed mutant; fails if any was
# missed or timed out. Extra arguments go to cargo-mutants: for example
# `-p perch-model` for the model only (about 10 minutes), or
# `-F server/src/tokens.rs` for the mutants of one file (a regex on their
# names; `-f` adds to the configured files instead of narrowing them).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

MUTANTS_VERSION=27.1.0
if [ "$(cargo mutants --version 2>/dev/null)" != "cargo-mutants $MUTANTS_VERSION" ]; then
  printf '\n==> Building cargo-mutants %s from crates.io (about 5 minutes, once)\n' "$MUTANTS_VERSION"
  cargo install cargo-mutants --version "$MUTANTS_VERSION" --locked --force
fi

out=target/mutants
mkdir -p "$out"
# The exit code says only whether something was missed; the lists below say what.
cargo mutants --workspace --no-shuffle -o "$out" "$@" || true
results="$out/mutants.out"
[ -f "$results/outcomes.json" ] || { echo "mutants: cargo-mutants wrote no results" >&2; exit 1; }

count() { grep -c "^$2" "$results/$1.txt" || true; }
printf '\n%-12s %8s %8s %8s %8s %8s\n' crate caught missed timeout unviable score
for crate in model server; do
  caught=$(count caught "$crate/") missed=$(count missed "$crate/")
  timeout=$(count timeout "$crate/") unviable=$(count unviable "$crate/")
  viable=$((caught + missed + timeout))
  score=$([ "$viable" -gt 0 ] && echo "$((100 * caught / viable)) %" || echo -)
  printf '%-12s %8d %8d %8d %8d %8s\n' "$crate" "$caught" "$missed" "$timeout" "$unviable" "$score"
done
if [ -s "$results/missed.txt" ] || [ -s "$results/timeout.txt" ]; then
  echo; echo "Missed (no test fails on these changes):"; cat "$results/missed.txt" "$results/timeout.txt"
  exit 1
fi
echo "mutants: every mutant is caught or excluded with its reason"
