# The two commands of the README, and their parts.
#   make run   build the app (release) and serve it with the API and the live demo (demo people act every 20 s) on 127.0.0.1:8080
#   make test  every test: native (model, server), browser unit tests, Playwright end to end
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(CURDIR)/end2end/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export TRUNK_SKIP_VERSION_CHECK := true
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
ADDR ?= 127.0.0.1:8080

.PHONY: run test setup app test-lint test-native test-wasm test-e2e test-openapi test-size size size-i18n bench-render bench-return bench-newcomer bench-server bench-timeline bench-outbox bench-activity bench-thread bench-search bench-abuse lighthouse mutants look

run: setup app
	cargo build --profile server -p perch-server
	./target/server/perch-server serve --db data/perch.db --addr $(ADDR) --static dist --demo --live

# Each step's time is printed as it ends, and all of them at the end: the
# figures of docs/testing.md ("The test command's time") come from there.
TEST_STEPS := setup test-lint test-native test-openapi test-wasm app test-size test-e2e
test:
	@took=""; for step in $(TEST_STEPS); do \
	  start=$$(date +%s); \
	  $(MAKE) --no-print-directory $$step; \
	  secs=$$(( $$(date +%s) - start )); \
	  took="$$took $$step=$${secs}s"; \
	  echo "make test: $$step took $$secs s"; \
	done; \
	echo "make test: every suite passed (seconds per step:$$took)"

setup:
	./scripts/setup.sh

# The release bundle in dist/, as it is deployed. trunk's own backtrace is
# left out (RUST_LIB_BACKTRACE=0): on a failure, the last lines above
# trunk's "hook call to cargo returned a bad status" are perch-xtask's,
# and they say which step failed and why.
app:
	RUST_LIB_BACKTRACE=0 trunk build --release

# The direction of imports (scripts/import-direction.sh, docs/app.md
# "Rooms"); formatting and lints: rustfmt, and clippy with warnings as errors for the
# native crates (every target) and for the app's wasm target (the app crate
# only: never the whole workspace for wasm). A lint is allowed only in the
# code, with a comment saying why.
test-lint:
	./scripts/import-direction.sh
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p perch --target wasm32-unknown-unknown --all-targets -- -D warnings

# Model and server tests; this also builds target/debug/perch-server, which
# the end-to-end tests reuse.
test-native:
	cargo test --workspace

# Schemathesis against the debug server that test-native built: the OpenAPI
# document must describe every answer, and nothing may answer 5xx.
test-openapi:
	./scripts/schemathesis.sh

# Browser unit tests in headless Chromium (the app crate only: never the
# whole workspace for wasm).
test-wasm:
	cargo test -p perch --target wasm32-unknown-unknown

# Playwright against dist/ served by the debug server, axe-core on every page.
test-e2e:
	cargo test --workspace --no-run --quiet
	cd end2end && playwright test

# The size check: the release bundle's first load (brotli) must not grow
# past its recorded limit (scripts/size-report.sh, docs/size.md).
test-size:
	./scripts/size-report.sh --check

# Benchmark, not a test: the size of what a browser downloads.
size: setup
	./scripts/size-report.sh

# Benchmark, not a test: a catalog library (leptos_i18n) against the app's
# own catalog, on one page of 30 messages (docs/size.md, "Languages").
size-i18n: setup
	./scripts/i18n-size.sh

# Benchmark, not a test: long tasks of a cold load of Home, and Home drawn
# again from the store, with a 4x slower CPU (docs/performance.md).
bench-render: setup app
	./scripts/bench-render.sh

# Benchmark, not a test: the server's throughput against ping.
# Benchmark, not a test: a return to Home after 30, 300 and 1,500 posts
# read, 4x CPU (BEFORE=dir: another build beside it, runs alternating).
bench-return: setup app
	./scripts/bench-return.sh

# Benchmark, not a test: a newcomer from Allow on the consent page to Home's
# first post, on a slow phone network at 4x CPU, and where the time goes
# (BEFORE=dir: another build beside it, runs alternating).
bench-newcomer: setup app
	./scripts/bench-newcomer.sh

bench-server:
	./scripts/bench-server.sh

# Benchmark, not a test: issue 23's attacks and a 60 s mixed load on the
# release server: 5xx count, memory, requests/s, p50/p99, time to stop.
bench-abuse: setup
	./scripts/bench-abuse.sh

# Benchmark, not a test: the home timeline in Chromium with 50 follows.
bench-timeline: setup app
	./scripts/bench-timeline.sh

# Benchmark, not a test: an outbox of 200 waiting posts drawn and sent at 4x CPU.
bench-outbox: setup app
	./scripts/bench-outbox.sh

# Benchmark, not a test: the requests and bytes of an activity check
# (nothing changed; 5 of 60 posts replied) and the time from a reply to the
# header's count (docs/activity.md).
bench-activity: setup app
	./scripts/bench-activity.sh

# Benchmark, not a test: a thread of 200 posts in 4 levels opened and
# expanded at 4x CPU (requests before the first reply, the longest task
# while expanding 15, the heap when all is open).
bench-thread: setup app
	./scripts/bench-thread.sh

# Benchmark, not a test: search over 5,000 posts kept in the browser at 4x
# CPU (the index built, each key typed, the longest tasks, the index's size).
bench-search: setup app
	./scripts/bench-search.sh

# Benchmark, not a test: Lighthouse (mobile) on four pages, cold and warm
# cache, 3 runs each, on the release app and server (docs/performance.md).
lighthouse: setup app
	./scripts/lighthouse.sh

# A check, not part of `make test` (about two hours): cargo-mutants 27.1.0,
# pinned, on the server's security code and the wire model; prints the
# score and fails on any mutant no test catches (.cargo/mutants.toml says
# which files, and which mutants are left out and why).
mutants:
	./scripts/mutants.sh

# Not a test: the screenshots of docs/look.md, from the release app on the
# demo data (390 and 1280 px, light and dark, en and ar).
look: setup app
	./scripts/look.sh
