// Unit tests of the client (clients/js/notify.js) on Node's built-in test
// runner: `node --test test/` (ops/e2e NotifyJsTest runs it in `mvn verify`).
// WebSocket, EventSource, timers and randomness are fakes injected through connect()'s options.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  Backoff, Sequencer, connect, memoryPositions, localStoragePositions, parsePosition, formatPosition,
  reconnectPolicy, webSocketUrl, sseUrl, ticketUrl, requestTicket, TicketError, tokenClaims, PROMPT_MAX_MS, ACK_DELAY_MS,
  BROADCAST, PACE_BURST, PACE_PER_SECOND, roomStream, cursorKey, compositeCursor,
  deviceId, DEVICE_KEY, inboxUrl, InboxError, INBOX_RETRIES,
} from '../notify.js';

import {
  fakeTimers, FakeWebSocket, FakeEventSource, tick, fakeFetch, jwt, TOKEN, welcome, ev, harness,
} from './fakes.mjs';

// ---------------------------------------------------------------------------------------------

describe('Backoff: full jitter', () => {
  test('ceilings double from base and stop at cap', () => {
    const b = new Backoff({ baseMs: 1000, capMs: 60000, random: () => 0 });
    const ceilings = [];
    for (let i = 0; i < 10; i++) { ceilings.push(b.ceiling()); b.next(); }
    assert.deepEqual(ceilings, [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000]);
  });

  test('each delay is random(0, ceiling): the extremes of random() reach both ends', () => {
    const low = new Backoff({ baseMs: 1000, capMs: 8000, random: () => 0 });
    const high = new Backoff({ baseMs: 1000, capMs: 8000, random: () => 0.999999 });
    for (let i = 0; i < 6; i++) {
      const ceiling = high.ceiling();
      assert.equal(low.next(), 0);
      const d = high.next();
      assert.ok(d < ceiling && d > 0.999 * ceiling, `${d} vs ${ceiling}`);
    }
  });

  test('the distribution really spans [0, cap], uniformly', () => {
    const cap = 30000;
    const b = new Backoff({ baseMs: 500, capMs: cap });
    for (let i = 0; i < 20; i++) b.next(); // well past the cap
    const n = 20000;
    const deciles = new Array(10).fill(0);
    let min = Infinity; let max = -Infinity; let sum = 0;
    for (let i = 0; i < n; i++) {
      const d = b.next();
      assert.ok(d >= 0 && d <= cap, `delay ${d} outside [0, ${cap}]`);
      min = Math.min(min, d); max = Math.max(max, d); sum += d;
      deciles[Math.min(9, Math.floor((d / cap) * 10))]++;
    }
    assert.ok(min < 0.005 * cap, `min ${min}: full jitter starts at 0, not at a base delay`);
    assert.ok(max > 0.995 * cap, `max ${max}: delays reach the cap`);
    assert.ok(Math.abs(sum / n - cap / 2) < 0.02 * cap, `mean ${sum / n}`);
    for (const c of deciles) assert.ok(c > 0.08 * n && c < 0.12 * n, `deciles ${deciles}`);
  });

  test('at the first attempt the delay spans [0, base]', () => {
    const b = new Backoff({ baseMs: 1000, capMs: 60000 });
    const samples = Array.from({ length: 5000 }, () => { const d = b.next(); b.reset(); return d; });
    assert.ok(samples.every((d) => d >= 0 && d <= 1000));
    assert.ok(Math.min(...samples) < 10 && Math.max(...samples) > 990);
  });

  test('reset() starts over; bad bounds are refused', () => {
    const b = new Backoff({ baseMs: 100, capMs: 1000, random: () => 0 });
    b.next(); b.next(); b.next();
    assert.equal(b.ceiling(), 800);
    b.reset();
    assert.equal(b.attempt, 0);
    assert.equal(b.ceiling(), 100);
    assert.throws(() => new Backoff({ baseMs: 0 }), RangeError);
    assert.throws(() => new Backoff({ baseMs: 1000, capMs: 10 }), RangeError);
  });
});

describe('reconnect policy and the attempt counter', () => {
  test('close codes map to the policies of protocol.md §5', () => {
    const expected = process.env.NOTIFY_CLOSE_POLICIES
      ? JSON.parse(process.env.NOTIFY_CLOSE_POLICIES) // from io.notify.protocol.frame.CloseCode, via NotifyJsTest
      : { 1000: 'never', 1001: 'promptly', 1002: 'never', 1003: 'never', 1007: 'never', 1008: 'never', 1009: 'never',
        1011: 'backoff', 1013: 'backoff', 4001: 'promptly', 4003: 'never', 4008: 'promptly', 4009: 'backoff', 4010: 'promptly',
        4029: 'backoff' };
    assert.ok(Object.keys(expected).length >= 15);
    for (const [code, policy] of Object.entries(expected)) assert.equal(reconnectPolicy(Number(code)), policy, `code ${code}`);
    assert.equal(reconnectPolicy(1006), 'backoff'); // dropped without a close frame
    assert.equal(reconnectPolicy(4999), 'backoff'); // unknown: back off, never stop, never hammer
  });

  test('failed attempts grow the delay; only a welcome resets it', async () => {
    const h = harness({ random: () => 0.5, backoff: { baseMs: 1000, capMs: 60000 } });
    await tick();
    const delays = [];
    for (let i = 0; i < 4; i++) {
      FakeWebSocket.last().serverClose(1006); // refused before welcome
      await tick(); // the third failure asks the gateway why first (it answers ok: nothing to report)
      delays.push(h.lastState().delayMs);
      h.timers.advance(h.lastState().delayMs);
      await tick();
    }
    assert.deepEqual(delays, [500, 1000, 2000, 4000]);
    // a connection that closes before its welcome is no success: the delay keeps growing
    FakeWebSocket.last().serverClose(1011);
    assert.equal(h.lastState().delayMs, 8000);
    h.timers.advance(8000);
    await tick();
    FakeWebSocket.last().frame(welcome());
    assert.equal(h.lastState().s, 'connected');
    assert.equal(h.client.backoff.attempt, 0);
    FakeWebSocket.last().serverClose(1006);
    assert.equal(h.lastState().delayMs, 500, 'first failure after a success starts from base again');
  });

  test('1001 drain reconnects within PROMPT_MAX_MS whatever the attempt count, on the next gateway', async () => {
    const h = harness({ random: () => 0.999 });
    await tick();
    assert.equal(FakeWebSocket.last().url, 'ws://a.test:8081/v1/ws?ticket=t1&device=dev-1');
    FakeWebSocket.last().frame(welcome());
    FakeWebSocket.last().serverClose(1001, 'going away');
    assert.ok(h.lastState().delayMs < PROMPT_MAX_MS);
    h.timers.advance(PROMPT_MAX_MS);
    await tick();
    assert.match(FakeWebSocket.last().url, /^ws:\/\/b\.test:8082\/v1\/ws/);
    FakeWebSocket.last().serverClose(1006);
    h.timers.advance(60000);
    await tick();
    assert.match(FakeWebSocket.last().url, /^ws:\/\/a\.test:8081\/v1\/ws/, 'rotation wraps around');
  });

  test('terminal codes stop the client: no timer, no new connection', async () => {
    for (const code of [1000, 1002, 1008, 4003]) {
      const h = harness();
      await tick();
      FakeWebSocket.last().frame(welcome());
      FakeWebSocket.last().serverClose(code, 'bye');
      assert.equal(h.lastState().s, 'disconnected');
      assert.equal(h.lastState().terminal, true, `code ${code}`);
      assert.equal(h.timers.count(), 0);
      h.timers.advance(120000);
      await tick();
      assert.equal(FakeWebSocket.all.length, 1, `code ${code}`);
    }
  });

  test('4001 asks the token callback for a fresh token, then reconnects promptly', async () => {
    const h = harness();
    await tick();
    assert.deepEqual(h.tokenCalls, [{ refresh: false }]);
    FakeWebSocket.last().frame(welcome());
    FakeWebSocket.last().serverClose(4001, 'token expired');
    assert.ok(h.lastState().delayMs < PROMPT_MAX_MS);
    h.timers.advance(PROMPT_MAX_MS);
    await tick();
    assert.deepEqual(h.tokenCalls, [{ refresh: false }, { refresh: true }]);
    assert.equal(FakeWebSocket.all.length, 2);
  });

  test('close() ends for good with 1000', async () => {
    const h = harness();
    await tick();
    FakeWebSocket.last().frame(welcome());
    h.client.close();
    assert.deepEqual(FakeWebSocket.last().closedWith, { code: 1000, reason: 'closed by client' });
    assert.equal(h.lastState().terminal, true);
    assert.equal(h.timers.count(), 0);
  });
});

