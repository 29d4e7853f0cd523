// Unit tests of client.preferences (clients/js/notify.js, docs/inbox.md "Preferences") on Node's
// built-in test runner: the gateway's preferences API is a fake that keeps the user's document (fetch),
// injected through connect().
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { preferencesUrl, PreferencesError, InboxError, INBOX_RETRIES } from '../notify.js';
import { tick, TOKEN, harness } from './fakes.mjs';

const DOC = {
  types: { 'order.shipped': { live: false, inbox: true, push: false } },
  categories: { marketing: { push: false } },
  quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin' },
};

const KEY = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * The gateway: tickets, and /v1/preferences over the user's document — GET (empty maps when none),
 * PUT (replaces it; 400 invalid-body naming a bad key, as the gateway does), DELETE (204). A scripted
 * answer `{ status, body, headers }` queued in `fetch.script` is answered first. Every call is recorded
 * in `fetch.calls` as { url, method, path, body, headers }.
 */
function preferencesGateway() {
  let stored = null;
  const calls = [];
  const fetch = async (url, init) => {
    if (url.endsWith('/v1/tickets')) return { status: 201, json: async () => ({ ticket: 't', expiresIn: 30 }) };
    const path = new URL(url).pathname;
    calls.push({ url, method: init.method, path, headers: init.headers, body: init.body ? JSON.parse(init.body) : undefined });
    const answer = (status, body, headers = {}) => ({ status, headers: { get: (k) => headers[k] ?? null },
      json: async () => { if (body === undefined) throw new SyntaxError('no body'); return body; } });
    const scripted = fetch.script.shift();
    if (scripted) return answer(scripted.status, scripted.body, scripted.headers);
    if (path !== '/v1/preferences') return answer(404, { type: 'urn:notify:problem:not-found', title: 'Not found', status: 404 });
    if (init.method === 'GET') return answer(200, stored ?? { types: {}, categories: {} });
    if (init.method === 'DELETE') {
      stored = null;
      return answer(204, undefined);
    }
    const doc = JSON.parse(init.body);
    const bad = Object.keys(doc.types).find((k) => !KEY.test(k));
    if (bad !== undefined) {
      return answer(400, { type: 'urn:notify:problem:invalid-body', title: 'Invalid body', status: 400,
        detail: `types keys must be 1..128 chars of [A-Za-z0-9._:-], starting with a letter or digit, got '${bad}'` });
    }
    stored = doc;
    return answer(200, doc);
  };
  fetch.script = [];
  fetch.calls = calls;
  fetch.stored = () => stored;
  return fetch;
}

async function preferencesClient() {
  const fetch = preferencesGateway();
  const h = harness({ fetch });
  await tick();
  return { h, preferences: h.client.preferences, fetch };
}

const problem = (status, type, detail, headers) => ({ status, headers,
  body: { type: 'urn:notify:problem:' + type, title: type, status, detail } });

