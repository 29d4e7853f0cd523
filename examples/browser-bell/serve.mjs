#!/usr/bin/env node
// Serves the browser-bell page on http://localhost:8000 with nothing but node:http. Against
// `ops/notifyctl dev` as is (its gateways allow this origin):
//
//   node examples/browser-bell/serve.mjs
//
// The page imports the client as `@notify/client` through an import map that points at /notify.js,
// which this server answers with the installed package (`npm install @notify/client`, or the
// tarball of `npm pack` in clients/js) or, in this repository without an install, clients/js itself.
//
// Environment (defaults: notifyctl dev's):
//   PORT             8000
//   NOTIFY_GATEWAYS  http://localhost:8081,http://localhost:8082
//   NOTIFY_USER      42
//   NOTIFY_TOKEN     a client JWT for the page; default: minted by `ops/notifyctl token --user $NOTIFY_USER`
//                    (again on every refresh). A real app mints it in its own backend, for its signed-in user.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const PORT = Number(process.env.PORT || 8000);
const GATEWAYS = (process.env.NOTIFY_GATEWAYS || 'http://localhost:8081,http://localhost:8082').split(',').map((s) => s.trim());
const USER = process.env.NOTIFY_USER || '42';

/** The client module: the installed package, else this repository's clients/js. */
function clientFile() {
  try {
    return fileURLToPath(import.meta.resolve('@notify/client'));
  } catch {
    return join(repo, 'clients', 'js', 'notify.js');
  }
}

/** The page's token: NOTIFY_TOKEN, or a fresh one from notifyctl (the dev stack's key). */
function token() {
  if (process.env.NOTIFY_TOKEN) return Promise.resolve(process.env.NOTIFY_TOKEN);
  return new Promise((resolve, reject) => {
    execFile(join(repo, 'ops', 'notifyctl'), ['token', '--user', USER], { cwd: repo, timeout: 60000 }, (err, stdout) => {
      if (err) reject(new Error(`set NOTIFY_TOKEN, or run this from a Notify checkout with ops/notifyctl dev up (${err.message})`));
      else resolve(stdout.trim().split('\n').pop());
    });
  });
}

/**
 * Serves `dir`'s index.html, the client at /notify.js, /config.json and /token, and `extra` files
 * (path → [file in dir, content type]); `name` prefixes the log lines. The browser-push example
 * serves its page and service worker with it.
 */
export function serve({ dir = here, name = 'browser-bell', extra = {} } = {}) {
  const client = clientFile();
  const files = {
    '/': ['index.html', 'text/html; charset=utf-8'],
    '/notify.js': [client, 'text/javascript; charset=utf-8'],
    ...extra,
  };

  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    try {
      if (path === '/config.json') {
        send(res, 200, 'application/json', JSON.stringify({ gateways: GATEWAYS }));
      } else if (path === '/token') {
        send(res, 200, 'text/plain; charset=utf-8', await token()); // the page's token callback, `refresh` or not
      } else if (files[path]) {
        const [file, type] = files[path];
        send(res, 200, type, await readFile(file.startsWith('/') ? file : join(dir, file)));
      } else {
        send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
      }
    } catch (e) {
      console.error(`${name}: ${req.method} ${path}: ${e.message}`);
      send(res, 500, 'text/plain; charset=utf-8', e.message);
    }
  });

  server.listen(PORT, () => {
    console.log(`${name}: http://localhost:${PORT}/ (user ${USER}, gateways ${GATEWAYS.join(', ')})`);
    console.log(`${name}: client ${client}`);
  });
  return server;
}

function send(res, status, type, body) {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serve(); // run as `node serve.mjs`
}
