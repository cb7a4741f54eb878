#!/usr/bin/env bash
# Benchmark, not a test (issue 68, point 4): a newcomer's first Home, from
# Allow on the consent page to the first post, on Lighthouse's slow phone
# network at 4x CPU (end2end/bench/newcomer.mjs: each run's total, then
# where the time went). On the release app served by the release server;
# each run a new account with a password, following three people with 20
# posts each. BEFORE=dir serves another build beside it (on PORT+1), runs
# alternating. THROTTLE=proxy: the slow network is a proxy in front of the
# server, not DevTools' throttling (end2end/bench/newcomer.mjs says why).
# docs/performance.md has figures.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8095}
RUNS=${RUNS:-5}
. scripts/lib/release-server.sh

prepare_release
db=$work/newcomer.db
for a in 1 2 3; do "$bin" --db "$db" user add "author$a" --display-name "Author $a" >/dev/null; done
count=$((RUNS * 2))
users=()
for i in $(seq "$count"); do
  "$bin" --db "$db" user add "newcomer$i" --display-name "Newcomer $i" --password perch-demo >/dev/null
  users+=("newcomer$i")
done
# Both servers share the database: each accepts the other's callback.
# (THROTTLE=proxy: and the slow proxies' addresses, PORT+10 and PORT+11.)
urls=()
for p in "$PORT" $((PORT + 1)) $((PORT + 10)) $((PORT + 11)); do urls+=(--public-url "http://127.0.0.1:$p"); done
serve_release "$db" "${urls[@]}"
tokens=()
for i in $(seq "$count"); do tokens+=("$("$bin" --db "$db" token "newcomer$i" | tail -1)"); done
authors=()
for a in 1 2 3; do authors+=("$("$bin" --db "$db" token "author$a" | tail -1)"); done
node -e '
const [base, authors, readers] = [process.argv[1], process.argv[2].split(","), process.argv[3].split(",")];
const call = (tok, method, path, body) => fetch(`${base}/api/v1${path}`, { method, headers: { Authorization: `Bearer ${tok}`, "Content-Type": "application/json" }, body: body && JSON.stringify(body) }).then((r) => { if (!r.ok) throw new Error(`${path}: ${r.status}`); return r.json(); });
(async () => {
  for (const [a, tok] of authors.entries()) {
    await Promise.all(Array.from({ length: 20 }, (_, i) => call(tok, "POST", "/post", { content: `Post ${i + 1} by author ${a + 1}, a few words long, as a first Home shows them.` })));
    const { uuid } = await call(tok, "GET", "/user");
    for (const r of readers) await call(r, "POST", `/user/${uuid}/follow`);
  }
})();
' "http://127.0.0.1:$PORT" "$(IFS=,; echo "${authors[*]}")" "$(IFS=,; echo "${tokens[*]}")"
half=$(IFS=,; echo "${users[*]:0:RUNS}")
bases="http://127.0.0.1:$PORT" list="$half"
if [ -n "${BEFORE:-}" ]; then
  main=$server
  PORT=$((PORT + 1)) DIST=$BEFORE serve_release "$db" "${urls[@]}"
  before_server=$server
  server=$main
  trap 'kill "$server" "$before_server" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
  bases="$bases,http://127.0.0.1:$((PORT + 1))" list="$list;$(IFS=,; echo "${users[*]:RUNS}")"
fi
cd end2end
node bench/newcomer.mjs "$bases" "$list" "$RUNS"
