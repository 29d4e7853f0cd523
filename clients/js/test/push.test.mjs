// Unit tests of client.push (clients/js/notify.js, docs/push.md) on Node's built-in test runner:
// the gateway's push API is a fake that keeps the user's registrations (fetch), the browser's
// service workers and Push API a fake (fakes.mjs fakeServiceWorker), injected through connect().
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { pushUrl, PushError, InboxError, INBOX_RETRIES } from '../notify.js';
import { tick, TOKEN, harness, fakeServiceWorker, FakePushSubscription } from './fakes.mjs';

/** The gateway's VAPID public key (a P-256 point, base64url): what GET /v1/push/config names. */
const VAPID = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 9)]).toString('base64url');
const OTHER_KEY = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 3)]).toString('base64url');

/** The id the gateway derives from an address (PushRegistration.idOf). */
const idOf = (provider, address) => 'pr_' + createHash('sha256').update(`${provider}\n${address}`).digest('base64url').slice(0, 22);

/**
 * The gateway: tickets, and the push API over a map of the user's registrations — config (`key`,
 * null: Web Push off), POST (201, the same id for the same address), GET, DELETE (204, 404). A
 * scripted answer `{ status, body, headers }` queued in `fetch.script` is answered first. Every push
 * call is recorded in `fetch.push()` as { method, path, body, headers }; `log` gets `METHOD path`.
 */
function pushGateway({ key = VAPID, log = [] } = {}) {
  const registrations = new Map();
  const calls = [];
  const fetch = async (url, init) => {
    if (url.endsWith('/v1/tickets')) return { status: 201, json: async () => ({ ticket: 't', expiresIn: 30 }) };
    const path = new URL(url).pathname;
    const call = { url, method: init.method, path, headers: init.headers, body: init.body ? JSON.parse(init.body) : undefined };
    calls.push(call);
    log.push(`${init.method} ${path}`);
    const answer = (status, body, headers = {}) => ({ status, headers: { get: (k) => headers[k] ?? null },
      json: async () => { if (body === undefined) throw new SyntaxError('no body'); return body; } });
    const scripted = fetch.script.shift();
    if (scripted) return answer(scripted.status, scripted.body, scripted.headers);
    if (path === '/v1/push/config') return answer(200, key ? { webpush: { applicationServerKey: key } } : {});
    if (path === '/v1/push/registrations' && init.method === 'GET') return answer(200, { registrations: [...registrations.values()] });
    if (path === '/v1/push/registrations' && init.method === 'POST') {
      const b = call.body;
      const provider = Object.keys(b)[0];
      const address = b.webpush ? b.webpush.endpoint : b.fcm ? b.fcm.token : `${b.apns.token}/${b.apns.topic}`;
      const id = idOf(provider, address);
      const view = { id, provider, createdAt: registrations.get(id)?.createdAt ?? 1700000000000 + registrations.size,
        ...(b.webpush ? { endpoint: b.webpush.endpoint } : {}), ...(b.apns ? { topic: b.apns.topic, environment: b.apns.environment } : {}) };
      registrations.set(id, view);
      return answer(201, view, { Location: `/v1/push/registrations/${id}` });
    }
    const m = /^\/v1\/push\/registrations\/(.+)$/.exec(path);
    if (m && init.method === 'DELETE') {
      if (!registrations.delete(m[1])) {
        return answer(404, { type: 'urn:notify:problem:not-found', title: 'Not found', status: 404, detail: `no push registration ${m[1]} for this user` });
      }
      return answer(204, undefined);
    }
    return answer(404, { type: 'urn:notify:problem:not-found', title: 'Not found', status: 404 });
  };
  fetch.script = [];
  fetch.calls = calls;
  fetch.push = () => calls;
  fetch.registrations = registrations;
  fetch.log = log;
  return fetch;
}

/** A client with the fake gateway and, unless `serviceWorker` is given (null: none), a fake browser. */
async function pushClient({ key, serviceWorker, permission } = {}) {
  const log = [];
  const sw = serviceWorker === undefined ? fakeServiceWorker({ permission, log }) : serviceWorker;
  const fetch = pushGateway({ key, log });
  const h = harness({ fetch, serviceWorker: sw });
  await tick();
  return { h, push: h.client.push, fetch, sw, log };
}