describe('dedup, order and positions', () => {
  test('Sequencer: duplicates, the next seq, gaps, other epochs, no position', () => {
    const s = new Sequencer(memoryPositions({ 'u:42': { epoch: 'e1', seq: 5 } }));
    assert.equal(s.classify(ev(4)), 'duplicate');
    assert.equal(s.classify(ev(5)), 'duplicate');
    assert.equal(s.classify(ev(6)), 'deliver');
    assert.equal(s.classify(ev(8)), 'gap');
    assert.equal(s.classify(ev(6, 'e2')), 'duplicate');
    assert.equal(s.classify(ev(17, 'e1', 'u:7')), 'deliver', 'no position: the first event seen starts the stream');
    s.advance('u:42', ev(6));
    assert.equal(s.classify(ev(6)), 'duplicate');
    assert.equal(s.classify(ev(7)), 'deliver');
  });

  test('Sequencer keeps its own memory: a store that drops writes cannot cause a duplicate', () => {
    const s = new Sequencer({ get: () => null, set: () => {} });
    assert.equal(s.classify(ev(3)), 'deliver');
    s.advance('u:42', ev(3));
    assert.equal(s.classify(ev(3)), 'duplicate');
    assert.equal(s.classify(ev(2)), 'duplicate');
  });

  test('resume from the stored position; each seq delivered once, in order; persisted after the callback; acked', async () => {
    const h = harness({ positions: { 'u:42': { epoch: 'e1', seq: 5 } } });
    await tick();
    const ws = FakeWebSocket.last();
    ws.frame(welcome());
    assert.deepEqual(ws.sent, [{ t: 'resume', streams: [{ stream: 'u:42', epoch: 'e1', seq: 5 }] }]);
    for (const seq of [4, 5, 6, 6, 7]) ws.frame(ev(seq));
    ws.frame(ev(7, 'e2'));
    assert.deepEqual(h.events.map((e) => e.seq), [6, 7]);
    assert.deepEqual(h.log, ['event 6', 'set u:42 e1:6', 'event 7', 'set u:42 e1:7']);
    assert.deepEqual(h.store.get('u:42'), { epoch: 'e1', seq: 7 });
    // acks are cumulative and coalesced: one per stream per ACK_DELAY_MS
    assert.equal(ws.sent.length, 1);
    h.timers.advance(ACK_DELAY_MS);
    assert.deepEqual(ws.sent.slice(1), [{ t: 'ack', stream: 'u:42', seq: 7 }]);
    ws.frame({ t: 'ping' });
    assert.deepEqual(ws.sent[ws.sent.length - 1], { t: 'pong' });
  });

  test('replay overlapping live events after a reconnect never repeats a seq', async () => {
    const h = harness();
    await tick();
    let ws = FakeWebSocket.last();
    ws.frame(welcome());
    assert.deepEqual(ws.sent[0], { t: 'resume', streams: [] }, 'no position: start live');
    ws.frame(ev(1)); ws.frame(ev(2));
    ws.serverClose(1006);
    h.timers.advance(1000);
    await tick();
    ws = FakeWebSocket.last();
    ws.frame(welcome({ nodeId: 'gw-2' }));
    assert.deepEqual(ws.sent[0], { t: 'resume', streams: [{ stream: 'u:42', epoch: 'e1', seq: 2 }] });
    for (const seq of [1, 2, 3, 2, 3, 4]) ws.frame(ev(seq));
    assert.deepEqual(h.events.map((e) => e.seq), [1, 2, 3, 4]);
  });

  test('with a position for its stream, resume goes as soon as the socket opens, before welcome, and only once', async () => {
    const h = harness({ positions: { 'u:42': { epoch: 'e1', seq: 5 } } });
    await tick();
    let ws = FakeWebSocket.last();
    ws.onopen();
    assert.deepEqual(ws.sent, [{ t: 'resume', streams: [{ stream: 'u:42', epoch: 'e1', seq: 5 }] }], 'u:<sub> of the token, before welcome');
    ws.frame(welcome());
    assert.equal(ws.sent.length, 1, 'no second resume after the welcome');
    ws.frame(ev(6));
    assert.deepEqual(h.events.map((e) => e.seq), [6]);
    ws.serverClose(1001);
    h.timers.advance(1000);
    await tick();
    ws = FakeWebSocket.last();
    ws.onopen();
    assert.deepEqual(ws.sent, [{ t: 'resume', streams: [{ stream: 'u:42', epoch: 'e1', seq: 6 }] }], 'the reconnect resumes at once too');
  });

  test('without a position the client waits for welcome before its resume, as before', async () => {
    harness();
    await tick();
    const ws = FakeWebSocket.last();
    ws.onopen();
    assert.deepEqual(ws.sent, [], 'nothing before welcome');
    ws.frame(welcome());
    assert.deepEqual(ws.sent, [{ t: 'resume', streams: [] }]);
  });

  test('a gap makes the client reconnect and resume from the last processed seq', async () => {
    const h = harness({ positions: { 'u:42': { epoch: 'e1', seq: 1 } } });
    await tick();
    let ws = FakeWebSocket.last();
    ws.frame(welcome());
    ws.frame(ev(2));
    ws.frame(ev(4));
    assert.equal(ws.closedWith.code, 4000);
    assert.deepEqual(h.events.map((e) => e.seq), [2]);
    h.timers.advance(1000);
    await tick();
    ws = FakeWebSocket.last();
    ws.frame(welcome());
    assert.deepEqual(ws.sent[0].streams, [{ stream: 'u:42', epoch: 'e1', seq: 2 }]);
    ws.frame(ev(3)); ws.frame(ev(4));
    assert.deepEqual(h.events.map((e) => e.seq), [2, 3, 4]);
  });

  test('reset: the application is told, then the head becomes the position', async () => {
    const h = harness({ positions: { 'u:42': { epoch: 'old', seq: 9 } } });
    await tick();
    const ws = FakeWebSocket.last();
    ws.frame(welcome());
    ws.frame({ t: 'reset', stream: 'u:42', reason: 'epoch_mismatch', head: { epoch: 'e2', seq: 3 }, firstSeq: 1 });
    ws.frame(ev(3, 'e2'));
    ws.frame(ev(4, 'e2'));
    assert.deepEqual(h.resets, [{ stream: 'u:42', reason: 'epoch_mismatch', head: { epoch: 'e2', seq: 3 }, firstSeq: 1 }]);
    assert.deepEqual(h.log, ['reset epoch_mismatch', 'set u:42 e2:3', 'event 4', 'set u:42 e2:4']);
    ws.frame({ t: 'reset', stream: 'u:42', reason: 'unknown_stream' });
    assert.equal(h.store.get('u:42'), null);
  });

  test('ephemeral events pass through every time and never move the position', async () => {
    const h = harness({ positions: { 'u:42': { epoch: 'e1', seq: 5 } } });
    await tick();
    const ws = FakeWebSocket.last();
    ws.frame(welcome());
    const typing = { t: 'event', stream: 'u:42', id: 'typing', type: 'chat.typing', class: 'ephemeral', data: {} };
    ws.frame(typing); ws.frame(typing);
    assert.equal(h.events.length, 2);
    assert.deepEqual(h.store.get('u:42'), { epoch: 'e1', seq: 5 });
  });

  test('unknown frame types and fields are ignored (protocol §7); a durable event without a position too', async () => {
    const h = harness();
    await tick();
    const ws = FakeWebSocket.last();
    ws.frame(welcome({ future: true }));
    ws.frame({ t: 'presence', who: [] });
    ws.frame({ ...ev(1), seq: undefined }); // durable without a position: ignored, never stored
    ws.frame({ ...ev(1), extra: 'x' });
    assert.deepEqual(h.events.map((e) => e.seq), [1]);
    assert.equal(h.lastState().s, 'connected');
  });

  test('a silent connection is declared dead after ping interval + max(3 s, interval / 2)', async () => {
    const h = harness();
    await tick();
    const ws = FakeWebSocket.last();
    ws.frame(welcome({ pingIntervalMs: 5000 }));
    h.timers.advance(7900);
    assert.equal(h.lastState().s, 'connected');
    ws.frame({ t: 'ping' });
    h.timers.advance(7900);
    assert.equal(h.lastState().s, 'connected');
    h.timers.advance(200);
    assert.equal(h.lastState().s, 'disconnected');
    assert.equal(ws.closedWith.code, 4000);
  });
});

