#!/usr/bin/env bash
# Benchmark, not a test: the home timeline in Chromium against the real
# server (release app, optimised server) with one account following 50
# users of 40 posts each. Prints time to the first post, requests and round
# trips before it, and the JS heap after 500 posts (end2end/bench/timeline.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/end2end/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
USERS=${USERS:-50}
PORT=${PORT:-8098}

# `make bench-timeline` builds the release app first; alone, a missing dist/ is built.
[ -f dist/index.html ] || trunk build --release
cargo build --quiet --profile server -p perch-server
bin=$PWD/target/server/perch-server
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
db="$work/bench.db"

# The accounts, made with the server's own command line.
"$bin" --db "$db" user add bench --display-name "Bench Reader" >/dev/null
tokens="{\"bench\": \"$("$bin" --db "$db" token bench | tail -1)\", \"users\": ["
for i in $(seq -w 1 "$USERS"); do
  "$bin" --db "$db" user add "u$i" --display-name "User $i" >/dev/null
  [ "$i" = "$(seq -w 1 "$USERS" | head -1)" ] || tokens+=", "
  tokens+="\"$("$bin" --db "$db" token "u$i" | tail -1)\""
done
echo "$tokens]}" >"$work/tokens.json"

"$bin" --db "$db" serve --addr "127.0.0.1:$PORT" --static dist >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/api/v1/ping" >/dev/null && break; sleep 0.1; done
cd end2end && node bench/timeline.mjs "http://127.0.0.1:$PORT" "$work/tokens.json"
