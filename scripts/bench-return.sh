#!/usr/bin/env bash
# Benchmark, not a test (issue 68): a return to Home after 30, 300 and 1,500
# posts read, 4x slower CPU (end2end/bench/return.mjs): the main thread's
# time, the document's nodes, the JavaScript heap and the wasm's memory.
# On the release app served by the release server, signed in as an account
# that follows one author with 1,600 posts. BEFORE=dir serves another
# build beside it (on PORT+1), runs alternating. docs/performance.md has
# figures.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8094}
RUNS=${RUNS:-3}
DEPTHS=${DEPTHS:-30,300,1500}
. scripts/lib/release-server.sh

prepare_release
db=$work/return.db
"$bin" --db "$db" user add reader --display-name Reader >/dev/null
"$bin" --db "$db" user add author --display-name Author >/dev/null
serve_release "$db" --token-requests-per-minute 100000
reader=$("$bin" --db "$db" token reader | tail -1)
author=$("$bin" --db "$db" token author | tail -1)
node -e '
const [base, reader, author] = process.argv.slice(1);
const call = (tok, method, path, body) => fetch(`${base}/api/v1${path}`, { method, headers: { Authorization: `Bearer ${tok}`, "Content-Type": "application/json" }, body: body && JSON.stringify(body) }).then((r) => { if (!r.ok) throw new Error(`${path}: ${r.status}`); return r.json(); });
(async () => {
  for (let i = 0; i < 1600; i += 25) await Promise.all(Array.from({ length: 25 }, (_, j) => call(author, "POST", "/post", { content: `Post ${i + j + 1} of a long read, long enough to wrap once or twice on a phone and show as a card would.` })));
  const { uuid } = await call(author, "GET", "/user");
  await call(reader, "POST", `/user/${uuid}/follow`);
})();
' "http://127.0.0.1:$PORT" "$reader" "$author"
bases="http://127.0.0.1:$PORT" tokens="$reader"
if [ -n "${BEFORE:-}" ]; then
  main=$server
  PORT=$((PORT + 1)) DIST=$BEFORE serve_release "$db" --token-requests-per-minute 100000
  before_server=$server
  server=$main
  trap 'kill "$server" "$before_server" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
  bases="$bases,http://127.0.0.1:$((PORT + 1))" tokens="$tokens,$reader"
fi
cd end2end
node bench/return.mjs "$bases" "$tokens" "$RUNS" "$DEPTHS"
