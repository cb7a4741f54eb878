# Sourced by the benchmarks (bench-timeline.sh, bench-render.sh,
# lighthouse.sh): the release app and the release server, started the same
# way for each. After `prepare_release`: $bin is the server, $work a
# scratch folder removed on exit. `serve_release DB ARGS...` serves dist/
# (or $DIST: another build, for a before and after in one sitting) on
# 127.0.0.1:$PORT from the database DB and returns once it answers.
export PATH="$PWD/end2end/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

prepare_release() {
  # The make targets build the release app first; alone, a missing dist/ is built.
  [ -f dist/index.html ] || trunk build --release
  cargo build --quiet --profile server -p perch-server
  bin=$PWD/target/server/perch-server
  work=$(mktemp -d)
  server=
  trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
}

serve_release() {
  local db=$1
  shift
  "$bin" --db "$db" serve --addr "127.0.0.1:$PORT" --static "${DIST:-dist}" "$@" >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/api/v1/ping" >/dev/null && return; sleep 0.1; done
  echo "the release server did not answer on port $PORT:" >&2
  cat "$work/server.log" >&2
  return 1
}
