#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml): in release builds, writes a brotli
# (quality 11) and a gzip (level 9) twin beside every text or wasm file of
# the staged dist/, so servers send them as they are instead of compressing
# per request at a low quality. perch-server serves them by Accept-Encoding;
# docs/hosting in the README says how other servers can.
set -euo pipefail
[ "${TRUNK_PROFILE:-release}" = release ] || exit 0
dir=${TRUNK_STAGING_DIR:-${1:?usage: precompress.sh DIR}}
command -v brotli >/dev/null || { echo "precompress: brotli is missing (scripts/setup.sh installs it)" >&2; exit 1; }
find "$dir" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.html' \
  -o -name '*.svg' -o -name '*.txt' -o -name '*.json' -o -name '*.webmanifest' \) -print0 |
  while IFS= read -r -d '' f; do
    brotli -q 11 -f -o "$f.br" "$f"
    gzip -9 -n -c "$f" >"$f.gz"
    # A twin that saves nothing (tiny files) is not worth a second copy.
    for twin in "$f.br" "$f.gz"; do
      [ "$(stat -c %s "$twin")" -lt "$(stat -c %s "$f")" ] || rm "$twin"
    done
  done
