#!/usr/bin/env bash
# Benchmark, not a test: an outbox of N (200) waiting posts drawn and sent
# at 4x CPU, against the release app and server (end2end/bench/outbox.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8099}
. scripts/lib/release-server.sh

prepare_release
db="$work/bench.db"
"$bin" --db "$db" user add writer --display-name "Writer" >/dev/null
token=$("$bin" --db "$db" token writer | tail -1)
serve_release "$db"
cd end2end && node bench/outbox.mjs "http://127.0.0.1:$PORT" "$token" "${N:-200}" "${RUNS:-3}"
