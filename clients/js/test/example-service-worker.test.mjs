// The service worker of examples/browser-push (what a Web Push of Notify shows, and where a click
// leads), run in a node:vm context whose `self` is a fake ServiceWorkerGlobalScope. Here rather than
// in the example, so the build (npm test) keeps the example working.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const SOURCE = readFileSync(fileURLToPath(new URL('../../../examples/browser-push/service-worker.js', import.meta.url)), 'utf8');

/** A window of the app as clients.matchAll gives it; `controlled`: whether navigate() works. */
function fakeWindow(url, { controlled = true } = {}) {
  const w = { url, focused: false, navigatedTo: null, messages: [],
    async focus() { w.focused = true; return w; },
    postMessage(m) { w.messages.push(m); } };
  w.navigate = async (href) => {
    if (!controlled) throw new TypeError('not controlled');
    w.navigatedTo = href;
    return w;
  };
  return w;
}

/** The worker loaded in a scope of its own: the notifications it shows, the windows it opens, its events. */
function worker({ windows = [] } = {}) {
  const handlers = {};
  const shown = [];
  const opened = [];
  const self = {
    location: { origin: 'http://localhost:8000' },
    registration: { scope: 'http://localhost:8000/', showNotification: async (title, options) => { shown.push({ title, ...options }); } },
    clients: { claim: async () => {}, matchAll: async () => windows, openWindow: async (href) => { opened.push(href); return null; } },
    skipWaiting: () => {},
    addEventListener: (type, fn) => { handlers[type] = fn; },
  };
  vm.runInNewContext(SOURCE, { self, URL, Date, Number, String, JSON, console });
  /** Dispatches an event; resolves when everything it handed to waitUntil settled. */
  const dispatch = async (type, fields) => {
    const waits = [];
    handlers[type]({ ...fields, waitUntil: (p) => waits.push(p) });
    await Promise.all(waits);
  };
  const push = (body) => dispatch('push', { data: body === undefined ? null
    : { json: () => (typeof body === 'string' ? JSON.parse(body) : body) } });
  return { handlers, shown, opened, dispatch, push };
}

const event = (extra = {}) => ({ stream: 'u:42', epoch: 'e1', seq: 17, id: 'ord-1:shipped', type: 'order.shipped', class: 'durable',
  data: { title: 'Your order shipped', body: 'ord-1 is on its way' }, occurredAt: '2026-01-02T03:04:05.678Z', ...extra });

describe('examples/browser-push service worker', () => {
  test('a push shows data.title and data.body, tagged with the event id, carrying the event', async () => {
    const w = worker();
    assert.deepEqual(Object.keys(w.handlers).sort(), ['activate', 'install', 'notificationclick', 'push', 'pushsubscriptionchange']);
    await w.push(event());
    assert.equal(w.shown.length, 1);
    const n = w.shown[0];
    assert.equal(n.title, 'Your order shipped');
    assert.equal(n.body, 'ord-1 is on its way');
    assert.equal(n.tag, 'ord-1:shipped', 'a repeated push replaces the notification instead of adding one');
    assert.deepEqual(n.data, event());
    assert.equal(n.timestamp, Date.parse('2026-01-02T03:04:05.678Z'));
  });

  test('every push shows something (userVisibleOnly): no title, truncated, unreadable, empty', async () => {
    const w = worker();
    await w.push(event({ data: { orderId: 'ord-1' } }));
    await w.push({ ...event(), data: undefined, truncated: true });
    await w.push('not json');
    await w.push(undefined);
    assert.deepEqual(w.shown.map((n) => [n.title, n.body, n.tag]), [
      ['order.shipped', '', 'ord-1:shipped'],
      ['New notification', 'Open the app to see it.', 'ord-1:shipped'],
      ['New notification', 'Open the app to see it.', undefined],
      ['New notification', 'Open the app to see it.', undefined],
    ]);
  });

  test('a click opens the app at ?stream=&seq=, or focuses an open window and points it there', async () => {
    const click = (w, data) => {
      const note = { data, closed: false, close() { note.closed = true; } };
      return w.dispatch('notificationclick', { notification: note }).then(() => note);
    };
    const none = worker();
    const note = await click(none, event());
    assert.ok(note.closed);
    assert.deepEqual(none.opened, ['http://localhost:8000/?stream=u%3A42&seq=17']);

    const tab = fakeWindow('http://localhost:8000/');
    const open = worker({ windows: [fakeWindow('https://elsewhere.example/'), tab] });
    await click(open, event());
    assert.ok(tab.focused);
    assert.equal(tab.navigatedTo, 'http://localhost:8000/?stream=u%3A42&seq=17');
    assert.deepEqual(open.opened, []);

    const old = fakeWindow('http://localhost:8000/', { controlled: false }); // opened before the worker was active
    await click(worker({ windows: [old] }), event({ seq: 18 }));
    assert.deepEqual(JSON.parse(JSON.stringify(old.messages)), [{ type: 'notify.open', href: 'http://localhost:8000/?stream=u%3A42&seq=18' }],
      'the page is told instead (a message from the worker\'s realm: compared as JSON)');
  });
});
