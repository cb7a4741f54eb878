#!/usr/bin/env bash
# Benchmark, not a test: builds the release bundle and prints every file of
# dist/ raw, gzip and brotli, and what a browser downloads on first load
# (wasm + JS + CSS, brotli) against the budget of 150 KB.
set -euo pipefail
cd "$(dirname "$0")/.."
BUDGET_KB=150
log=$(mktemp)
trunk build --release >"$log" 2>&1 || { cat "$log"; exit 1; }
printf '%-44s %10s %10s %10s\n' file raw gzip brotli
first_load=0
while IFS= read -r -d '' f; do
  raw=$(stat -c %s "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  br=$(brotli -q 11 -c "$f" | wc -c)
  printf '%-44s %10d %10d %10d\n' "${f#dist/}" "$raw" "$gz" "$br"
  case "$f" in *.wasm|*.js|*.css) first_load=$((first_load + br)) ;; esac
done < <(find dist -type f -not -name '.*' -not -name '*.br' -not -name '*.gz' -print0 | sort -z)
kb=$(awk -v b="$first_load" 'BEGIN { printf "%.1f", b / 1000 }')
verdict=$(awk -v b="$first_load" -v l="$BUDGET_KB" 'BEGIN { print (b <= l * 1000) ? "within" : "OVER" }')
echo
echo "first load (wasm + js + css, brotli): ${kb} KB of a ${BUDGET_KB} KB budget: ${verdict}"
