// Unit tests of the browser client (gateway/server/.../web/notify.js) on Node's built-in test
// runner: `node --test`. NotifyJsTest copies notify.js next to this file and runs it in `mvn verify`.
// WebSocket, EventSource, timers and randomness are fakes injected through connect()'s options.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  Backoff, Sequencer, connect, memoryPositions, localStoragePositions, parsePosition, formatPosition,
  reconnectPolicy, webSocketUrl, sseUrl, ticketUrl, requestTicket, TicketError, tokenClaims, PROMPT_MAX_MS, ACK_DELAY_MS,
} from './notify.js';

// ---------------------------------------------------------------------------------------------
// fakes

/** Timers on a virtual clock: nothing runs until the test advances it. */
function fakeTimers() {
  let now = 0;
  let nextId = 0;
  const pending = new Map();
  return {
    setTimeout(fn, ms) { pending.set(++nextId, { at: now + ms, fn }); return nextId; },
    clearTimeout(id) { pending.delete(id); },
    get now() { return now; },
    count() { return pending.size; },
    /** Runs every timer due within `ms`, in due order, then sets the clock to now + ms. */
    advance(ms) {
      const target = now + ms;
      for (;;) {
        let id = null;
        for (const [k, t] of pending) if (t.at <= target && (id === null || t.at < pending.get(id).at)) id = k;
        if (id === null) break;
        const t = pending.get(id);
        pending.delete(id);
        now = t.at;
        t.fn();
      }
      now = target;
    },
  };
}

/** A WebSocket whose server side the test plays. */
class FakeWebSocket {
  static all = [];
  constructor(url, protocol) {
    this.url = url;
    this.protocol = protocol;
    this.sent = [];
    this.closedWith = null;
    FakeWebSocket.all.push(this);
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close(code, reason) { this.closedWith = { code, reason }; }
  // server side
  frame(f) { this.onmessage && this.onmessage({ data: JSON.stringify(f) }); }
  serverClose(code, reason = '') { this.onclose && this.onclose({ code, reason }); }
  static last() { return FakeWebSocket.all[FakeWebSocket.all.length - 1]; }
}

class FakeEventSource {
  static all = [];
  constructor(url) { this.url = url; this.closed = false; FakeEventSource.all.push(this); }
  close() { this.closed = true; }
  frame(f) { this.onmessage && this.onmessage({ data: JSON.stringify(f) }); }
  fail() { this.onerror && this.onerror({}); }
  static last() { return FakeEventSource.all[FakeEventSource.all.length - 1]; }
}

const tick = () => new Promise((r) => setImmediate(r)); // lets connect()'s token and ticket awaits settle

/**
 * The gateways' ticket endpoints: each POST is recorded and answered by `answer(url, n)` — a status
 * (201 issues ticket `t<n>`), or a function throwing what fetch would (unreachable).
 */
function fakeFetch(answer = () => 201) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    const a = answer(url, calls.length);
    if (typeof a === 'function') return a();
    const body = a === 201 ? { ticket: 't' + calls.length, expiresIn: 30 } : { title: 'refused' };
    return { status: a, ok: a >= 200 && a < 300, json: async () => body };
  };
  fetch.calls = calls;
  return fetch;
}

function jwt(claims) {
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256' })}.${b64(claims)}.sig`;
}

const TOKEN = jwt({ sub: '42', exp: 4102444800 });
const welcome = (extra = {}) => ({ t: 'welcome', protocol: 'notify.v1', nodeId: 'gw-1', connectionId: 'c-1',
  streams: ['u:42'], pingIntervalMs: 25000, serverTime: 1, ...extra });
const ev = (seq, epoch = 'e1', stream = 'u:42') => ({ t: 'event', stream, epoch, seq, id: 'id-' + seq, type: 'demo',
  class: 'durable', data: { n: seq } });