describe('SSE fallback', () => {
  test("'auto' tries SSE after two WebSocket failures, resuming with lastEventId; SSE sends nothing", async () => {
    const h = harness({ transport: 'auto', positions: { 'u:42': { epoch: 'e1', seq: 7 } } });
    await tick();
    FakeWebSocket.last().serverClose(1006);
    h.timers.advance(60000);
    await tick();
    FakeWebSocket.last().serverClose(1006);
    h.timers.advance(60000);
    await tick();
    assert.equal(FakeWebSocket.all.length, 2);
    const es = FakeEventSource.last();
    assert.equal(es.url, `http://a.test:8081/v1/sse?ticket=t3&device=dev-1&lastEventId=e1%3A7`);
    es.frame(welcome());
    es.frame(ev(7)); es.frame(ev(8)); es.frame({ t: 'ping' });
    assert.deepEqual(h.events.map((e) => e.seq), [8]);
    assert.equal(h.lastState().transport, 'sse');
    // the stream ends (a drain): the client takes over from EventSource and stays on SSE
    es.fail();
    assert.equal(es.closed, true);
    h.timers.advance(60000);
    await tick();
    assert.equal(FakeEventSource.all.length, 2);
    assert.match(FakeEventSource.last().url, /^http:\/\/b\.test:8082\/v1\/sse\?ticket=t\d+&device=dev-1&lastEventId=e1%3A8$/);
    // SSE failing before its welcome gives WebSocket its chances again
    FakeEventSource.last().fail();
    h.timers.advance(60000);
    await tick();
    assert.equal(FakeWebSocket.all.length, 3);
  });

  test("'sse' without a stored position derives the stream from the token and starts live", async () => {
    const h = harness({ transport: 'sse' });
    await tick();
    assert.equal(FakeEventSource.last().url, 'http://a.test:8081/v1/sse?ticket=t1&device=dev-1');
    assert.equal(FakeWebSocket.all.length, 0);
    assert.equal(h.lastState().s, 'connecting');
  });
});

describe('acks that hold back the offline fallback', () => {
  test('over SSE the user stream is acked by POST /v1/inbox/ack, the latest seq once per ACK_DELAY_MS; rooms are not', async () => {
    const h = harness({ transport: 'sse', positions: { 'u:42': { epoch: 'e1', seq: 3 } } });
    await tick();
    const es = FakeEventSource.last();
    es.frame(welcome());
    es.frame(ev(4)); es.frame(ev(5));
    es.frame(ev(1, 'r1', 'r:chat'));
    h.timers.advance(ACK_DELAY_MS);
    await tick();
    assert.deepEqual(h.fetch.acks.map((a) => a.url), ['http://a.test:8081/v1/inbox/ack']);
    assert.deepEqual(h.fetch.acks[0].body, { upTo: 5, epoch: 'e1', device: 'dev-1' }, 'the welcome\'s re-ack of 3 folded into 5');
    es.frame(ev(6));
    h.timers.advance(ACK_DELAY_MS);
    await tick();
    assert.deepEqual(h.fetch.acks.map((a) => a.body.upTo), [5, 6]);
  });

  test('every welcome re-acks the position: an ack lost with the last connection is made good', async () => {
    const h = harness({ positions: { 'u:42': { epoch: 'e1', seq: 5 } } });
    await tick();
    let ws = FakeWebSocket.last();
    ws.frame(welcome());
    ws.frame(ev(6));
    ws.serverClose(1006); // before its ack went out
    h.timers.advance(60000);
    await tick();
    ws = FakeWebSocket.last();
    ws.frame(welcome());
    assert.deepEqual(ws.sent, [{ t: 'resume', streams: [{ stream: 'u:42', epoch: 'e1', seq: 6 }] }], 'the resume comes first');
    h.timers.advance(ACK_DELAY_MS);
    assert.deepEqual(sentOf(ws, 'ack'), [{ t: 'ack', stream: 'u:42', seq: 6 }]);
  });
});

describe('connect tickets', () => {
  test('each connection POSTs the token in a header to the gateway it connects to; only the ticket is in the URL', async () => {
    const h = harness();
    await tick();
    assert.equal(h.fetch.calls.length, 1);
    const { url, init } = h.fetch.calls[0];
    assert.equal(url, 'http://a.test:8081/v1/tickets');
    assert.equal(init.method, 'POST');
    assert.deepEqual(init.headers, { Authorization: `Bearer ${TOKEN}` });
    assert.equal(init.credentials, 'omit');
    assert.equal(FakeWebSocket.last().url, 'ws://a.test:8081/v1/ws?ticket=t1&device=dev-1');
    FakeWebSocket.last().frame(welcome());
    FakeWebSocket.last().serverClose(1001);
    h.timers.advance(PROMPT_MAX_MS);
    await tick();
    assert.equal(h.fetch.calls[1].url, 'http://b.test:8082/v1/tickets', 'a new ticket, from the next gateway');
    assert.equal(FakeWebSocket.last().url, 'ws://b.test:8082/v1/ws?ticket=t2&device=dev-1');
    for (const ws of FakeWebSocket.all) assert.ok(!ws.url.includes(TOKEN), 'the token never goes into a URL');
  });

  test('a gateway that answers 404 (older than tickets) gets ?access_token=; the console says so once, without the token', async () => {
    const warnings = [];
    const warn = console.warn;
    console.warn = (...args) => warnings.push(args.join(' '));
    try {
      const h = harness({ fetch: fakeFetch(() => 404) });
      await tick();
      assert.equal(FakeWebSocket.last().url, `ws://a.test:8081/v1/ws?access_token=${TOKEN}&device=dev-1`);
      FakeWebSocket.last().serverClose(1006);
      h.timers.advance(60000);
      await tick();
      assert.equal(h.fetch.calls.length, 2, 'asked again: the gateway may have been upgraded meanwhile');
      assert.equal(FakeWebSocket.last().url, `ws://b.test:8082/v1/ws?access_token=${TOKEN}&device=dev-1`);
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0], /404/);
      assert.ok(!warnings[0].includes(TOKEN) && !warnings[0].includes(TOKEN.split('.')[1]), 'no token in the console');
    } finally {
      console.warn = warn;
    }
  });

  test('a refused ticket request opens no socket: 401 asks for a fresh token, the next gateway is tried after a backoff', async () => {
    const errors = [];
    const h = harness({ fetch: fakeFetch((url, n) => (n === 1 ? 401 : 201)) });
    h.client.onError = (e) => errors.push(e);
    await tick();
    assert.equal(FakeWebSocket.all.length, 0);
    assert.ok(errors[0] instanceof TicketError && errors[0].status === 401);
    assert.equal(h.lastState().s, 'disconnected');
    assert.equal(h.lastState().terminal, false);
    assert.equal(h.lastState().delayMs, 500, 'backoff, not a prompt retry');
    h.timers.advance(500);
    await tick();
    assert.deepEqual(h.tokenCalls, [{ refresh: false }, { refresh: true }]);
    assert.equal(FakeWebSocket.last().url, 'ws://b.test:8082/v1/ws?ticket=t2&device=dev-1');
  });

  test('503 and an unreachable gateway back off and rotate too', async () => {
    const h = harness({ fetch: fakeFetch((url, n) => (n === 1 ? 503 : n === 2 ? () => { throw new TypeError('Failed to fetch'); } : 201)) });
    await tick();
    assert.equal(FakeWebSocket.all.length, 0);
    h.timers.advance(h.lastState().delayMs);
    await tick();
    assert.equal(FakeWebSocket.all.length, 0);
    assert.equal(h.lastState().reason, 'ticket request failed');
    h.timers.advance(h.lastState().delayMs);
    await tick();
    assert.equal(FakeWebSocket.last().url, 'ws://a.test:8081/v1/ws?ticket=t3&device=dev-1');
    assert.deepEqual(h.tokenCalls.map((c) => c.refresh), [false, false, false], 'only a 401 asks for a fresh token');
  });

  test('close() while the ticket request is pending: no socket is opened afterwards', async () => {
    let release;
    const pending = new Promise((r) => { release = r; });
    const fetch = async () => { await pending; return { status: 201, json: async () => ({ ticket: 'late', expiresIn: 30 }) }; };
    const h = harness({ fetch });
    await tick();
    h.client.close();
    release();
    await tick();
    assert.equal(FakeWebSocket.all.length, 0);
    assert.equal(h.lastState().terminal, true);
  });

  test('requestTicket: 201 and 200 give the ticket, 404 null, other statuses and bad bodies a TicketError', async () => {
    assert.deepEqual(await requestTicket('https://h', 'jwt', { fetch: fakeFetch(() => 201) }), { ticket: 't1' });
    assert.equal(await requestTicket('https://h', 'jwt', { fetch: fakeFetch(() => 404) }), null);
    for (const status of [401, 403, 405, 500, 503]) {
      await assert.rejects(requestTicket('https://h', 'jwt', { fetch: fakeFetch(() => status) }),
        (e) => e instanceof TicketError && e.status === status && !e.message.includes('jwt'));
    }
    const noTicket = async () => ({ status: 200, json: async () => ({ expiresIn: 30 }) });
    await assert.rejects(requestTicket('https://h', 'jwt', { fetch: noTicket }), TicketError);
  });
});

