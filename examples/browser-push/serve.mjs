#!/usr/bin/env node
// Serves the browser-push page and its service worker on http://localhost:8000 with nothing but
// node:http: the browser-bell example's server (../browser-bell/serve.mjs, its settings the same:
// PORT, NOTIFY_GATEWAYS, NOTIFY_USER, NOTIFY_TOKEN) with /service-worker.js added. Against
// `ops/notifyctl dev` as is (its gateways allow this origin and have Web Push on):
//
//   node examples/browser-push/serve.mjs
//
// http://localhost is a secure context, so service workers and the Push API work there without
// https; any other host needs https.
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import { serve } from '../browser-bell/serve.mjs';

serve({
  dir: dirname(fileURLToPath(import.meta.url)),
  name: 'browser-push',
  extra: { '/service-worker.js': ['service-worker.js', 'text/javascript; charset=utf-8'] }, // at the root: its scope is the whole origin
});
