// The app hosted the way the README's "Hosting the app yourself" says, by a
// plain static file server on another origin than the API: the files of
// ../dist, client routes falling back to index.html, a config.json pointing
// at the API's origin, and the Content-Security-Policy `perch-server csp`
// prints for it. Started by playwright.config.ts for hosting.spec.ts.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { extname, join, normalize } from 'node:path';

const port = Number(process.env.PERCH_HOST_PORT);
const apiOrigin = process.env.PERCH_API_ORIGIN;
const server = process.env.PERCH_SERVER_BIN ?? '../target/debug/perch-server';
const dist = new URL('../dist/', import.meta.url).pathname;
const csp = execFileSync(server, ['csp', join(dist, 'index.html'), '--connect', apiOrigin], { encoding: 'utf8' })
  .trim().replace(/^Content-Security-Policy: /, '');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.txt': 'text/plain' };

createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (path === '/config.json') {
    // The application id the API registered for this copy of Perch.
    const theirs = await (await fetch(`${apiOrigin}/config.json`)).json();
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
    res.end(JSON.stringify({ api_base: `${apiOrigin}/api/v1`, application_id: theirs.application_id }));
    return;
  }
  let file = normalize(join(dist, path));
  if (!file.startsWith(dist) || !(await stat(file).then((s) => s.isFile(), () => false))) file = join(dist, 'index.html');
  const headers = { 'content-type': types[extname(file)] ?? 'application/octet-stream' };
  if (file.endsWith('index.html')) Object.assign(headers, { 'content-security-policy': csp, 'cache-control': 'no-cache' });
  res.writeHead(200, headers);
  res.end(await readFile(file));
}).listen(port, '127.0.0.1');