const problem = (status, type, detail, headers) => ({ status, headers,
  body: { type: 'urn:notify:problem:' + type, title: type, status, detail } });

describe('client.push in a browser', () => {
  test('register: the VAPID key from /v1/push/config, a user-visible subscription with it, POSTed with the token', async () => {
    const { push, fetch, sw } = await pushClient();
    const created = await push.register();

    assert.deepEqual(fetch.push().map((c) => `${c.method} ${c.url}`),
      ['GET http://a.test:8081/v1/push/config', 'POST http://a.test:8081/v1/push/registrations']);
    assert.equal(sw.manager.subscribes.length, 1);
    const options = sw.manager.subscribes[0];
    assert.equal(options.userVisibleOnly, true);
    assert.ok(options.applicationServerKey instanceof ArrayBuffer);
    assert.deepEqual(Buffer.from(options.applicationServerKey), Buffer.from(VAPID, 'base64url'), 'the key as bytes');

    const post = fetch.push()[1];
    const subscription = sw.manager.subscription;
    assert.deepEqual(post.body, { webpush: subscription.toJSON() });
    assert.deepEqual(post.headers, { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' });
    assert.deepEqual(fetch.push()[0].headers, { Authorization: `Bearer ${TOKEN}` });
    assert.deepEqual(created, { id: idOf('webpush', 'https://push.test/send/1'), provider: 'webpush', createdAt: 1700000000000,
      endpoint: 'https://push.test/send/1' });
  });

  test('registering again reuses the subscription made with the same key and gets the same id', async () => {
    const { push, fetch, sw } = await pushClient();
    const first = await push.register();
    const again = await push.register(sw.registration); // the page's own ServiceWorkerRegistration works the same
    assert.equal(again.id, first.id);
    assert.equal(sw.manager.subscribes.length, 1, 'no second subscription');
    assert.equal(fetch.registrations.size, 1);
    assert.deepEqual(fetch.push().map((c) => `${c.method} ${c.path}`), ['GET /v1/push/config', 'POST /v1/push/registrations',
      'GET /v1/push/config', 'POST /v1/push/registrations']);
  });

  test('a subscription made with another key is removed at the gateway and ended before a new one is made', async () => {
    const { push, fetch, sw, log } = await pushClient();
    const old = new FakePushSubscription('https://push.test/send/old', Buffer.from(OTHER_KEY, 'base64url').buffer, sw.manager, log);
    sw.manager.subscription = old;
    const oldId = idOf('webpush', old.endpoint);
    fetch.registrations.set(oldId, { id: oldId, provider: 'webpush', createdAt: 1, endpoint: old.endpoint });

    const created = await push.register();
    assert.ok(old.ended);
    assert.equal(created.endpoint, 'https://push.test/send/1');
    assert.deepEqual([...fetch.registrations.keys()], [created.id], 'the old registration is gone');
    assert.deepEqual(log, ['GET /v1/push/config', 'GET /v1/push/registrations', `DELETE /v1/push/registrations/${oldId}`,
      'unsubscribe https://push.test/send/old', 'subscribe', 'POST /v1/push/registrations']);

    // a subscription whose key the browser does not tell (no options) is not trusted either
    sw.manager.subscription = Object.assign(new FakePushSubscription('https://push.test/send/bare', null, sw.manager, log), { options: null });
    await push.register();
    assert.equal(sw.manager.subscribes.length, 2);
  });

  test('unregister on sign-out: DELETE of the registered id, then the subscription ends', async () => {
    const { push, fetch, sw, log } = await pushClient();
    const created = await push.register();
    log.length = 0;
    assert.deepEqual(await push.unregister(), { id: created.id, unsubscribed: true });
    assert.deepEqual(log, [`DELETE /v1/push/registrations/${created.id}`, 'unsubscribe https://push.test/send/1'],
      'the id register() returned: no listing; the gateway first, while the token is still good');
    assert.equal(fetch.registrations.size, 0);
    assert.equal(sw.manager.subscription, null);
    assert.equal(fetch.push().at(-1).headers.Authorization, `Bearer ${TOKEN}`);

    log.length = 0;
    assert.deepEqual(await push.unregister(), { id: null, unsubscribed: false }, 'nothing left: nothing to do');
    assert.deepEqual(log, []);
  });

  test('after a reload the registration is found by listing and matching the endpoint; one already gone is no error', async () => {
    const { push: before, fetch, sw } = await pushClient();
    const created = await before.register();
    fetch.registrations.set('pr_someoneelseAAAAAAAAAAA', { id: 'pr_someoneelseAAAAAAAAAAA', provider: 'fcm', createdAt: 2 });

    const reloaded = harness({ fetch, serviceWorker: sw }).client.push; // a new page: it does not know the id
    fetch.log.length = 0;
    assert.deepEqual(await reloaded.unregister(), { id: created.id, unsubscribed: true });
    assert.deepEqual(fetch.log, ['GET /v1/push/registrations', `DELETE /v1/push/registrations/${created.id}`,
      'unsubscribe https://push.test/send/1']);
    assert.deepEqual([...fetch.registrations.keys()], ['pr_someoneelseAAAAAAAAAAA'], 'only that endpoint');

    await reloaded.register();
    fetch.registrations.clear(); // removed meanwhile (gone at the push service, or another tab signed out)
    assert.deepEqual(await reloaded.unregister(), { id: null, unsubscribed: true }, 'a 404 means it is gone already');
  });

  test('the subscription ends even when the gateway refuses the removal; then unregister rejects with that error', async () => {
    const { push, fetch, sw } = await pushClient();
    await push.register();
    fetch.script.push(problem(403, 'forbidden', 'origin not allowed'));
    await assert.rejects(push.unregister(), (e) => e instanceof PushError && e.status === 403 && e.detail === 'origin not allowed');
    assert.equal(sw.manager.subscription, null, 'no more pushes of the signed-out user reach this browser');
  });

  test('no service worker here, no Web Push at the gateway, permission denied: each says so, nothing is registered', async () => {
    const none = await pushClient({ serviceWorker: null });
    await assert.rejects(none.push.register(), (e) => e.code === 'unsupported' && e.name === 'PushUnavailableError');
    assert.equal(none.fetch.push().length, 0, 'not even the config');
    assert.deepEqual(await none.push.unregister(), { id: null, unsubscribed: false });
    await assert.rejects(none.push.register({}), (e) => e.code === 'unsupported', 'a registration without a PushManager');

    const off = await pushClient({ key: null });
    await assert.rejects(off.push.register(), (e) => e.code === 'off');
    assert.equal(off.sw.manager.subscribes.length, 0, 'no subscription without a key');

    const denied = await pushClient({ permission: 'denied' });
    await assert.rejects(denied.push.register(), (e) => e.name === 'NotAllowedError');
    assert.deepEqual(denied.fetch.push().map((c) => c.method), ['GET'], 'nothing POSTed');
  });
});

describe('client.push calls', () => {
  test('list, config, remove(id): the token in a header, 204 without a body, 404 and 400 as PushErrors', async () => {
    const { push, fetch } = await pushClient();
    assert.deepEqual(await push.list(), []);
    assert.deepEqual(await push.config(), { webpush: { applicationServerKey: VAPID } });
    const fcm = await push.registerToken({ fcm: { token: 'fcm:abc-123' } });
    assert.deepEqual(await push.list(), [fcm]);

    assert.equal(await push.remove(fcm.id), undefined);
    const del = fetch.push().at(-1);
    assert.equal(`${del.method} ${del.url}`, `DELETE http://a.test:8081/v1/push/registrations/${fcm.id}`);
    assert.deepEqual(del.headers, { Authorization: `Bearer ${TOKEN}` });
    assert.equal(del.body, undefined);
    await assert.rejects(push.remove(fcm.id), (e) => e instanceof PushError && e instanceof InboxError && e.status === 404
      && e.type === 'urn:notify:problem:not-found' && e.message.includes(`DELETE /v1/push/registrations/${fcm.id} answered 404`));
    const sent = fetch.push().length;
    for (const bad of [undefined, '', 'pr_short', 'xx_AAAAAAAAAAAAAAAAAAAAAA', 'pr_AAAAAAAAAAAAAAAAAAAAA/']) {
      await assert.rejects(push.remove(bad), TypeError, String(bad));
    }
    assert.equal(fetch.push().length, sent, 'a malformed id is never sent');

    fetch.script.push(problem(400, 'invalid-body', 'fcm.token must be 1..4096 characters of [A-Za-z0-9_:.-]'));
    await assert.rejects(push.registerToken({ fcm: { token: 'no spaces' } }), (e) => e instanceof PushError && e.status === 400
      && e.type === 'urn:notify:problem:invalid-body' && e.detail.startsWith('fcm.token'));
  });

  test('registerToken: FCM and APNs bodies as the gateway takes them; a malformed address is refused before sending', async () => {
    const { push, fetch } = await pushClient();
    const apns = { token: 'ab'.repeat(32), topic: 'com.example.app', environment: 'sandbox' };
    const got = await push.registerToken({ apns });
    assert.deepEqual(fetch.push().at(-1).body, { apns });
    assert.deepEqual(got, { id: idOf('apns', `${apns.token}/${apns.topic}`), provider: 'apns', createdAt: 1700000000000,
      topic: 'com.example.app', environment: 'sandbox' });
    assert.equal((await push.registerToken({ apns })).id, got.id, 'the same token again: the same id');
    await push.registerToken({ fcm: { token: 'tok' } });
    assert.deepEqual(fetch.push().at(-1).body, { fcm: { token: 'tok' } });

    const sent = fetch.push().length;
    for (const bad of [undefined, {}, { fcm: {} }, { fcm: { token: '' } }, { fcm: { token: 'a' }, apns },
      { apns: { ...apns, environment: 'prod' } }, { apns: { token: 'ab' } }]) {
      await assert.rejects(push.registerToken(bad), TypeError, JSON.stringify(bad));
    }
    await assert.rejects(push.registerToken({ webpush: { endpoint: 'https://x', keys: { p256dh: 'a', auth: 'b' } } }), TypeError,
      'a browser uses register()');
    await push.registerToken({ fcm: { token: 'tok', extra: 1 } });
    assert.deepEqual(fetch.push().at(-1).body, { fcm: { token: 'tok' } }, 'only the fields the gateway takes');
    assert.equal(fetch.push().length, sent + 1);
  });

  test('a 401 asks for a fresh token once; a 503 is retried after its Retry-After, like the inbox', async () => {
    const { h, push, fetch } = await pushClient();
    fetch.script.push(problem(401, 'unauthenticated', 'token refused: token_expired'));
    assert.deepEqual(await push.list(), []);
    assert.deepEqual(h.tokenCalls.slice(-2), [{ refresh: false }, { refresh: true }]);

    const busy = problem(503, 'overloaded', 'too many inbox requests', { 'Retry-After': '1' });
    fetch.script.push(busy);
    const pending = push.registerToken({ fcm: { token: 'tok' } });
    await tick();
    h.timers.advance(1500);
    await tick();
    assert.equal((await pending).provider, 'fcm');

    for (let i = 0; i <= INBOX_RETRIES; i++) fetch.script.push(busy);
    const refused = assert.rejects(push.list(), (e) => e instanceof PushError && e.status === 503);
    for (let i = 0; i < INBOX_RETRIES + 1; i++) { await tick(); h.timers.advance(2000); }
    await refused;
  });

  test('pushUrl: the push API of a gateway, whatever form its URL has', () => {
    assert.equal(pushUrl('http://h:1'), 'http://h:1/v1/push');
    assert.equal(pushUrl('wss://h:1/base/v1/ws', '/config'), 'https://h:1/base/v1/push/config');
    assert.equal(pushUrl('ws://h:1/v1/sse/', '/registrations'), 'http://h:1/v1/push/registrations');
  });
});
