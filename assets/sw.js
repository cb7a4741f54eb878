// Perch's service worker: the app shell without the network, and new
// versions without a cold start.
//
// - On install it reads index.html, and keeps it with every file it names
//   (the hashed wasm, JS glue and CSS, the icon, the catalogs of words): a
//   repeat visit starts even offline.
// - Pages of the app (navigations to a path without a file extension) are
//   answered from the kept index.html at once: the running version starts
//   with no network. Meanwhile the page is asked for (navigation preload);
//   when its index.html differs, every file it names is kept, the new
//   index.html replaces the old, files neither it nor the version before
//   names are dropped (a tab still running the version before finds the
//   pages it has not loaded yet, after a release took them off the server),
//   and each open tab is told ("perch-update-ready"): the app
//   offers to reload, and the next start is the new version, its wasm
//   already here. Other navigations, config.json and the catalogs
//   (locales/): the network first, the kept copy when offline.
// - Hashed files never change: the kept copy first. The wasm is split by
//   page (docs/split.md): index.html names every module of its version
//   (`perchChunks.all`), so all are kept and any page opens offline.
// - The API is never touched here: what Perch shows offline comes from its
//   own memory and drafts, never from a stale answer of someone else's.
//   Where the browser can (static routing), API and sign-in requests and
//   every other origin's go to the network without starting this worker at
//   all, so a page's many API calls do not each wait for it.
'use strict';
const CACHE = 'perch-shell-v1';
const HASHED = /-[0-9a-f]{12,16}(_bg)?\.(wasm|js|css)$|\/pkg-[0-9a-f]{12,16}\/[^/]+$/;

/** The same-origin files an index.html names (href, src, and the loader's paths). */
function filesOf(html) {
  // The interface's words, every language (src/i18n/language.rs lists
  // them), each in its two parts: the start's and the later pages'.
  const languages = ['en', 'de', 'ar'].flatMap((code) => [`/locales/${code}.json`, `/locales/${code}.later.json`]);
  const found = new Set(['/', '/config.json', ...languages]);
  for (const m of html.matchAll(/(?:href|src)=["']?([^"'\s>]+)|["'`](\/[^"'`\s]+\.(?:wasm|js|css|svg|png|webmanifest))["'`]/g)) {
    const path = m[1] ?? m[2];
    const url = new URL(path, self.location.origin);
    if (url.origin === self.location.origin && !url.pathname.startsWith('/api/')) found.add(url.pathname);
  }
  return [...found];
}

/** Keeps `index` unless it is the index.html already kept; `true` when it
 *  was a new one, now kept with its files. */
async function keepShellIfChanged(index) {
  const kept = await caches.match('/');
  if (kept && (await kept.text()) === (await index.clone().text())) return false;
  await keepShell(index);
  return true;
}

/** Tells every open tab of the app that a new version is kept and ready. */
async function tellUpdateReady() {
  for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage({ type: 'perch-update-ready' });
}

/** A page of the app: a path with no file extension, not the API's. */
function isAppPage(url) {
  return !/\.[a-z0-9]+$/i.test(url.pathname);
}

/** The server's own pages under /oauth/ (its sign-in and consent page),
 *  not the app's: /oauth/callback is a page of the app, answered from the
 *  kept index.html like any other (a newcomer's callback starts at once). */
function isServerPage(url) {
  return url.pathname.startsWith('/oauth/') && url.pathname !== '/oauth/callback';
}

/** Requests that go to the network, never through this worker (where the browser supports it). */
async function bypassWorker(event) {
  if (!event.addRoutes || typeof URLPattern === 'undefined') return;
  const here = new URL(self.location.href);
  try {
    await event.addRoutes([
      { condition: { urlPattern: new URLPattern({ pathname: '/api/*' }) }, source: 'network' },
      { condition: { urlPattern: new URLPattern({ pathname: '/oauth/authorise' }) }, source: 'network' },
    ]);
  } catch (unsupported) { return; }
  try {
    await event.addRoutes({
      condition: { not: { urlPattern: new URLPattern({ protocol: here.protocol.slice(0, -1), hostname: here.hostname, port: here.port }) } },
      source: 'network',
    });
  } catch (unsupported) { /* the fetch handler below lets them pass */ }
}

/** Keeps `index` (a Response of index.html) and every file it names; drops
 *  the rest but the files of the version it replaces. */
async function keepShell(index) {
  const cache = await caches.open(CACHE);
  const html = await index.clone().text();
  const files = filesOf(html);
  const before = await cache.match('/');
  const keep = new Set(files);
  if (before) for (const f of filesOf(await before.text())) if (HASHED.test(f)) keep.add(f);
  await cache.put('/', index);
  await Promise.all(files.filter((f) => f !== '/').map(async (f) => {
    if (HASHED.test(f) && (await cache.match(f))) return;
    const res = await fetch(f, { cache: 'no-cache' });
    if (res.ok) await cache.put(f, res);
  }));
  for (const req of await cache.keys()) {
    if (!keep.has(new URL(req.url).pathname)) await cache.delete(req);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    await bypassWorker(event);
    const index = await fetch('/', { cache: 'no-cache' });
    if (index.ok) await keepShell(index);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/') || isServerPage(url)) return;
  if (req.mode === 'navigate') {
    const isHtml = (res) => res.ok && (res.headers.get('content-type') ?? '').startsWith('text/html');
    const fresh = (async () => {
      try { return (await event.preloadResponse) ?? (await fetch(req)); } catch (offline) { return null; }
    })();
    event.respondWith((async () => {
      const kept = isAppPage(url) ? await caches.match('/') : undefined;
      if (kept) {
        // The running version at once; the page's newer version, if any,
        // kept in the background and announced once all of it is here.
        event.waitUntil((async () => {
          const res = await fresh;
          if (res && isHtml(res) && (await keepShellIfChanged(res))) await tellUpdateReady();
        })());
        return kept;
      }
      const res = await fresh;
      if (!res) return (await caches.match('/')) ?? Response.error();
      if (isHtml(res)) event.waitUntil(keepShellIfChanged(res.clone()));
      return res;
    })());
  } else if (HASHED.test(url.pathname)) {
    event.respondWith((async () => (await caches.match(url.pathname)) ?? fetch(req))());
  } else if (url.pathname === '/config.json' || url.pathname.startsWith('/icon') || url.pathname.startsWith('/locales/')) {
    event.respondWith((async () => {
      try {
        const res = await fetch(req);
        if (res.ok) {
          const copy = res.clone();
          event.waitUntil((async () => {
            const cache = await caches.open(CACHE);
            if (await cache.match(url.pathname)) await cache.put(url.pathname, copy);
          })());
        }
        return res;
      } catch (offline) {
        return (await caches.match(url.pathname)) ?? Response.error();
      }
    })());
  }
});
