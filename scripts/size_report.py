"""The size report of the built dist/ (scripts/size-report.sh runs it).

Reads the split's one declaration, split.toml, and the plan the build wrote
beside index.html (dist/split-plan.json: each split module's files), both
with Python's own parsers. Prints every file raw, gzip and brotli; the plan
as a table (each wasm file, who loads it, its size); then the first load of
a cold visit to each page, brotli: index.html, the main module, its JS glue
and the split loader, the CSS, English's catalog of words (and its later
part for a module whose words are "later"), and the page module's files.

With --check it fails when a page's first load, or a module's own file,
grew past the figure recorded in its split.toml row plus the headroom
stated once there (`headroom_percent`), or when a page loads more than 6
wasm files with what it loads after its paint, or when the icons' sprite
passes 6 kB. A limit is raised only in
the commit that says why the page needs the bytes (docs/size.md).
"""
import gzip, json, os, subprocess, sys, tomllib

MAX_WASM_FILES = 6
# The icons' sprite (issue 69: at most 6 KB brotli).
SPRITE_LIMIT = 6000

def brotli(path):
    return len(subprocess.run(['brotli', '-q', '11', '-c', path], check=True, capture_output=True).stdout)

def kb(b):
    return f"{b / 1000:.1f} kB"

def main():
    check = '--check' in sys.argv
    with open('split.toml', 'rb') as f:
        table = tomllib.load(f)
    try:
        plan = json.load(open('dist/split-plan.json'))
    except FileNotFoundError:
        sys.exit('size report: dist/split-plan.json is missing (build with `make app`: perch-xtask writes it)')
    sizes = {}
    print(f"{'file':<52} {'raw':>10} {'gzip':>10} {'brotli':>10}")
    for root, _, names in sorted(os.walk('dist')):
        # trunk's staging folder (`.stage`) while a build runs is not served.
        if '/.' in root:
            continue
        for name in sorted(names):
            if name.startswith('.') or name.endswith(('.br', '.gz')):
                continue
            path = os.path.join(root, name)
            raw = open(path, 'rb').read()
            sizes[path[len('dist/'):]] = br = brotli(path)
            print(f"{path[5:]:<52} {len(raw):>10} {len(gzip.compress(raw, 9)):>10} {br:>10}")
    pkg = plan['pkg']
    if not os.path.isdir(os.path.join('dist', pkg)):
        sys.exit(f'size report: dist/split-plan.json names {pkg}, which dist/ does not have')
    at = lambda f: f"{pkg}/{f}"
    modules = {m: [at(f) for f in files] for m, files in plan['modules'].items()}
    main_files = [at(f) for f in plan['main']]
    base_files = main_files + [f for f in sizes if f.endswith('.css')] + ['locales/en.json', 'index.html']
    base = sum(sizes[f] for f in base_files)
    headroom = table['headroom_percent']
    limit = lambda recorded: recorded + recorded * headroom // 100
    rows = table['module']
    over, crowded, unrecorded = [], [], []

    print(f"\nthe start every page loads (index.html, the main module, its JS, the CSS, en.json): {kb(base)}")
    print("\nthe plan: each wasm file, who loads it (split.toml's rule, docs/split.md)")
    loaders = {at(plan['main'][0]): ['every page (the main module)']}
    for module, files in modules.items():
        for f in files:
            loaders.setdefault(f, []).append(module)
    print(f"  {'file':<28} {'brotli':>9}  loaded by")
    for f in sorted(loaders, key=lambda f: -sizes[f]):
        print(f"  {f.split('/')[-1]:<28} {kb(sizes[f]):>9}  {', '.join(sorted(loaders[f]))}")

    def against(what, measured, recorded):
        if recorded is None:
            unrecorded.append(what)
            return f"{kb(measured):>9} = {measured} B (no figure recorded)"
        lim = limit(recorded)
        if measured > lim:
            over.append(what)
        said = 'within' if measured <= lim else f"OVER by {kb(measured - lim)}"
        moved = f"{(measured - recorded) / 1000:+.1f} kB"
        return f"{kb(measured):>9} = {measured} B ({moved} on the recorded {kb(recorded)}; limit {kb(lim)}: {said})"

    print(f"\nown files (brotli; limits are the recorded figures + {headroom} %)")
    print(f"  {'main':<16} {against('the main module', sizes[main_files[0]], table.get('main', {}).get('own'))}")
    for row in rows:
        own = at(f"split_{row['name']}.wasm")
        if own in sizes:
            said = against(row['name'] + "'s own file", sizes[own], row.get('own'))
            print(f"  {row['name']:<16} {said}")

    print("\nfirst loads of a cold visit (brotli)")
    shared = [f for row in rows if row['layer'] == 'shared' for f in modules.get(row['name'], [])]
    for row in rows:
        if not row.get('routes'):
            continue
        name = row['name']
        files = modules.get(name, [])
        words = ['locales/en.later.json'] if row['words'] == 'later' else []
        total = base + sum(sizes[f] for f in files + words)
        said = against(name + "'s first load", total, row.get('load'))
        print(f"  {name:<16} {row['routes'][0]:<14} {said}")
        after = [] if row['layer'] == 'start' else [f for f in shared if f not in files]
        wasm = [f for f in main_files + files + after if f.endswith('.wasm')]
        extra = sum(sizes[f] for f in after)
        print(f"  {'':<16} {'':<14} then {kb(extra)} after its paint; {len(wasm)} wasm files in all (at most {MAX_WASM_FILES})")
        if len(wasm) > MAX_WASM_FILES:
            crowded.append(name)
    every = sum(v for k, v in sizes.items() if k.endswith('.wasm'))
    print(f"\nevery wasm file of the version: {kb(every)}")
    # The icons' sprite, inside index.html (src/components/icon.rs): brotli
    # alone, against its fixed limit.
    html = open('dist/index.html', encoding='utf-8').read()
    start, end = html.find('<svg id="perch-icons"'), html.find('</svg>', html.find('<svg id="perch-icons"')) + len('</svg>')
    if start < 0:
        sys.exit('size report: dist/index.html has no icons sprite (<svg id="perch-icons">)')
    sprite = len(subprocess.run(['brotli', '-q', '11', '-c'], input=html[start:end].encode(), check=True, capture_output=True).stdout)
    print(f"the icons' sprite in index.html: {kb(sprite)} = {sprite} B (limit {kb(SPRITE_LIMIT)})")
    if check and sprite > SPRITE_LIMIT:
        sys.exit(f"size check: the icons' sprite is {sprite} B, over its {SPRITE_LIMIT} B")
    if check and crowded:
        sys.exit(f"size check: {', '.join(crowded)} loads more than {MAX_WASM_FILES} wasm files")
    if check and unrecorded:
        sys.exit(f"size check: no figure recorded for {', '.join(unrecorded)}: write `own`/`load` in its split.toml row (the figures above)")
    if check and over:
        sys.exit(f"size check: {', '.join(over)} grew past its limit; cut it, or raise its figure in split.toml in a commit that says why the page needs the bytes")

main()
