#!/usr/bin/env bash
# Perch's screenshots for docs/look.md (make look): the release app and
# server with the demo data, signed in as mira, at 390 and 1280 px, light
# and dark, in English and Arabic (end2end/bench/look.mjs). Writes
# docs/look/*.png; commit them with the change they show.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8096}
. scripts/lib/release-server.sh

prepare_release
db=$work/look.db
serve_release "$db" --demo
mira=$("$bin" --db "$db" token mira | tail -1)
cd end2end
node bench/look.mjs "http://127.0.0.1:$PORT" "$mira" ../docs/look
