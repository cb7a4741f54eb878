#!/usr/bin/env bash
# Benchmark, not a test: search over 5,000 posts kept in the browser, at 4x
# CPU, against the release app and server (end2end/bench/search.mjs;
# docs/performance.md, "Search").
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8098}
. scripts/lib/release-server.sh

prepare_release
db="$work/bench.db"
"$bin" --db "$db" user add ana --display-name "Ana" >/dev/null
ana=$("$bin" --db "$db" token ana | tail -1)
serve_release "$db"
cd end2end && node bench/search.mjs "http://127.0.0.1:$PORT" "$ana" "${RUNS:-3}" "${POSTS:-5000}"
