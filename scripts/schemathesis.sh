#!/usr/bin/env bash
# Checks that perch-server's OpenAPI document tells the truth: Schemathesis
# generates requests from /api/v1/openapi.json (every check, a fixed seed, 40
# examples an operation) against the debug server on a fresh demo database,
# with a token holding every scope. Fails on any 5xx and on any answer the
# document does not describe. The few refusals no schema can express are
# listed, with their reasons, in scripts/schemathesis.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
server=${PERCH_SERVER_BIN:-target/debug/perch-server}
port=${PERCH_SCHEMATHESIS_PORT:-8095}
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT

"$server" serve --demo --db "$dir/db" --addr "127.0.0.1:$port" > "$dir/server.log" 2>&1 &
pid=$!
# Waits for the server itself to answer (its demo's people are hashed first:
# seconds in a debug build, many more on a busy machine), never for a time:
# a start that gave up after 10 s read an empty database (issue 45).
up=
for _ in $(seq 1200); do
  kill -0 "$pid" 2>/dev/null || { cat "$dir/server.log" >&2; echo "schemathesis: the server did not start" >&2; exit 1; }
  if python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1])" "http://127.0.0.1:$port/api/v1/ping" 2>/dev/null; then up=1; break; fi
  sleep 0.1
done
[ -n "$up" ] || { echo "schemathesis: the server did not answer on port $port in 2 minutes" >&2; exit 1; }
token=$("$server" --db "$dir/db" token mira | tail -1)
.venv-schemathesis/bin/schemathesis --no-color --config-file scripts/schemathesis.toml run \
  "http://127.0.0.1:$port/api/v1/openapi.json" --url "http://127.0.0.1:$port" \
  --checks all --max-examples 40 --seed 20261123 -H "Authorization: Bearer $token"
