// Perch's service worker: the app shell without the network.
//
// - On install it reads index.html, and keeps it with every file it names
//   (the hashed wasm, JS glue and CSS, the icon): a repeat visit starts even
//   offline.
// - Pages (navigations) and config.json: the network first, the kept copy
//   when offline. A fresh index.html is kept with its files, and files no
//   page names any more are dropped.
// - Hashed files never change: the kept copy first.
// - The API is never touched here: what Perch shows offline comes from its
//   own memory and drafts, never from a stale answer of someone else's.
'use strict';
const CACHE = 'perch-shell-v1';
const HASHED = /-[0-9a-f]{12,16}(_bg)?\.(wasm|js|css)$/;

/** The same-origin files an index.html names (href, src, and the loader's paths). */
function filesOf(html) {
  const found = new Set(['/', '/config.json']);
  for (const m of html.matchAll(/(?:href|src)=["']?([^"'\s>]+)|["'`](\/[^"'`\s]+\.(?:wasm|js|css|svg|png|webmanifest))["'`]/g)) {
    const path = m[1] ?? m[2];
    const url = new URL(path, self.location.origin);
    if (url.origin === self.location.origin && !url.pathname.startsWith('/api/')) found.add(url.pathname);
  }
  return [...found];
}

/** Keeps `index` (a Response of index.html) and every file it names; drops the rest. */
async function keepShell(index) {
  const cache = await caches.open(CACHE);
  const html = await index.clone().text();
  const files = filesOf(html);
  await cache.put('/', index);
  await Promise.all(files.filter((f) => f !== '/').map(async (f) => {
    if (HASHED.test(f) && (await cache.match(f))) return;
    const res = await fetch(f, { cache: 'no-cache' });
    if (res.ok) await cache.put(f, res);
  }));
  for (const req of await cache.keys()) {
    if (!files.includes(new URL(req.url).pathname)) await cache.delete(req);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const index = await fetch('/', { cache: 'no-cache' });
    if (index.ok) await keepShell(index);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/oauth/')) return;
  if (req.mode === 'navigate') {
    event.respondWith((async () => {
      try {
        const res = await fetch(req);
        if (res.ok && (res.headers.get('content-type') ?? '').startsWith('text/html')) event.waitUntil(keepShell(res.clone()));
        return res;
      } catch (offline) {
        return (await caches.match('/')) ?? Response.error();
      }
    })());
  } else if (HASHED.test(url.pathname)) {
    event.respondWith((async () => (await caches.match(url.pathname)) ?? fetch(req))());
  } else if (url.pathname === '/config.json' || url.pathname.startsWith('/icon')) {
    event.respondWith((async () => {
      try {
        return await fetch(req);
      } catch (offline) {
        return (await caches.match(url.pathname)) ?? Response.error();
      }
    })());
  }
});
