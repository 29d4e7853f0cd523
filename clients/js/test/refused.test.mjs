// Unit tests of what the client does when handshakes keep failing before `welcome` (it asks the
// gateway why: GET /v1/ws/check), of the token callback on 4001, and of Node.js without a global
// WebSocket or localStorage. Run by `node --test test/*.test.mjs` (ops/e2e NotifyJsTest in `mvn verify`).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  connect, checkUrl, checkHandshake, CHECK_AFTER_FAILURES, DEFINITIVE_REFUSALS, PROMPT_MAX_MS,
} from '../notify.js';
import { FakeWebSocket, tick, fakeFetch, jwt, TOKEN, welcome, harness } from './fakes.mjs';

/** Fails the next `n` attempts before welcome (closed 1006): a pending reconnect runs first; the last one's stays pending. */
async function failAttempts(h, n) {
  for (let i = 0; i < n; i++) {
    if (h.client.reconnectTimer !== null) {
      h.timers.advance(h.lastState().delayMs);
      await tick();
    }
    FakeWebSocket.last().serverClose(1006);
    await tick();
  }
}

describe('a refused handshake is not a flaky network', () => {
  test(`after ${CHECK_AFTER_FAILURES} failures before welcome the gateway is asked why; origin is reported and backs off to the cap`, async () => {
    const fetch = fakeFetch(() => 201, () => ({ ok: false, reason: 'origin', detail: 'the Origin of this page may not connect', status: 403 }));
    const h = harness({ fetch, backoff: { baseMs: 1000, capMs: 60000 } });
    await tick();
    await failAttempts(h, CHECK_AFTER_FAILURES - 1);
    assert.equal(fetch.checks.length, 0, 'two failures: no check yet');
    await failAttempts(h, 1);
    assert.equal(fetch.checks.length, 1);
    // the gateway of the third attempt (a, b, a), the token in a header, no ticket spent
    assert.equal(fetch.checks[0].url, 'http://a.test:8081/v1/ws/check');
    assert.equal(fetch.checks[0].init.headers.Authorization, `Bearer ${TOKEN}`);
    assert.equal(fetch.checks[0].init.method, 'GET');
    const refused = h.lastState();
    assert.equal(refused.s, 'refused');
    assert.equal(refused.reason, 'origin');
    assert.equal(refused.detail, 'the Origin of this page may not connect');
    assert.equal(refused.status, 403);
    assert.equal(refused.definitive, true);
    assert.equal(refused.closeReason, '');
    assert.equal(refused.terminal, false);
    assert.equal(refused.delayMs, 30000, 'random(0, cap): the cap, not 4 s');
    assert.equal(h.client.refusal.reason, 'origin');
    // the next attempt and its failure are not checked again, but still at the cap and still say why
    h.timers.advance(refused.delayMs);
    await tick();
    assert.equal(h.states.findLast((s) => s.s === 'connecting').refusal.reason, 'origin');
    FakeWebSocket.last().serverClose(1006);
    await tick();
    assert.equal(h.lastState().s, 'disconnected');
    assert.equal(h.lastState().delayMs, 30000);
    assert.equal(h.lastState().refusal.reason, 'origin');
    assert.equal(fetch.checks.length, 1);
    // the allowlist was fixed meanwhile: a welcome clears the refusal and the backoff
    h.timers.advance(30000);
    await tick();
    FakeWebSocket.last().frame(welcome());
    assert.equal(h.lastState().s, 'connected');
    assert.equal(h.client.refusal, null);
    FakeWebSocket.last().serverClose(1006);
    assert.equal(h.lastState().delayMs, 500);
    assert.equal(h.lastState().refusal, undefined);
  });

  test('token: reported as definitive, and the next attempt asks the token callback for a fresh token', async () => {
    const fetch = fakeFetch(() => 201, () => ({ ok: false, reason: 'token', detail: 'token_expired', status: 401 }));
    const h = harness({ fetch });
    await tick();
    await failAttempts(h, CHECK_AFTER_FAILURES);
    assert.equal(h.lastState().s, 'refused');
    assert.equal(h.lastState().reason, 'token');
    assert.equal(h.lastState().detail, 'token_expired');
    assert.deepEqual(h.tokenCalls.map((c) => c.refresh), [false, false, false]);
    h.timers.advance(h.lastState().delayMs);
    await tick();
    assert.deepEqual(h.tokenCalls.map((c) => c.refresh), [false, false, false, true]);
    assert.deepEqual([...DEFINITIVE_REFUSALS], ['origin', 'token']);
  });

  test('draining and admission are reported but not definitive: the backoff goes on as before', async () => {
    for (const reason of ['draining', 'admission']) {
      const fetch = fakeFetch(() => 201, () => ({ ok: false, reason, detail: 'x', status: 503, retryAfter: 1 }));
      const h = harness({ fetch, backoff: { baseMs: 1000, capMs: 60000 } });
      await tick();
      await failAttempts(h, CHECK_AFTER_FAILURES);
      assert.equal(h.lastState().s, 'refused', reason);
      assert.equal(h.lastState().reason, reason);
      assert.equal(h.lastState().definitive, false);
      assert.equal(h.lastState().retryAfter, 1);
      assert.equal(h.lastState().delayMs, 2000, 'the third delay of the usual backoff');
      h.client.close();
    }
  });

  test('a gateway without the check (404), an unreachable one or one that says ok: nothing is reported', async () => {
    const answers = [404, () => { throw new TypeError('Failed to fetch'); }, { ok: true }, { unexpected: 1 }];
    for (const answer of answers) {
      const fetch = fakeFetch(() => 201, () => answer);
      const h = harness({ fetch });
      await tick();
      await failAttempts(h, CHECK_AFTER_FAILURES);
      assert.equal(fetch.checks.length, 1);
      assert.equal(h.lastState().s, 'disconnected');
      assert.equal(h.lastState().delayMs, 2000);
      assert.ok(!h.states.some((s) => s.s === 'refused'));
      assert.equal(h.client.refusal, null);
      h.client.close();
    }
  });

  test('a check that never answers is given up after connectTimeoutMs; close() during a check schedules nothing', async () => {
    let aborted = false;
    const hanging = (url, init) => new Promise((resolve, reject) => {
      init.signal.addEventListener('abort', () => { aborted = true; reject(new Error('aborted')); });
    });
    const fetch = fakeFetch(() => 201, () => hanging);
    const h = harness({ fetch });
    h.client.connectTimeoutMs = 5000;
    await tick();
    await failAttempts(h, CHECK_AFTER_FAILURES);
    assert.equal(h.lastState().s, 'connecting', 'waiting for the check');
    h.timers.advance(5000);
    await tick();
    assert.ok(aborted);
    assert.equal(h.lastState().s, 'disconnected');

    const pending = fakeFetch(() => 201, () => () => new Promise(() => {}));
    const h2 = harness({ fetch: pending });
    await tick();
    await failAttempts(h2, CHECK_AFTER_FAILURES);
    h2.client.close();
    await tick();
    assert.equal(h2.lastState().terminal, true);
    assert.equal(h2.timers.count(), 1, 'only the check timeout, no reconnect');
  });

  test('checkHandshake: the URL, the answer, and null for what is not an answer', async () => {
    assert.equal(checkUrl('wss://gw.example/base/v1/ws'), 'https://gw.example/base/v1/ws/check');
    assert.equal(checkUrl('http://127.0.0.1:8081'), 'http://127.0.0.1:8081/v1/ws/check');
    const answer = (status, body) => async () => ({ status, json: async () => body });
    assert.deepEqual(await checkHandshake('http://a', 't', { fetch: answer(200, { ok: true }) }),
      { ok: true, reason: null, detail: null, status: 200, retryAfter: null });
    assert.deepEqual(await checkHandshake('http://a', 't', { fetch: answer(200, { ok: false, reason: 'draining', detail: 'd', status: 503, retryAfter: 1 }) }),
      { ok: false, reason: 'draining', detail: 'd', status: 503, retryAfter: 1 });
    assert.equal(await checkHandshake('http://a', 't', { fetch: answer(404, {}) }), null);
    assert.equal(await checkHandshake('http://a', 't', { fetch: answer(200, 'nope') }), null);
    let headers;
    let url;
    await checkHandshake('http://a', null, { fetch: async (u, init) => { url = u; headers = init.headers; return { status: 404 }; } });
    assert.deepEqual(headers, {}, 'no token: no Authorization header');
    assert.equal(url, 'http://a/v1/ws/check', 'no page (Node.js): no origin');
    await checkHandshake('http://a', 't', { origin: 'https://app.example', fetch: async (u) => { url = u; return { status: 404 }; } });
    assert.equal(url, 'http://a/v1/ws/check?origin=https%3A%2F%2Fapp.example', 'a page names its origin');
  });
});

