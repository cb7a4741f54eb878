#!/usr/bin/env bash
# Benchmark, not a test: what an activity check costs, against the release
# app and server (end2end/bench/activity.mjs): an account with 60 posts
# and a follower, a replier, RUNS (5) runs at an INTERVAL (10 s) between checks.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8098}
. scripts/lib/release-server.sh

prepare_release
db="$work/bench.db"
"$bin" --db "$db" user add watched --display-name "Watched" >/dev/null
"$bin" --db "$db" user add replier --display-name "Replier" >/dev/null
token=$("$bin" --db "$db" token watched | tail -1)
replier=$("$bin" --db "$db" token replier | tail -1)
serve_release "$db"
api="http://127.0.0.1:$PORT/api/v1"
for i in $(seq 60); do
  curl -sf -X POST "$api/post" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"content\":\"post $i of the watched account\"}" >/dev/null
done
uuid=$(curl -sf "$api/user" -H "Authorization: Bearer $token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["uuid"])')
curl -sf -X POST "$api/user/$uuid/follow" -H "Authorization: Bearer $replier" >/dev/null
cd end2end && node bench/activity.mjs "http://127.0.0.1:$PORT" "$token" "$replier" "${RUNS:-5}" "${INTERVAL:-10}"
