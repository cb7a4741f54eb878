#!/usr/bin/env bash
# Benchmark, not a test: Lighthouse's mobile preset on the home timeline, a
# thread, a profile and the sign-in page, cold and warm HTTP cache, signed in
# as the demo user mira, against the release app and the release server with
# the demo data (end2end/bench/lighthouse.mjs). RUNS=3 runs each by default;
# REPORTS=dir keeps every JSON report.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/end2end/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
PORT=${PORT:-8099}

# `make lighthouse` builds the release app first; alone, a missing dist/ is built.
[ -f dist/index.html ] || trunk build --release
cargo build --quiet --profile server -p perch-server
bin=$PWD/target/server/perch-server
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

"$bin" --db "$work/demo.db" serve --demo --addr "127.0.0.1:$PORT" --static dist >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/api/v1/ping" >/dev/null && break; sleep 0.1; done
token=$("$bin" --db "$work/demo.db" token mira | tail -1)
reports=${REPORTS:-}
[ -z "$reports" ] || mkdir -p "$reports"
reports=${reports:+$(cd "$reports" && pwd)}
cd end2end && node bench/lighthouse.mjs "http://127.0.0.1:$PORT" "$token" $reports