describe('helpers', () => {
  test('gateway URLs', () => {
    assert.equal(webSocketUrl('http://h:1', 'a b'), 'ws://h:1/v1/ws?access_token=a%20b');
    assert.equal(webSocketUrl('https://h/', 't'), 'wss://h/v1/ws?access_token=t');
    assert.equal(webSocketUrl('wss://h/base/v1/ws', 't'), 'wss://h/base/v1/ws?access_token=t');
    assert.equal(sseUrl('ws://h:1', 't', { epoch: 'e', seq: 3 }), 'http://h:1/v1/sse?access_token=t&lastEventId=e%3A3');
    assert.equal(sseUrl('https://h/v1/sse', 't', null), 'https://h/v1/sse?access_token=t');
    assert.equal(webSocketUrl('https://h/base/', { ticket: 'a/b+c' }), 'wss://h/base/v1/ws?ticket=a%2Fb%2Bc');
    assert.equal(sseUrl('ws://h:1', { ticket: 'k' }, { epoch: 'e', seq: 3 }), 'http://h:1/v1/sse?ticket=k&lastEventId=e%3A3');
    assert.equal(ticketUrl('wss://h:1/base/v1/ws'), 'https://h:1/base/v1/tickets');
    assert.equal(ticketUrl('http://h:1'), 'http://h:1/v1/tickets');
    assert.equal(webSocketUrl('http://h:1', { ticket: 'k' }, 'laptop-1'), 'ws://h:1/v1/ws?ticket=k&device=laptop-1');
    assert.equal(sseUrl('http://h:1', { ticket: 'k' }, { epoch: 'e', seq: 3 }, [], 'laptop-1'),
      'http://h:1/v1/sse?ticket=k&device=laptop-1&lastEventId=e%3A3');
    assert.equal(inboxUrl('wss://h:1/base/v1/ws', '/unread'), 'https://h:1/base/v1/inbox/unread');
    assert.equal(inboxUrl('http://h:1', '?limit=5'), 'http://h:1/v1/inbox?limit=5');
  });

  test('positions: format, parse, localStorage', () => {
    assert.equal(formatPosition({ epoch: 'k3x9', seq: 17 }), 'k3x9:17');
    assert.deepEqual(parsePosition('k3x9:17'), { epoch: 'k3x9', seq: 17 });
    for (const bad of [null, '', 'k3x9', ':1', 'k3x9:0', 'k3x9:01', 'k3x9:-1', 'a b:1', 'e:99999999999999999']) {
      assert.equal(parsePosition(bad), null, String(bad));
    }
    const data = new Map();
    const storage = {
      getItem: (k) => (data.has(k) ? data.get(k) : null), setItem: (k, v) => data.set(k, String(v)),
      removeItem: (k) => data.delete(k), key: (i) => [...data.keys()][i], get length() { return data.size; },
    };
    const store = localStoragePositions({ storage });
    store.set('u:42', { epoch: 'e1', seq: 3 });
    assert.equal(data.get('notify.position.u:42'), 'e1:3');
    data.set('notify.position.u:7', 'garbage');
    assert.equal(store.get('u:7'), null, 'corrupt storage costs a replay, not a crash');
    assert.deepEqual(store.entries(), [{ stream: 'u:42', epoch: 'e1', seq: 3 }]);
    store.set('u:42', null);
    assert.equal(data.size, 1);
  });

  test('token claims are read without verification; garbage gives null', () => {
    assert.deepEqual(tokenClaims(TOKEN), { sub: '42', exp: 4102444800 });
    assert.equal(tokenClaims('not a jwt'), null);
  });

  test('connect() checks its options', () => {
    assert.throws(() => connect({ token: 't' }), TypeError);
    assert.throws(() => connect({ gateways: [], token: 't' }), TypeError);
    assert.throws(() => connect({ gateways: ['http://h'] }), TypeError);
    assert.throws(() => connect({ gateways: ['http://h'], token: 't', transport: 'carrier-pigeon' }), TypeError);
  });
});

// ---------------------------------------------------------------------------------------------
// rooms and broadcast (docs/protocol.md §8)

/** Room handlers for client.subscribe() that record what reaches them. */
function roomLog() {
  const r = { events: [], subscribed: [], refused: [], resets: [], unsubscribed: [] };
  r.handlers = {
    onEvent: (e) => r.events.push(e),
    onSubscribed: (x) => r.subscribed.push(x),
    onRefused: (x) => r.refused.push(x),
    onReset: (x) => r.resets.push(x),
    onUnsubscribed: (x) => r.unsubscribed.push(x),
  };
  r.seqs = () => r.events.filter((e) => e.class === 'durable').map((e) => e.seq);
  return r;
}

const sentOf = (ws, t) => ws.sent.filter((f) => f.t === t);

/** A client over WebSocket that subscribed to `room` (handlers recorded in `log`) and got its welcome. */
async function inRoom(room, opts) {
  const h = harness(opts);
  const log = roomLog();
  h.client.subscribe(room, log.handlers);
  await tick();
  const ws = FakeWebSocket.last();
  ws.frame(welcome());
  return { h, log, ws };
}

/** The connection dropped: the backoff runs out, the next ticket and socket follow. */
async function nextSocket(h) {
  h.timers.advance(60000);
  await tick();
  return FakeWebSocket.last();
}

/** Records when each frame of `ws` was sent, on the harness clock. */
function clocked(ws, timers) {
  ws.at = [];
  const send = ws.send.bind(ws);
  ws.send = (text) => { ws.at.push(timers.now); send(text); };
  return ws;
}

/** The gateway's inbound limit (protocol §6: 10 frames/s, bursts of 20) over the send times: true when never exceeded. */
function withinGatewayLimit(times, burst = 20, perSecond = 10) {
  let tokens = burst;
  let last = 0;
  for (const t of times) {
    tokens = Math.min(burst, tokens + ((t - last) * perSecond) / 1000);
    last = t;
    if (tokens < 1) return false;
    tokens -= 1;
  }
  return true;
}

