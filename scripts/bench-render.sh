#!/usr/bin/env bash
# Benchmark, not a test: the main thread while the home timeline loads and
# draws, in Chromium with the CPU slowed down 4x, on the release app served
# by the release server with the demo data, signed in as mira.
#   end2end/bench/long-tasks.mjs  a cold first load: blocking time, longest
#                                 task, first post, script time
#   end2end/bench/render.mjs      Home drawn again from the store
# Both print every run, then the median and spread. To compare two builds,
# serve each on its own port and give both to the scripts (see their
# first lines); docs/performance.md has figures.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8093}
RUNS=${RUNS:-6}
. scripts/lib/release-server.sh

prepare_release
serve_release "$work/demo.db" --demo
token=$("$bin" --db "$work/demo.db" token mira | tail -1)
cd end2end
node bench/long-tasks.mjs "http://127.0.0.1:$PORT" "$token" / "$RUNS"
node bench/render.mjs "http://127.0.0.1:$PORT" "$token" "$RUNS"
