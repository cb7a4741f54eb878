#!/usr/bin/env bash
# Benchmark, not a test: Lighthouse's mobile preset on the home timeline, a
# thread, a profile and the sign-in page, in three kinds of visit (cold;
# caches emptied but the local copy kept; warm), signed in as the demo user
# mira, against the release app and the release server with
# the demo data (end2end/bench/lighthouse.mjs). RUNS=3 runs each by default;
# REPORTS=dir keeps every JSON report; PAGES=sign-in and VISITS=cold measure
# only those; FIRST_VISIT=1 makes a cold visit a newcomer's (not signed in);
# DIST=dir serves another build (a before and after, alternated in one
# sitting: docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8099}
. scripts/lib/release-server.sh

prepare_release
serve_release "$work/demo.db" --demo
token=$("$bin" --db "$work/demo.db" token mira | tail -1)
reports=${REPORTS:-}
[ -z "$reports" ] || mkdir -p "$reports"
reports=${reports:+$(cd "$reports" && pwd)}
cd end2end && node bench/lighthouse.mjs "http://127.0.0.1:$PORT" "$token" $reports