describe('rooms and broadcast', () => {
  test('room names: r:<room>, BROADCAST is b:all; a name the gateway would refuse throws', () => {
    assert.equal(roomStream('chat-1'), 'r:chat-1');
    assert.equal(roomStream('demo:lobby'), 'r:demo:lobby');
    assert.equal(roomStream(BROADCAST), 'b:all');
    for (const bad of ['', 'a b', 'x'.repeat(129), 'chat?', null, 7]) assert.throws(() => roomStream(bad), TypeError, String(bad));
    const h = harness();
    assert.throws(() => h.client.subscribe('no spaces'), TypeError);
  });

  test('subscribe: sent after resume on welcome, with the stored position; a fresh room adopts the head of `subscribed`', async () => {
    const h = harness({ positions: { 'u:42': { epoch: 'e1', seq: 5 }, 'r:chat-1': { epoch: 'r1', seq: 9 } } });
    const chat = roomLog(); const news = roomLog(); const all = roomLog();
    assert.equal(h.client.subscribe('chat-1', chat.handlers), 'r:chat-1');
    h.client.subscribe('news', news.handlers);
    h.client.subscribe(BROADCAST, all.handlers);
    await tick();
    const ws = FakeWebSocket.last();
    ws.onopen();
    assert.deepEqual(ws.sent, [{ t: 'resume', streams: [{ stream: 'u:42', epoch: 'e1', seq: 5 }] }], 'rooms wait for the welcome');
    ws.frame(welcome());
    assert.deepEqual(ws.sent.slice(1), [
      { t: 'subscribe', stream: 'r:chat-1', epoch: 'r1', seq: 9 },
      { t: 'subscribe', stream: 'r:news' },
      { t: 'subscribe', stream: 'b:all' },
    ]);
    ws.frame({ t: 'subscribed', stream: 'r:chat-1', head: { epoch: 'r1', seq: 11 } });
    ws.frame({ t: 'subscribed', stream: 'r:news', head: { epoch: 'n1', seq: 40 } });
    ws.frame({ t: 'subscribed', stream: 'b:all' }); // no history yet
    assert.deepEqual(chat.subscribed, [{ stream: 'r:chat-1', head: { epoch: 'r1', seq: 11 } }]);
    assert.deepEqual(all.subscribed, [{ stream: 'b:all', head: null }]);
    assert.deepEqual(h.store.get('r:chat-1'), { epoch: 'r1', seq: 9 }, 'a stored position is kept: the replay follows');
    assert.deepEqual(h.store.get('r:news'), { epoch: 'n1', seq: 40 }, 'a fresh room starts at its head');
    assert.equal(h.store.get('b:all'), null);
    for (const seq of [10, 11, 12]) ws.frame(ev(seq, 'r1', 'r:chat-1'));
    ws.frame(ev(40, 'n1', 'r:news'));
    ws.frame(ev(41, 'n1', 'r:news'));
    ws.frame(ev(1, 'b1', 'b:all'));
    assert.deepEqual(chat.seqs(), [10, 11, 12]);
    assert.deepEqual(news.seqs(), [41], 'the head itself is history');
    assert.deepEqual(all.seqs(), [1]);
    assert.deepEqual(h.events, [], "room events reach the room's handlers, not the client's");
    assert.deepEqual(h.client.subscriptions(), ['r:chat-1', 'r:news', 'b:all']);
  });

  test('a room resumes on the next node from its stored position: no gap, no duplicate, dedup by (stream, epoch, seq)', async () => {
    let { h, log: chat, ws } = await inRoom('chat-1');
    assert.deepEqual(sentOf(ws, 'subscribe'), [{ t: 'subscribe', stream: 'r:chat-1' }]);
    ws.frame({ t: 'subscribed', stream: 'r:chat-1', head: { epoch: 'r1', seq: 3 } });
    ws.frame(ev(4, 'r1', 'r:chat-1'));
    ws.frame(ev(5, 'r1', 'r:chat-1'));
    ws.serverClose(1006); // the node died
    ws = await nextSocket(h);
    assert.match(ws.url, /^ws:\/\/b\.test:8082\//);
    ws.frame(welcome({ nodeId: 'gw-2' }));
    assert.deepEqual(sentOf(ws, 'subscribe'), [{ t: 'subscribe', stream: 'r:chat-1', epoch: 'r1', seq: 5 }]);
    ws.frame({ t: 'subscribed', stream: 'r:chat-1', head: { epoch: 'r1', seq: 8 } });
    assert.deepEqual(h.store.get('r:chat-1'), { epoch: 'r1', seq: 5 }, "a resumed room's head is not adopted");
    for (const seq of [4, 5, 6, 7, 6, 8]) ws.frame(ev(seq, 'r1', 'r:chat-1')); // replay overlapping live events
    ws.frame(ev(9, 'other', 'r:chat-1')); // another epoch without a reset
    ws.frame(ev(9, 'r1', 'u:42')); // the user's stream is another stream: its seqs are its own
    assert.deepEqual(chat.seqs(), [4, 5, 6, 7, 8]);
    assert.deepEqual(h.events.map((e) => e.seq), [9]);
    assert.deepEqual(h.store.get('r:chat-1'), { epoch: 'r1', seq: 8 });
    ws.frame(ev(10, 'r1', 'r:chat-1')); // a gap: the connection resumes from what was processed
    assert.equal(ws.closedWith.code, 4000);
    ws = await nextSocket(h);
    ws.frame(welcome());
    assert.deepEqual(sentOf(ws, 'subscribe'), [{ t: 'subscribe', stream: 'r:chat-1', epoch: 'r1', seq: 8 }]);
    ws.frame(ev(9, 'r1', 'r:chat-1'));
    ws.frame(ev(10, 'r1', 'r:chat-1'));
    assert.deepEqual(chat.seqs(), [4, 5, 6, 7, 8, 9, 10]);
  });

  test('subscribe_refused: onRefused, the room is dropped and not asked for again', async () => {
    const h = harness();
    const secret = roomLog(); const open = roomLog();
    h.client.subscribe('secret', secret.handlers);
    h.client.subscribe('open', open.handlers);
    await tick();
    let ws = FakeWebSocket.last();
    ws.frame(welcome());
    ws.frame({ t: 'subscribe_refused', stream: 'r:secret', reason: 'forbidden', detail: "the token's rooms claim does not allow room 'secret'" });
    assert.deepEqual(secret.refused, [{ stream: 'r:secret', reason: 'forbidden', detail: "the token's rooms claim does not allow room 'secret'" }]);
    assert.deepEqual(h.client.subscriptions(), ['r:open']);
    ws.frame(ev(1, 's1', 'r:secret'));
    assert.deepEqual(secret.events, []);
    assert.deepEqual(h.events, [], 'nor does the client-wide onEvent see it');
    ws.serverClose(1001);
    ws = await nextSocket(h);
    ws.frame(welcome());
    assert.deepEqual(sentOf(ws, 'subscribe'), [{ t: 'subscribe', stream: 'r:open' }]);
    assert.equal(secret.refused.length, 1);
  });

  test('unsubscribe: the frame, events in flight dropped, onUnsubscribed on the answer, the position kept for a later join', async () => {
    let { h, log: chat, ws } = await inRoom('chat-1');
    ws.frame({ t: 'subscribed', stream: 'r:chat-1' });
    ws.frame(ev(1, 'r1', 'r:chat-1'));
    h.client.unsubscribe('chat-1');
    assert.deepEqual(ws.sent.at(-1), { t: 'unsubscribe', stream: 'r:chat-1' });
    ws.frame(ev(2, 'r1', 'r:chat-1'));
    ws.frame({ t: 'reset', stream: 'r:chat-1', reason: 'unknown_stream' });
    assert.deepEqual(chat.unsubscribed, []);
    ws.frame({ t: 'unsubscribed', stream: 'r:chat-1' });
    assert.deepEqual(chat.unsubscribed, [{ stream: 'r:chat-1' }]);
    assert.deepEqual(chat.seqs(), [1]);
    assert.deepEqual(chat.resets, []);
    assert.deepEqual(h.resets, [], 'a left room is nobody’s business');
    assert.deepEqual(h.store.get('r:chat-1'), { epoch: 'r1', seq: 1 });
    h.client.unsubscribe('chat-1'); // not subscribed: nothing
    ws.serverClose(1001);
    ws = await nextSocket(h);
    ws.frame(welcome());
    assert.deepEqual(sentOf(ws, 'subscribe'), [], 'a room left is not subscribed again');
    h.client.subscribe('chat-1', chat.handlers);
    assert.deepEqual(ws.sent.at(-1), { t: 'subscribe', stream: 'r:chat-1', epoch: 'r1', seq: 1 }, 'joining again resumes');
  });

  test('an unsubscribe whose answer never came counts as done when the connection ends', async () => {
    let { h, log: chat, ws } = await inRoom('chat-1');
    h.client.unsubscribe('chat-1');
    ws.serverClose(1006);
    assert.deepEqual(chat.unsubscribed, [{ stream: 'r:chat-1' }]);
    ws = await nextSocket(h);
    ws.frame(welcome());
    assert.deepEqual(sentOf(ws, 'subscribe'), []);
  });

  test("subscribes are paced under the gateway's frame limit; an unsubscribe takes back a subscribe not sent yet", async () => {
    const h = harness();
    await tick();
    const ws = clocked(FakeWebSocket.last(), h.timers);
    ws.frame(welcome());
    const names = Array.from({ length: 40 }, (_, i) => 'room-' + i);
    const last = roomLog();
    for (const name of names) h.client.subscribe(name, name === 'room-39' ? last.handlers : {});
    assert.equal(sentOf(ws, 'subscribe').length, PACE_BURST, 'a burst at once');
    h.client.unsubscribe('room-39');
    assert.deepEqual(last.unsubscribed, [{ stream: 'r:room-39' }], 'never sent: done at once');
    h.timers.advance(1000);
    assert.equal(sentOf(ws, 'subscribe').length, PACE_BURST + PACE_PER_SECOND, 'then PACE_PER_SECOND a second');
    h.timers.advance(10000);
    assert.deepEqual(sentOf(ws, 'subscribe').map((f) => f.stream), names.slice(0, 39).map((n) => 'r:' + n), 'all, in order');
    assert.equal(sentOf(ws, 'unsubscribe').length, 0);
    for (let i = 0; i < 12; i++) ws.frame({ t: 'ping' }); // pongs are not paced, but count at the gateway
    h.client.subscribe('late', {});
    assert.ok(withinGatewayLimit(ws.at), `frames at ${ws.at.join(',')}`);
  });

  test('acks of many rooms wait behind subscribes and keep one per stream, with its latest seq', async () => {
    const h = harness();
    await tick();
    const ws = clocked(FakeWebSocket.last(), h.timers);
    ws.frame(welcome());
    const streams = Array.from({ length: 24 }, (_, i) => h.client.subscribe('room-' + i, {}));
    for (let round = 1; round <= 8; round++) {
      for (const s of streams) ws.frame(ev(round, 'r1', s));
      h.timers.advance(250);
    }
    h.timers.advance(10000);
    const acks = sentOf(ws, 'ack');
    for (const s of streams) {
      const mine = acks.filter((a) => a.stream === s).map((a) => a.seq);
      assert.equal(mine.at(-1), 8, `${s} acked up to its last seq: ${mine}`);
      assert.deepEqual(mine, [...mine].sort((a, b) => a - b), 'cumulative, never back');
      assert.ok(mine.length <= 4, `${s}: ${mine.length} acks for 8 events in 2 s`);
    }
    assert.equal(sentOf(ws, 'subscribe').length, 24);
    assert.ok(ws.sent.findIndex((f) => f.t === 'ack') > ws.sent.findLastIndex((f) => f.t === 'subscribe'), 'subscribes first');
    assert.ok(withinGatewayLimit(ws.at));
  });

  test('presence: a promise per question, one in flight per room; errors and a lost connection reject', async () => {
    const { h, ws } = await inRoom('team-1');
    const first = h.client.presence('team-1');
    const second = h.client.presence('team-1', { after: 'bob', limit: 2 });
    assert.deepEqual(sentOf(ws, 'presence'), [{ t: 'presence', stream: 'r:team-1' }], 'the answer names no page: one at a time');
    ws.frame({ t: 'presence_result', stream: 'r:team-1', online: 3, members: ['alice', 'bob'], next: 'bob' });
    assert.deepEqual(await first, { stream: 'r:team-1', online: 3, members: ['alice', 'bob'], next: 'bob' });
    assert.deepEqual(sentOf(ws, 'presence')[1], { t: 'presence', stream: 'r:team-1', after: 'bob', limit: 2 });
    ws.frame({ t: 'presence_result', stream: 'r:team-1', online: 3, members: ['carol'] });
    assert.deepEqual(await second, { stream: 'r:team-1', online: 3, members: ['carol'], next: null });
    const off = h.client.presence('team-1');
    ws.frame({ t: 'presence_result', stream: 'r:team-1', error: 'off' });
    await assert.rejects(off, (e) => e.code === 'off' && e.stream === 'r:team-1');
    const lost = h.client.presence('team-1');
    ws.serverClose(1006);
    await assert.rejects(lost, (e) => e.code === 'disconnected');
    await assert.rejects(h.client.presence('team-1'), (e) => e.code === 'disconnected', 'no connection: at once');
  });

  test("presence.join / presence.leave are the room's ephemeral events: each delivered, no position", async () => {
    const { h, log: team, ws } = await inRoom('team-1');
    ws.frame({ t: 'subscribed', stream: 'r:team-1', head: { epoch: 't1', seq: 2 } });
    const join = { t: 'event', stream: 'r:team-1', id: 'p-1', type: 'presence.join', class: 'ephemeral', data: { user: '7' } };
    ws.frame(join);
    ws.frame(join); // a user with devices on two nodes is announced twice
    ws.frame({ ...join, id: 'p-2', type: 'presence.leave' });
    assert.deepEqual(team.events.map((e) => `${e.type} ${e.data.user}`), ['presence.join 7', 'presence.join 7', 'presence.leave 7']);
    assert.deepEqual(h.store.get('r:team-1'), { epoch: 't1', seq: 2 });
  });

  test("reset of a room goes to its onReset and moves its position; a room without handlers uses the client's", async () => {
    const h = harness({ positions: { 'r:a': { epoch: 'old', seq: 4 }, 'r:b': { epoch: 'old', seq: 4 } } });
    const a = roomLog();
    h.client.subscribe('a', a.handlers);
    h.client.subscribe('b'); // no handlers: the client's onEvent and onReset
    await tick();
    const ws = FakeWebSocket.last();
    ws.frame(welcome());
    ws.frame({ t: 'reset', stream: 'r:a', reason: 'epoch_mismatch', head: { epoch: 'new', seq: 2 }, firstSeq: 1 });
    ws.frame({ t: 'reset', stream: 'r:b', reason: 'position_too_old', head: { epoch: 'old', seq: 900 }, firstSeq: 100 });
    ws.frame(ev(3, 'new', 'r:a'));
    ws.frame(ev(901, 'old', 'r:b'));
    assert.deepEqual(a.resets, [{ stream: 'r:a', reason: 'epoch_mismatch', head: { epoch: 'new', seq: 2 }, firstSeq: 1 }]);
    assert.deepEqual(a.seqs(), [3]);
    assert.deepEqual(h.resets.map((r) => r.stream), ['r:b']);
    assert.deepEqual(h.events.map((e) => `${e.stream} ${e.seq}`), ['r:b 901']);
  });

  test('SSE: rooms in ?rooms= and &broadcast=true, one composite Last-Event-ID; a change of rooms is one reconnect', async () => {
    const h = harness({ transport: 'sse', positions: { 'u:42': { epoch: 'e1', seq: 7 }, 'r:chat-1': { epoch: 'r1', seq: 3 } } });
    const chat = roomLog(); const all = roomLog(); const news = roomLog();
    h.client.subscribe('chat-1', chat.handlers);
    h.client.subscribe(BROADCAST, all.handlers);
    await tick();
    assert.equal(FakeEventSource.all.length, 1);
    let es = FakeEventSource.last();
    const cursor1 = `${cursorKey('u:42')}=e1:7,${cursorKey('r:chat-1')}=r1:3`;
    assert.equal(es.url, `http://a.test:8081/v1/sse?ticket=t1&device=dev-1&lastEventId=${encodeURIComponent(cursor1)}&rooms=chat-1&broadcast=true`);
    es.frame(welcome());
    es.frame({ t: 'subscribed', stream: 'r:chat-1', head: { epoch: 'r1', seq: 5 } });
    es.frame({ t: 'subscribed', stream: 'b:all', head: { epoch: 'b1', seq: 2 } });
    for (const seq of [3, 4, 5]) es.frame(ev(seq, 'r1', 'r:chat-1'));
    es.frame(ev(3, 'b1', 'b:all'));
    assert.deepEqual(chat.seqs(), [4, 5]);
    assert.deepEqual(all.seqs(), [3], 'b:all started at its head');
    await assert.rejects(h.client.presence('chat-1'), (e) => e.code === 'disconnected', 'SSE cannot ask');
    // two changes in one task: one new request, to the same gateway, resumed by the cursor
    h.client.subscribe('news', news.handlers);
    h.client.unsubscribe(BROADCAST);
    assert.deepEqual(all.unsubscribed, [{ stream: 'b:all' }], 'SSE has no answer to wait for');
    await tick();
    assert.equal(es.closed, true);
    assert.equal(FakeEventSource.all.length, 2);
    es = FakeEventSource.last();
    const cursor2 = `${cursorKey('u:42')}=e1:7,${cursorKey('r:chat-1')}=r1:5`;
    assert.equal(es.url, `http://a.test:8081/v1/sse?ticket=t2&device=dev-1&lastEventId=${encodeURIComponent(cursor2)}&rooms=chat-1,news`);
    es.frame(welcome());
    es.frame({ t: 'subscribed', stream: 'r:news' });
    es.frame(ev(5, 'r1', 'r:chat-1'));
    es.frame(ev(6, 'r1', 'r:chat-1'));
    es.frame(ev(1, 'n1', 'r:news'));
    assert.deepEqual(chat.seqs(), [4, 5, 6]);
    assert.deepEqual(news.seqs(), [1]);
    // a drop: the next gateway, the same rooms, the cursor of what was processed
    es.fail();
    h.timers.advance(60000);
    await tick();
    const cursor3 = `${cursorKey('u:42')}=e1:7,${cursorKey('r:chat-1')}=r1:6,${cursorKey('r:news')}=n1:1`;
    assert.equal(FakeEventSource.last().url,
      `http://b.test:8082/v1/sse?ticket=t3&device=dev-1&lastEventId=${encodeURIComponent(cursor3)}&rooms=chat-1,news`);
    assert.equal(FakeWebSocket.all.length, 0);
  });

  test('SSE without rooms keeps the plain position; cursor keys are the server’s (SseCursor.key)', () => {
    assert.equal(sseUrl('http://h', { ticket: 'k' }, { epoch: 'e', seq: 3 }, []), 'http://h/v1/sse?ticket=k&lastEventId=e%3A3');
    assert.equal(sseUrl('http://h', { ticket: 'k' }, null, ['r:a', 'b:all']), 'http://h/v1/sse?ticket=k&rooms=a&broadcast=true');
    const expected = process.env.NOTIFY_CURSOR_KEYS
      ? JSON.parse(process.env.NOTIFY_CURSOR_KEYS) // from io.notify.protocol.frame.SseCursor, via NotifyJsTest
      : { 'u:42': '23xr7', 'r:chat-1': 'ubitxg', 'b:all': '1iyxzd', 'r:demo:lobby': 'b7vh53' };
    assert.ok(Object.keys(expected).length >= 4);
    for (const [stream, key] of Object.entries(expected)) assert.equal(cursorKey(stream), key, stream);
    assert.equal(compositeCursor([{ stream: 'u:42', pos: null }, { stream: 'r:chat-1', pos: { epoch: 'e', seq: 1 } }]),
      `${cursorKey('r:chat-1')}=e:1`, 'streams without a position are left out');
  });
});

// ---------------------------------------------------------------------------------------------
// the inbox (docs/inbox.md), the unread estimate, the device id, collapsed catch-up

/** A storage like localStorage over a Map. */
function fakeStorage(data = new Map()) {
  return {
    data,
    getItem: (k) => (data.has(k) ? data.get(k) : null), setItem: (k, v) => data.set(k, String(v)),
    removeItem: (k) => data.delete(k), key: (i) => [...data.keys()][i], get length() { return data.size; },
  };
}

/**
 * The gateways: tickets as fakeFetch, the inbox routes answered by `answer(url, init, n)` (n: the how-manieth
 * inbox call) → { status, body, headers }. A body of undefined is one that is not JSON.
 */
function gatewayFetch(answer) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    if (url.endsWith('/v1/tickets')) return { status: 201, ok: true, json: async () => ({ ticket: 't' + calls.length, expiresIn: 30 }) };
    const a = answer(url, init, fetch.inbox().length);
    const headers = new Map(Object.entries(a.headers || {}));
    return { status: a.status, ok: a.status >= 200 && a.status < 300, headers: { get: (k) => headers.get(k) ?? null },
      json: async () => { if (a.body === undefined) throw new SyntaxError('not JSON'); return a.body; } };
  };
  fetch.calls = calls;
  fetch.inbox = () => calls.filter((c) => c.url.includes('/v1/inbox'));
  return fetch;
}