/** A client wired to the fakes; records everything it reports. */
function harness(opts = {}) {
  FakeWebSocket.all = [];
  FakeEventSource.all = [];
  const timers = fakeTimers();
  const log = [];
  const events = [];
  const states = [];
  const resets = [];
  const store = opts.store || memoryPositions(opts.positions || {});
  const recording = {
    get: (s) => store.get(s),
    set: (s, p) => { log.push(`set ${s} ${p ? formatPosition(p) : 'null'}`); store.set(s, p); },
  };
  const tokenCalls = [];
  const fetch = opts.fetch || fakeFetch();
  const client = connect({
    gateways: opts.gateways || ['http://a.test:8081', 'http://b.test:8082'],
    token: (arg) => { tokenCalls.push(arg); return opts.token || TOKEN; },
    positions: recording,
    transport: opts.transport || 'ws',
    onEvent: (e) => { log.push(`event ${e.seq ?? e.id}`); events.push(e); },
    onReset: (r) => { log.push(`reset ${r.reason}`); resets.push(r); },
    onState: (s, info) => states.push({ s, ...info }),
    onError: () => {},
    WebSocket: FakeWebSocket,
    EventSource: FakeEventSource,
    fetch,
    timers,
    random: opts.random || (() => 0.5),
    backoff: opts.backoff,
  });
  return { client, timers, log, events, states, resets, store, tokenCalls, fetch,
    lastState: () => states[states.length - 1] };
}

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
      ? JSON.parse(process.env.NOTIFY_CLOSE_POLICIES) // from io.notify.schemas.protocol.CloseCode, via NotifyJsTest
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
    assert.equal(FakeWebSocket.last().url, 'ws://a.test:8081/v1/ws?ticket=t1');
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
    assert.equal(es.url, `http://a.test:8081/v1/sse?ticket=t3&lastEventId=e1%3A7`);
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
    assert.match(FakeEventSource.last().url, /^http:\/\/b\.test:8082\/v1\/sse\?ticket=t\d+&lastEventId=e1%3A8$/);
    // SSE failing before its welcome gives WebSocket its chances again
    FakeEventSource.last().fail();
    h.timers.advance(60000);
    await tick();
    assert.equal(FakeWebSocket.all.length, 3);
  });

  test("'sse' without a stored position derives the stream from the token and starts live", async () => {
    const h = harness({ transport: 'sse' });
    await tick();
    assert.equal(FakeEventSource.last().url, 'http://a.test:8081/v1/sse?ticket=t1');
    assert.equal(FakeWebSocket.all.length, 0);
    assert.equal(h.lastState().s, 'connecting');
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
    assert.equal(FakeWebSocket.last().url, 'ws://a.test:8081/v1/ws?ticket=t1');
    FakeWebSocket.last().frame(welcome());
    FakeWebSocket.last().serverClose(1001);
    h.timers.advance(PROMPT_MAX_MS);
    await tick();
    assert.equal(h.fetch.calls[1].url, 'http://b.test:8082/v1/tickets', 'a new ticket, from the next gateway');
    assert.equal(FakeWebSocket.last().url, 'ws://b.test:8082/v1/ws?ticket=t2');
    for (const ws of FakeWebSocket.all) assert.ok(!ws.url.includes(TOKEN), 'the token never goes into a URL');
  });

  test('a gateway that answers 404 (older than tickets) gets ?access_token=; the console says so once, without the token', async () => {
    const warnings = [];
    const warn = console.warn;
    console.warn = (...args) => warnings.push(args.join(' '));
    try {
      const h = harness({ fetch: fakeFetch(() => 404) });
      await tick();
      assert.equal(FakeWebSocket.last().url, `ws://a.test:8081/v1/ws?access_token=${TOKEN}`);
      FakeWebSocket.last().serverClose(1006);
      h.timers.advance(60000);
      await tick();
      assert.equal(h.fetch.calls.length, 2, 'asked again: the gateway may have been upgraded meanwhile');
      assert.equal(FakeWebSocket.last().url, `ws://b.test:8082/v1/ws?access_token=${TOKEN}`);
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
    assert.equal(FakeWebSocket.last().url, 'ws://b.test:8082/v1/ws?ticket=t2');
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
    assert.equal(FakeWebSocket.last().url, 'ws://a.test:8081/v1/ws?ticket=t3');
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
