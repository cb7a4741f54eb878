#!/usr/bin/env bash
# Benchmark, not a test: a thread of 200 posts in 4 levels (the post, 15
# replies, 85 below them with one branch of 15, 99 below those), opened and
# expanded at 4x CPU against the release app and server
# (end2end/bench/thread.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8097}
. scripts/lib/release-server.sh

prepare_release
db="$work/bench.db"
for u in ana ben cai; do "$bin" --db "$db" user add "$u" --display-name "${u^}" >/dev/null; done
ana=$("$bin" --db "$db" token ana | tail -1)
ben=$("$bin" --db "$db" token ben | tail -1)
cai=$("$bin" --db "$db" token cai | tail -1)
serve_release "$db"
api="http://127.0.0.1:$PORT/api/v1"
send() { # token content [parent] -> uuid
  local body
  if [ -n "${3:-}" ]; then body="{\"content\":\"$2\",\"parent\":\"$3\"}"; else body="{\"content\":\"$2\"}"; fi
  curl -sf -X POST "$api/post" -H "Authorization: Bearer $1" -H 'Content-Type: application/json' -d "$body" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["uuid"])'
}
root=$(send "$ana" "A long conversation")
level1=(); for i in $(seq 15); do level1+=("$(send "$ben" "reply $i" "$root")"); done
level2=()
for i in $(seq 15); do level2+=("$(send "$cai" "branch reply $i" "${level1[0]}")"); done
for p in "${level1[@]:1}"; do for i in $(seq 5); do level2+=("$(send "$ana" "answer $i" "$p")"); done; done
n=0
for p in "${level2[@]}"; do
  for i in 1 2 3; do [ $n -lt 99 ] && { send "$ben" "deeper $i" "$p" >/dev/null; n=$((n + 1)); }; done
done
cd end2end && node bench/thread.mjs "http://127.0.0.1:$PORT" "$ben" "$root" "${RUNS:-3}"
