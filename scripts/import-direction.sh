#!/usr/bin/env bash
# The direction check (`make test-lint`, docs/app.md "Rooms"): in the app,
# imports run one way, from the pages down to the words:
#
#   routes → components → timeline → store → account → api → nav → browser → i18n, text, order, reactive
#
# A file may name (`crate::room…`) its own room and rooms on lower floors,
# never a room on its floor or above. (The timeline reads through the
# store, and the session gives the API client its tokens: each pair is
# ordered so that no two rooms import each other.) `super::` stays inside a room, and
# the wire model is another crate, below everything. lib.rs, main.rs and
# bin/ (the build-time render's program) are the roof: they start the app
# and may name any room.
#
# On the server there is one rule: `state.rs`, `error.rs` and `db.rs` are the
# floor every module stands on, and no module imports the router (`lib.rs`
# or `api/mod.rs`) it is mounted by.
#
# Prints every import that goes the wrong way and fails if there is one.
set -euo pipefail
cd "$(dirname "$0")/.."

floor() {
  case "$1" in
    routes) echo 9 ;;
    components) echo 8 ;;
    timeline) echo 7 ;;
    store) echo 6 ;;
    account) echo 5 ;;
    api) echo 4 ;;
    nav) echo 3 ;;
    browser) echo 2 ;;
    i18n | text | order | reactive | test_rng) echo 1 ;;
    *) echo "" ;;
  esac
}

wrong=0
while IFS= read -r file; do
  rel=${file#src/}
  room=${rel%%/*}
  room=${room%.rs}
  case "$room" in lib | main | bin) continue ;; esac
  own=$(floor "$room")
  if [ -z "$own" ]; then
    echo "$file: the room '$room' has no floor in scripts/import-direction.sh"
    wrong=1
    continue
  fi
  # Every `crate::room` the file names, with its line number.
  while IFS=: read -r line other; do
    [ "$other" = "$room" ] && continue
    theirs=$(floor "$other")
    if [ -z "$theirs" ]; then
      echo "$file:$line: names crate::$other, which has no floor"
      wrong=1
    elif [ "$theirs" -ge "$own" ]; then
      echo "$file:$line: $room (floor $own) imports $other (floor $theirs): an import may only go down"
      wrong=1
    fi
  done < <(grep -no 'crate::[a-z_][a-z_0-9]*' "$file" | sed 's/crate:://')
done < <(find src -name '*.rs' | sort)

# The server: no module imports the router that mounts it.
while IFS= read -r file; do
  case "$file" in server/src/lib.rs | server/src/main.rs | server/src/api/mod.rs) continue ;; esac
  if grep -nE 'crate::(api::)?\{?(router|app|AppState)\b' "$file" | grep -v '^.*//' | grep -q .; then
    grep -nE 'crate::(api::)?\{?(router|app|AppState)\b' "$file" | sed "s|^|$file:|;s|$|   (take AppState from crate::state)|"
    wrong=1
  fi
  if grep -nE 'crate::api::[A-Z_]+\b' "$file" | grep -q .; then
    grep -nE 'crate::api::[A-Z_]+\b' "$file" | sed "s|^|$file:|;s|$|   (a module does not import from the router that mounts it)|"
    wrong=1
  fi
done < <(find server/src -name '*.rs' | sort)

if [ "$wrong" = 0 ]; then
  echo "import direction: every import goes down"
else
  echo "import direction: some imports go the wrong way (docs/app.md, \"Rooms\")" >&2
  exit 1
fi