const ok = (body, status = 200) => ({ status, body });
const problem = (status, type, detail, headers) => ({ status, headers,
  body: { type: 'urn:notify:problem:' + type, title: type, status, detail } });
const counts = (unread, unseen, version, seq, epoch = 'e1') => ({ unread, unseen, version, head: seq ? { epoch, seq } : null });
const stateFrame = (version, head, unread, unseen = unread, extra = {}) => ({ t: 'state', stream: 'u:42', epoch: 'e1', head, unread, unseen,
  version, kind: 'read', upTo: head, ...extra });

/** A client connected over WebSocket (welcome received) whose gateways answer the inbox with `answer`. */
async function connected(answer = () => ok({}), opts = {}) {
  const fetch = gatewayFetch(answer);
  const h = harness({ ...opts, fetch });
  await tick();
  const ws = FakeWebSocket.last();
  ws.frame(welcome());
  await tick();
  return { h, ws, fetch };
}

describe('inbox API', () => {
  test('calls go to the connected gateway with the token in a header; pages, counts and marks (with the device)', async () => {
    const page = { stream: 'u:42', head: { epoch: 'e1', seq: 20 }, firstSeq: 1, unread: 2, unseen: 1, version: 4,
      events: [{ event: ev(20), state: 'unseen' }, { event: ev(19), state: 'read' }] };
    const { h, ws, fetch } = await connected((url, init) => (init.method === 'POST' ? ok({ stream: 'u:42', accepted: true }, 202)
      : url.endsWith('/unread') ? ok(counts(2, 1, 4, 20)) : ok(page)));
    assert.equal(fetch.inbox().length, 0, 'nothing asked without the inbox option');

    const got = await h.client.inbox({ before: 21, limit: 2, archived: 'include' });
    assert.deepEqual(got, { ...page, next: null });
    let call = fetch.inbox().at(-1);
    assert.equal(call.url, 'http://a.test:8081/v1/inbox?before=21&limit=2&archived=include');
    assert.equal(call.init.method, 'GET');
    assert.deepEqual(call.init.headers, { Authorization: `Bearer ${TOKEN}` });
    assert.equal(call.init.credentials, 'omit');
    assert.equal(call.init.body, undefined);
    assert.equal(h.client.unread, 2, "the page's counts are a read state");

    assert.deepEqual(await h.client.unreadCount(), counts(2, 1, 4, 20));
    assert.equal(fetch.inbox().at(-1).url, 'http://a.test:8081/v1/inbox/unread');

    assert.deepEqual(await h.client.markRead({ upTo: { epoch: 'e1', seq: 20 } }), { stream: 'u:42', accepted: true });
    await h.client.markSeen({ ids: ['id-19', 'id-20'] });
    await h.client.archive({ upTo: 3, epoch: 'e1' });
    const marks = fetch.inbox().slice(-3);
    assert.deepEqual(marks.map((c) => c.url), ['read', 'seen', 'archive'].map((k) => 'http://a.test:8081/v1/inbox/' + k));
    assert.deepEqual(marks.map((c) => JSON.parse(c.init.body)), [
      { upTo: 20, epoch: 'e1', device: 'dev-1' }, { ids: ['id-19', 'id-20'], device: 'dev-1' }, { upTo: 3, epoch: 'e1', device: 'dev-1' }]);
    for (const c of marks) {
      assert.equal(c.init.method, 'POST');
      assert.deepEqual(c.init.headers, { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' });
    }
    for (const bad of [undefined, {}, { upTo: 1, ids: ['a'] }, { upTo: 0 }, { upTo: 1.5 }, { ids: [] }, { ids: [7] }, { ids: 'a' }]) {
      await assert.rejects(h.client.markRead(bad), TypeError, JSON.stringify(bad));
    }
    assert.equal(fetch.inbox().length, 5, 'a malformed mark is never sent');

    ws.serverClose(1001); // the next connection is to b: so are the calls
    await h.client.unreadCount();
    assert.equal(fetch.inbox().at(-1).url, 'http://b.test:8082/v1/inbox/unread');
  });

  test('a problem+json answer rejects with an InboxError carrying status, type and detail', async () => {
    const { h } = await connected(() => problem(400, 'bad-request', 'limit must be from 1 to 100, got 0'));
    await assert.rejects(h.client.inbox({ limit: 0 }), (e) => e instanceof InboxError && e.status === 400
      && e.type === 'urn:notify:problem:bad-request' && e.detail === 'limit must be from 1 to 100, got 0'
      && e.message.includes('GET /v1/inbox answered 400'));
    const { h: h2 } = await connected(() => ({ status: 502 })); // not JSON at all
    await assert.rejects(h2.client.unreadCount(), (e) => e instanceof InboxError && e.status === 502 && e.type === null);
  });

  test('a 401 asks the token callback for a fresh token once, then gives up', async () => {
    const { h, fetch } = await connected((url, init, n) => (n === 1 ? problem(401, 'unauthenticated', 'token refused: token_expired')
      : ok(counts(0, 0, 1, 3))));
    assert.deepEqual(await h.client.unreadCount(), counts(0, 0, 1, 3));
    assert.deepEqual(h.tokenCalls.slice(-2), [{ refresh: false }, { refresh: true }]);
    assert.equal(fetch.inbox().length, 2);
    const { h: h2, fetch: f2 } = await connected(() => problem(401, 'unauthenticated', 'token refused: bad_signature'));
    await assert.rejects(h2.client.markRead({ upTo: 1 }), (e) => e.status === 401 && e.type === 'urn:notify:problem:unauthenticated');
    assert.equal(f2.inbox().length, 2, 'one fresh token, not a loop');
  });

  test('503 with Retry-After is tried again after it (with jitter), at most INBOX_RETRIES times', async () => {
    const busy = problem(503, 'overloaded', 'too many inbox requests', { 'Retry-After': '2' });
    const { h, fetch } = await connected((url, init, n) => (n <= 2 ? busy : ok(counts(1, 1, 2, 5))));
    const answer = h.client.unreadCount();
    await tick();
    assert.equal(fetch.inbox().length, 1);
    h.timers.advance(2000 + 499); // Retry-After plus random() (0.5) of a second
    await tick();
    assert.equal(fetch.inbox().length, 1, 'not before its Retry-After and jitter');
    h.timers.advance(1);
    await tick();
    assert.equal(fetch.inbox().length, 2);
    h.timers.advance(2500);
    await tick();
    assert.deepEqual(await answer, counts(1, 1, 2, 5));

    const { h: h2, fetch: f2 } = await connected(() => busy);
    const refused = assert.rejects(h2.client.markRead({ upTo: 5 }), (e) => e.status === 503 && e.type === 'urn:notify:problem:overloaded');
    for (let i = 0; i < INBOX_RETRIES + 2; i++) { h2.timers.advance(3000); await tick(); }
    await refused;
    assert.equal(f2.inbox().length, 1 + INBOX_RETRIES);

    const { h: h3, fetch: f3 } = await connected(() => problem(503, 'unavailable', 'no query API'));
    await assert.rejects(h3.client.unreadCount(), (e) => e.status === 503, 'without Retry-After: at once');
    assert.equal(f3.inbox().length, 1);
  });
});

describe('unread estimate and state frames', () => {
  test('the newest state plus the events of the user stream received above its head; a lower version is ignored', async () => {
    const { h, ws } = await connected(undefined, { positions: { 'u:42': { epoch: 'e1', seq: 5 } } });
    assert.equal(h.client.unread, null, 'no read state yet');
    ws.frame(ev(6)); // received before any state: counted once one arrives, if above its head
    ws.frame(stateFrame(3, 5, 2, 1, { device: 'phone-1' }));
    assert.deepEqual(h.inboxStates, [{ stream: 'u:42', epoch: 'e1', head: 5, unread: 2, unseen: 1, version: 3, kind: 'read', upTo: 5,
      device: 'phone-1' }]);
    assert.equal(h.client.unread, 3);
    assert.equal(h.client.unseen, 2);
    ws.frame(ev(7));
    ws.frame(ev(8));
    assert.deepEqual(h.unreads.at(-1), { unread: 5, unseen: 4, version: 3, head: { epoch: 'e1', seq: 8 } });
    ws.frame({ t: 'event', stream: 'u:42', id: 'typing', type: 'chat.typing', class: 'ephemeral', data: {} });
    ws.frame(ev(1, 'r1', 'r:chat')); // not the user's stream (and not held): no count
    assert.equal(h.client.unread, 5, 'only durable events of the user stream count');

    ws.frame(stateFrame(2, 8, 0)); // stale: an older version, arriving late
    assert.equal(h.client.unread, 5);
    assert.equal(h.inboxStates.length, 1, 'a stale state is not passed on');
    ws.frame(stateFrame(4, 7, 0)); // read up to 7, computed when the head was 7: 8 is still unread
    assert.equal(h.client.unread, 1);
    ws.frame(stateFrame(4, 6, 0)); // the same version with a lower head adds nothing
    assert.equal(h.client.unread, 1);
    ws.frame(stateFrame(5, 8, 1, 0, { kind: 'seen' })); // 8 was already received: not counted twice
    assert.equal(h.client.unread, 1);
    assert.equal(h.client.unseen, 0);
    ws.frame({ ...stateFrame(9, 8, 0), stream: 'u:7' });
    assert.equal(h.client.unread, 1, "another user's stream is not this one");
    assert.deepEqual(h.unreads.map((c) => `${c.unread}/${c.unseen}`), ['3/2', '4/3', '5/4', '1/1', '1/0'], 'onUnread only when the estimate changes');
    assert.equal(h.inboxStates.length, 3);
  });

  test('inbox: true reads the counts after every welcome; a count older than a state frame is ignored', async () => {
    let answer = counts(4, 4, 7, 9);
    const { h, fetch } = await connected(() => ok(answer), { inbox: true, positions: { 'u:42': { epoch: 'e1', seq: 9 } } });
    assert.deepEqual(fetch.inbox().map((c) => c.url), ['http://a.test:8081/v1/inbox/unread']);
    assert.equal(h.client.unread, 4);
    let ws = FakeWebSocket.last();
    ws.frame(ev(10));
    assert.equal(h.client.unread, 5);
    ws.serverClose(1006); // away: state frames sent meanwhile are lost
    answer = counts(1, 0, 8, 10);
    ws = await nextSocket(h);
    ws.frame(welcome());
    await tick();
    assert.equal(fetch.inbox().length, 2);
    assert.equal(h.client.unread, 1, 'read again after the welcome');
    ws.frame(stateFrame(9, 10, 0));
    answer = counts(1, 0, 8, 10);
    await h.client.unreadCount(); // an answer read before the newest state arrived
    assert.equal(h.client.unread, 0);
  });
});

describe('collapsed catch-up', () => {
  test('the position moves to `to`: the next event is to + 1, acks cover it, onCollapsed gets the count', async () => {
    const { h, ws } = await connected(undefined, { positions: { 'u:42': { epoch: 'e1', seq: 2 } } });
    ws.frame(stateFrame(1, 2, 0));
    ws.frame({ t: 'collapsed', stream: 'u:42', epoch: 'e1', from: 3, to: 6 });
    assert.deepEqual(h.collapses, [{ stream: 'u:42', epoch: 'e1', from: 3, to: 6, count: 4 }]);
    assert.deepEqual(h.store.get('u:42'), { epoch: 'e1', seq: 6 });
    h.timers.advance(ACK_DELAY_MS);
    assert.deepEqual(sentOf(ws, 'ack'), [{ t: 'ack', stream: 'u:42', seq: 6 }]);
    ws.frame(ev(7));
    assert.equal(ws.closedWith, null, 'no gap');
    assert.equal(h.client.unread, 5, 'the collapsed events are held and unread too');
    ws.frame({ t: 'collapsed', stream: 'u:42', epoch: 'e1', from: 3, to: 6 }); // a replay of it
    ws.frame({ t: 'collapsed', stream: 'u:42', epoch: 'e2', from: 8, to: 9 }); // another history
    ws.frame({ t: 'collapsed', stream: 'u:42', epoch: 'e1', from: 6, to: 5 }); // malformed
    assert.equal(h.collapses.length, 1);
    ws.frame({ t: 'collapsed', stream: 'u:42', epoch: 'e1', from: 5, to: 9 }); // overlapping what was processed
    assert.deepEqual(h.collapses[1], { stream: 'u:42', epoch: 'e1', from: 8, to: 9, count: 2 });
    ws.frame(ev(10));
    assert.deepEqual(h.log.filter((l) => !l.startsWith('set')), ['collapsed u:42 3..6', 'event 7', 'collapsed u:42 8..9', 'event 10'],
      'in seq order with the events');
    h.timers.advance(ACK_DELAY_MS);
    assert.deepEqual(sentOf(ws, 'ack').at(-1), { t: 'ack', stream: 'u:42', seq: 10 });
    ws.frame({ t: 'collapsed', stream: 'u:42', epoch: 'e1', from: 12, to: 14 });
    assert.equal(ws.closedWith.code, 4000, 'seqs missing before it: a gap');
  });

  test('an event the user muted for live is a collapsed frame of its seq with reason muted: a position, told as such', async () => {
    const { h, ws } = await connected(undefined, { positions: { 'u:42': { epoch: 'e1', seq: 2 } } });
    ws.frame({ t: 'collapsed', stream: 'u:42', epoch: 'e1', from: 3, to: 3, reason: 'muted' });
    ws.frame(ev(4));
    assert.deepEqual(h.collapses, [{ stream: 'u:42', epoch: 'e1', from: 3, to: 3, count: 1, reason: 'muted' }]);
    assert.equal(ws.closedWith, null, 'no gap');
    assert.deepEqual(h.store.get('u:42'), { epoch: 'e1', seq: 4 });
  });

  test("a room's collapsed frame goes to its onCollapsed; over SSE the cursor resumes after `to`", async () => {
    const { h, log: chat, ws } = await inRoom('chat-1');
    const seen = [];
    chat.handlers.onCollapsed = (c) => seen.push(c);
    ws.frame({ t: 'subscribed', stream: 'r:chat-1', head: { epoch: 'r1', seq: 3 } });
    ws.frame({ t: 'collapsed', stream: 'r:chat-1', epoch: 'r1', from: 4, to: 8 });
    ws.frame(ev(9, 'r1', 'r:chat-1'));
    assert.deepEqual(seen, [{ stream: 'r:chat-1', epoch: 'r1', from: 4, to: 8, count: 5 }]);
    assert.deepEqual(h.collapses, [], "the room's own handler, not the client's");
    assert.deepEqual(chat.seqs(), [9]);

    const s = harness({ transport: 'sse', positions: { 'u:42': { epoch: 'e1', seq: 7 } } });
    await tick();
    const es = FakeEventSource.last();
    es.frame(welcome());
    es.frame({ t: 'collapsed', stream: 'u:42', epoch: 'e1', from: 8, to: 10 });
    es.frame(ev(11));
    es.frame({ t: 'collapsed', stream: 'u:42', epoch: 'e1', from: 12, to: 12 });
    es.fail();
    s.timers.advance(60000);
    await tick();
    assert.match(FakeEventSource.last().url, /&lastEventId=e1%3A12$/);
    assert.deepEqual(s.events.map((e) => e.seq), [11]);
  });
});

describe('device id', () => {
  test('kept in localStorage under notify.device: the same id for every client of the browser', () => {
    const storage = fakeStorage();
    const id = deviceId({ storage });
    assert.match(id, /^web-[0-9a-z]{20}$/);
    assert.equal(storage.data.get(DEVICE_KEY), id);
    assert.equal(deviceId({ storage }), id, 'stable');
    assert.notEqual(deviceId({ storage: fakeStorage() }), id, 'another browser profile, another id');
    assert.equal(deviceId({ storage: fakeStorage(new Map([[DEVICE_KEY, 'phone-7']])) }), 'phone-7');
    const corrupt = fakeStorage(new Map([[DEVICE_KEY, 'not a device id!']]));
    assert.match(deviceId({ storage: corrupt }), /^web-/, 'a corrupt one is replaced');
  });

  test('without storage one id per page; the device option wins; a malformed one is refused', async () => {
    const broken = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => {} };
    const page = deviceId({ storage: broken });
    assert.equal(deviceId({ storage: null }), page);
    assert.equal(deviceId({ storage: { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } } }), page);
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'localStorage'); // none in node 20; newer ones may have one
    const setStorage = (value) => Object.defineProperty(globalThis, 'localStorage', { value, configurable: true, writable: true });
    try {
      setStorage(undefined);
      harness({ device: undefined }); // no localStorage: the page's id
      await tick();
      assert.equal(FakeWebSocket.last().url, `ws://a.test:8081/v1/ws?ticket=t1&device=${page}`);
      Object.defineProperty(globalThis, 'localStorage', { get() { throw new Error('SecurityError'); }, configurable: true });
      assert.equal(deviceId(), page, 'a page whose localStorage cannot even be looked at');
      setStorage(fakeStorage());
      const h = harness({ device: undefined });
      assert.equal(h.client.device, globalThis.localStorage.getItem(DEVICE_KEY));
      assert.equal(harness({ device: undefined }).client.device, h.client.device, 'reloads and tabs keep it');
    } finally {
      if (saved) Object.defineProperty(globalThis, 'localStorage', saved);
      else delete globalThis.localStorage;
    }
    assert.equal(harness({ device: 'laptop.1' }).client.device, 'laptop.1');
    for (const bad of ['', 'a b', 'x'.repeat(65), 7]) {
      assert.throws(() => connect({ gateways: ['http://h'], token: 't', device: bad }), TypeError, String(bad));
    }
  });
});
