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
export PATH="$PWD/end2end/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
PORT=${PORT:-8093}
RUNS=${RUNS:-6}

[ -f dist/index.html ] || trunk build --release
cargo build --quiet --profile server -p perch-server
bin=$PWD/target/server/perch-server
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin" --db "$work/demo.db" serve --demo --addr "127.0.0.1:$PORT" --static dist >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/api/v1/ping" >/dev/null && break; sleep 0.1; done
token=$("$bin" --db "$work/demo.db" token mira | tail -1)
cd end2end
node bench/long-tasks.mjs "http://127.0.0.1:$PORT" "$token" / "$RUNS"
node bench/render.mjs "http://127.0.0.1:$PORT" "$token" "$RUNS"
