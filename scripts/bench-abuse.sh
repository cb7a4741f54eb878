#!/usr/bin/env bash
# Benchmark, not a test: issue 23's attacks and a mixed load against the
# release perch-server on loopback with the demo data
# (end2end/bench/abuse.mjs), then a stop (SIGTERM) with a stalled request
# open, timed. Prints answers by status (5xx must be 0), resident memory
# after each attack and at its peak, and the mixed load's requests per
# second, p50 and p99. Bounded: about 20 s of attacks, $SECONDS_LOAD of load.
# SERVER_BIN=path compares another build (say one from before a change).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/end2end/node_modules/.bin:$HOME/.cargo/bin:$PATH"
PORT=${PORT:-8096}
SECONDS_LOAD=${SECONDS_LOAD:-60}
if [ -z "${SERVER_BIN:-}" ]; then
  cargo build --quiet --profile server -p perch-server
  SERVER_BIN=$PWD/target/server/perch-server
fi
work=$(mktemp -d)
server=
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
db="$work/abuse.db"
"$SERVER_BIN" --db "$db" serve --demo --addr "127.0.0.1:$PORT" --token-requests-per-minute 1000000000 >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/api/v1/ping" >/dev/null && break; sleep 0.1; done
mira=$("$SERVER_BIN" --db "$db" token mira | tail -1)
sam=$("$SERVER_BIN" --db "$db" token sam | tail -1)
(cd end2end && node bench/abuse.mjs "http://127.0.0.1:$PORT" "$server" "$mira" "$sam" "$SECONDS_LOAD")

# A stop with one slow POST open: how long until the process has exited.
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
printf 'POST /api/v1/post HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"content":' "$mira" >&3
sleep 0.5
start=$(date +%s%N)
kill -TERM "$server"
for _ in $(seq 300); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$server" 2>/dev/null; then
  echo "SIGTERM with a slow POST open: still running after 30 s"
else
  echo "SIGTERM with a slow POST open: exited after $(( ($(date +%s%N) - start) / 1000000 )) ms"
fi
exec 3>&-