describe('the token callback on 4001 (token expired)', () => {
  test('after 4001 the callback is called with refresh: true, its new token goes to the ticket request, then refresh is false again', async () => {
    const fresh = jwt({ sub: '42', exp: 4102444800, n: 2 });
    const tokens = [TOKEN, fresh, fresh];
    const h = harness({ gateways: ['http://a.test:8081'] });
    await tick();
    h.tokenCalls.length = 0; // from here on the callback answers from `tokens`
    h.client.tokenSource = (arg) => { h.tokenCalls.push(arg); return tokens[h.tokenCalls.length]; };
    FakeWebSocket.last().frame(welcome());
    FakeWebSocket.last().serverClose(4001, 'token expired');
    h.timers.advance(PROMPT_MAX_MS);
    await tick();
    assert.deepEqual(h.tokenCalls, [{ refresh: true }]);
    assert.equal(h.fetch.calls.at(-1).init.headers.Authorization, `Bearer ${fresh}`);
    FakeWebSocket.last().frame(welcome());
    FakeWebSocket.last().serverClose(1006);
    h.timers.advance(h.lastState().delayMs);
    await tick();
    assert.deepEqual(h.tokenCalls, [{ refresh: true }, { refresh: false }], 'one refresh per 4001');
  });
});

describe('Node.js', () => {
  test('no WebSocket (Node 20 without --experimental-websocket): connect() says what to do', () => {
    const saved = globalThis.WebSocket;
    try {
      delete globalThis.WebSocket;
      assert.throws(() => connect({ gateways: ['http://a'], token: 't', positions: undefined, transport: 'ws', fetch: fakeFetch() }),
        /pass the WebSocket option, or run Node.js 22\+ \(Node.js 20: node --experimental-websocket\)/);
      assert.throws(() => connect({ gateways: ['http://a'], token: 't', transport: 'sse' }), /no EventSource here/);
    } finally {
      if (saved) globalThis.WebSocket = saved;
    }
  });

  test('without localStorage positions are kept in memory by default', async () => {
    assert.equal(globalThis.localStorage, undefined);
    const fetch = fakeFetch();
    const timers = harness({ fetch }).timers;
    FakeWebSocket.all = [];
    const c = connect({ gateways: ['http://a.test:8081'], token: TOKEN, transport: 'ws', WebSocket: FakeWebSocket, fetch, timers,
      onError: () => {}, device: 'dev-1', random: () => 0.5 });
    await tick();
    FakeWebSocket.last().frame(welcome());
    FakeWebSocket.last().frame({ t: 'event', stream: 'u:42', epoch: 'e1', seq: 1, id: 'a', type: 'x', class: 'durable', data: {} });
    assert.deepEqual(c.position('u:42'), { epoch: 'e1', seq: 1 });
    c.close();
  });
});
