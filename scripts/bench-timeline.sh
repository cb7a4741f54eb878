#!/usr/bin/env bash
# Benchmark, not a test: the home timeline in Chromium against the real
# server (release app, optimised server) with one account following 50
# users of 40 posts each. Prints time to the first post, requests and round
# trips before it, and the JS heap after 500 posts (end2end/bench/timeline.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
USERS=${USERS:-50}
PORT=${PORT:-8098}
. scripts/lib/release-server.sh

prepare_release
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

serve_release "$db"
cd end2end && node bench/timeline.mjs "http://127.0.0.1:$PORT" "$work/tokens.json"
