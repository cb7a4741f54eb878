#!/usr/bin/env bash
# Benchmark: what a catalog mechanism costs, measured alone. Builds one page
# showing 30 of the app's messages (two with a count, five with a value)
# three ways, with the app's release profile and wasm-opt -Oz, and prints
# each wasm and JS glue, brotli:
#   plain  English compiled in (the baseline);
#   own    the app's src/i18n as it is (catalogs fetched, Intl plurals);
#   li18n  leptos_i18n 0.6 with plurals (catalogs compiled in, ICU4X).
# Downloads leptos_i18n from crates.io the first time. docs/size.md has the
# figures.
set -euo pipefail
cd "$(dirname "$0")/../bench/i18n-size"
keys='["skip_to_content","nav_home","nav_profile","sign_in","find_someone","find","finding","find_no_one","signed_in_as","keyboard_shortcuts","sign_out_of","accounts","switch_to","add_an_account","unsent_drafts_would_go","keep_drafts","discard_drafts","cancel","language","error_network","error_server","error_rate_limited_for","reply","post","replying_to_user","post_text","sending","replies_count","likes_count","load_more"]'
mkdir -p own/locales li18n/locales
node -e '
  const fs = require("fs"); const keys = JSON.parse(process.argv[1]);
  for (const lang of ["en", "de", "ar"]) {
    const all = JSON.parse(fs.readFileSync(`../../locales/${lang}.json`, "utf8"));
    const own = {}, li = {};
    for (const k of keys) {
      own[k] = all[k];
      const conv = (t) => t.replace(/\{(\w+)\}/g, "{{ $1 }}");
      if (typeof all[k] === "string") li[k] = conv(all[k]);
      else for (const [form, t] of Object.entries(all[k])) li[`${k}_${form}`] = conv(t);
    }
    fs.writeFileSync(`own/locales/${lang}.json`, JSON.stringify(own, null, 1));
    fs.writeFileSync(`li18n/locales/${lang}.json`, JSON.stringify(li, null, 1));
  }' "$keys"
cargo build --quiet --release --target wasm32-unknown-unknown -p bench-plain -p bench-own -p bench-li18n
printf '%-8s %12s %12s %12s\n' build 'wasm -Oz' 'wasm br' 'js br'
for name in plain own li18n; do
  out=target/out/$name
  rm -rf "$out"
  wasm-bindgen --out-dir "$out" --target web "target/wasm32-unknown-unknown/release/bench-$name.wasm"
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    -o "$out/opt.wasm" "$out/bench-${name}_bg.wasm"
  printf '%-8s %12d %12d %12d\n' "$name" "$(stat -c %s "$out/opt.wasm")" \
    "$(brotli -q 11 -c "$out/opt.wasm" | wc -c)" "$(brotli -q 11 -c "$out/bench-$name.js" | wc -c)"
done
for lang in en de ar; do
  printf 'catalog %s (own, fetched): %d bytes brotli\n' "$lang" "$(brotli -q 11 -c "own/locales/$lang.json" | wc -c)"
done
