#!/usr/bin/env bash
# Benchmark and size check (scripts/size_report.py says what it counts):
# every file of dist/, and the first load of a cold visit to each of
# every page and module, each against its figure in split.toml,
# which `make test` enforces (`--check`). Without --check it builds the
# release bundle first; with it, it measures the dist/ that `make app` built.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != --check ]; then
  log=$(mktemp)
  trunk build --release >"$log" 2>&1 || { cat "$log"; exit 1; }
fi
exec python3 scripts/size_report.py "$@"