describe('client.preferences', () => {
  test('put sends the whole document with the token and resolves with the one stored; get reads it back', async () => {
    const { preferences, fetch } = await preferencesClient();
    assert.deepEqual(await preferences.get(), { types: {}, categories: {} }, 'none set: empty maps, no quiet hours');

    assert.deepEqual(await preferences.put(DOC), DOC);
    const put = fetch.calls.at(-1);
    assert.equal(`${put.method} ${put.url}`, 'PUT http://a.test:8081/v1/preferences');
    assert.deepEqual(put.headers, { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' });
    assert.deepEqual(put.body, DOC);

    assert.deepEqual(await preferences.get(), DOC);
    const get = fetch.calls.at(-1);
    assert.equal(`${get.method} ${get.path}`, 'GET /v1/preferences');
    assert.deepEqual(get.headers, { Authorization: `Bearer ${TOKEN}` });
    assert.equal(get.body, undefined);
  });

  test('put: types and categories default to none, channels not said and null quiet hours are left out', async () => {
    const { preferences, fetch } = await preferencesClient();
    await preferences.put({ categories: { marketing: { push: false, live: undefined, inbox: null } }, quietHours: null });
    assert.deepEqual(fetch.calls.at(-1).body, { types: {}, categories: { marketing: { push: false } } });
    await preferences.put({ types: { a: {} }, quietHours: { start: '08:00', end: '09:00', timeZone: 'UTC', extra: 1 } });
    assert.deepEqual(fetch.calls.at(-1).body, { types: { a: {} }, categories: {},
      quietHours: { start: '08:00', end: '09:00', timeZone: 'UTC' } }, 'only the fields the gateway takes');
    await preferences.put({ quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin', live: false } });
    assert.deepEqual(fetch.calls.at(-1).body.quietHours, { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin', live: false },
      'live: false mutes live delivery inside the window');
  });

  test('a shape the gateway cannot read is a TypeError before anything is sent', async () => {
    const { preferences, fetch } = await preferencesClient();
    const sent = fetch.calls.length;
    for (const bad of [undefined, null, 'x', [], { types: [] }, { types: { a: true } }, { categories: { m: { sms: false } } },
      { types: { a: { push: 'no' } } }, { quietHours: { start: '22:00' } }, { quietHours: '22:00-07:00' },
      { quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC', live: 'no' } }]) {
      await assert.rejects(preferences.put(bad), TypeError, JSON.stringify(bad));
    }
    assert.equal(fetch.calls.length, sent);
  });

  test('reset deletes the document: 204 without a body, then get answers none', async () => {
    const { preferences, fetch } = await preferencesClient();
    await preferences.put(DOC);
    assert.equal(await preferences.reset(), undefined);
    const del = fetch.calls.at(-1);
    assert.equal(`${del.method} ${del.url}`, 'DELETE http://a.test:8081/v1/preferences');
    assert.deepEqual(del.headers, { Authorization: `Bearer ${TOKEN}` });
    assert.equal(del.body, undefined);
    assert.equal(fetch.stored(), null);
    assert.deepEqual(await preferences.get(), { types: {}, categories: {} });
  });

  test('a refusal rejects with a PreferencesError: status, type and the detail naming the field', async () => {
    const { preferences, fetch } = await preferencesClient();
    await assert.rejects(preferences.put({ types: { 'order shipped': { push: false } } }), (e) => e instanceof PreferencesError
      && e instanceof InboxError && e.name === 'PreferencesError' && e.status === 400 && e.type === 'urn:notify:problem:invalid-body'
      && e.detail.startsWith('types keys') && e.message.startsWith('notify: PUT /v1/preferences answered 400: types keys'));
    assert.equal(fetch.stored(), null, 'nothing stored');

    fetch.script.push(problem(403, 'forbidden', 'origin not allowed'));
    await assert.rejects(preferences.get(), (e) => e instanceof PreferencesError && e.status === 403 && e.detail === 'origin not allowed');
    fetch.script.push({ status: 413, body: undefined });
    await assert.rejects(preferences.put(DOC), (e) => e instanceof PreferencesError && e.status === 413 && e.type === null);
  });

  test('a 401 asks for a fresh token once; a 503 is retried after its Retry-After, like the inbox', async () => {
    const { h, preferences, fetch } = await preferencesClient();
    fetch.script.push(problem(401, 'unauthenticated', 'token refused: token_expired'));
    assert.deepEqual(await preferences.get(), { types: {}, categories: {} });
    assert.deepEqual(h.tokenCalls.slice(-2), [{ refresh: false }, { refresh: true }]);

    const busy = problem(503, 'unavailable', 'preferences cannot be reached right now', { 'Retry-After': '1' });
    fetch.script.push(busy);
    const pending = preferences.put(DOC);
    await tick();
    h.timers.advance(1500);
    await tick();
    assert.deepEqual(await pending, DOC);

    for (let i = 0; i <= INBOX_RETRIES; i++) fetch.script.push(busy);
    const refused = assert.rejects(preferences.reset(), (e) => e instanceof PreferencesError && e.status === 503);
    for (let i = 0; i < INBOX_RETRIES + 1; i++) { await tick(); h.timers.advance(2000); }
    await refused;
  });

  test('an answer with fields this client does not know keeps them; missing maps read as none', async () => {
    const { preferences, fetch } = await preferencesClient();
    fetch.script.push({ status: 200, body: { types: { a: { push: false } }, somethingNew: 1 } });
    assert.deepEqual(await preferences.get(), { types: { a: { push: false } }, categories: {}, somethingNew: 1 });
  });

  test('preferencesUrl: the preferences API of a gateway, whatever form its URL has', () => {
    assert.equal(preferencesUrl('http://h:1'), 'http://h:1/v1/preferences');
    assert.equal(preferencesUrl('wss://h:1/base/v1/ws'), 'https://h:1/base/v1/preferences');
    assert.equal(preferencesUrl('ws://h:1/v1/sse/'), 'http://h:1/v1/preferences');
  });
});
