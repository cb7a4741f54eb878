#!/usr/bin/env bash
# Benchmark, not a test: loads perch-server on loopback with wrk and prints
# requests per second, p50 and p99 for three operations against ping in the
# same run, and each one's throughput as a share of ping's. Goal: reads at
# 50 % or more of ping. Bounded: each load runs $SECONDS_EACH seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
SECONDS_EACH=${SECONDS_EACH:-8}
CONNECTIONS=${CONNECTIONS:-32}
PORT=${PORT:-8097}

if ! command -v wrk >/dev/null; then
  echo "Installing wrk from Debian"
  if [ "$(id -u)" = 0 ]; then apt-get install -y -q wrk >/dev/null || { apt-get update -q && apt-get install -y -q wrk; }
  else sudo apt-get install -y -q wrk; fi
fi

cargo build --quiet --profile server -p perch-server
bin=target/server/perch-server
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
db="$work/bench.db"
"$bin" --db "$db" serve --demo --addr "127.0.0.1:$PORT" --token-requests-per-minute 1000000000 >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/api/v1/ping" >/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$PORT/api/v1"
token=$("$bin" --db "$db" token mira | tail -1)
me=$(curl -sf -H "Authorization: Bearer $token" "$base/user" | python3 -c 'import json,sys; print(json.load(sys.stdin)["uuid"])')
post=$(curl -sf -H "Authorization: Bearer $token" "$base/user/$me/posts/1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["posts"][0]["uuid"])')

cat >"$work/auth.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
LUA
cat >"$work/like.lua" <<LUA
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer $token"
LUA

# Prints: requests/s, p50, p99 for one load.
load() {
  local script=$1 url=$2
  wrk --latency -t2 -c"$CONNECTIONS" -d"${SECONDS_EACH}s" ${script:+-s "$script"} "$url" 2>&1 |
    awk '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$NF}
         END {printf "%s %s %s %s\n", rps, p50, p99, bad ? bad : 0}'
}

printf '%-34s %12s %10s %10s %8s %10s\n' request "requests/s" p50 p99 non-2xx "vs ping"
read -r ping_rps p50 p99 bad < <(load "" "$base/ping")
printf '%-34s %12.0f %10s %10s %8s %9.0f%%\n' "GET /ping" "$ping_rps" "$p50" "$p99" "$bad" 100
for spec in "GET /post/{uuid}|$work/auth.lua|$base/post/$post" \
            "GET /user/{uuid}/posts/1|$work/auth.lua|$base/user/$me/posts/1" \
            "POST /post/{uuid}/like|$work/like.lua|$base/post/$post/like"; do
  IFS='|' read -r name script url <<<"$spec"
  read -r rps p50 p99 bad < <(load "$script" "$url")
  printf '%-34s %12.0f %10s %10s %8s %9.0f%%\n' "$name" "$rps" "$p50" "$p99" "$bad" "$(awk -v a="$rps" -v b="$ping_rps" 'BEGIN{print 100*a/b}')"
done
echo "(${CONNECTIONS} connections, ${SECONDS_EACH}s each, 2 wrk threads, server built with --profile server, per-token rate limit raised out of the way)"
