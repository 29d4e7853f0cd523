// The fakes of the client's unit tests: timers on a virtual clock, a WebSocket and an EventSource
// whose server side the test plays, the gateways' HTTP endpoints (fetch), and a client wired to them.
import { connect, memoryPositions, formatPosition } from '../notify.js';

/** Timers on a virtual clock: nothing runs until the test advances it. */
export function fakeTimers() {
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
export class FakeWebSocket {
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

export class FakeEventSource {
  static all = [];
  constructor(url) { this.url = url; this.closed = false; FakeEventSource.all.push(this); }
  close() { this.closed = true; }
  frame(f) { this.onmessage && this.onmessage({ data: JSON.stringify(f) }); }
  fail() { this.onerror && this.onerror({}); }
  static last() { return FakeEventSource.all[FakeEventSource.all.length - 1]; }
}

export const tick = () => new Promise((r) => setImmediate(r)); // lets connect()'s token and ticket awaits settle

/**
 * The gateways' ticket endpoints: each POST is recorded and answered by `answer(url, n)` — a status
 * (201 issues ticket `t<n>`), or a function throwing what fetch would (unreachable). Their handshake
 * checks (GET /v1/ws/check) are recorded apart, in `fetch.checks`, and answered by `check(url, n)`:
 * the JSON body of a 200, a status, or a function throwing; by default `{ ok: true }`. SSE acks
 * (POST /v1/inbox/ack) are answered 202 and recorded apart, in `fetch.acks` ({ url, body }).
 */
export function fakeFetch(answer = () => 201, check = () => ({ ok: true })) {
  const calls = [];
  const checks = [];
  const acks = [];
  const fetch = async (url, init) => {
    if (url.split('?')[0].endsWith('/v1/ws/check')) {
      checks.push({ url, init });
      const c = check(url, checks.length);
      if (typeof c === 'function') return c(url, init);
      const status = typeof c === 'number' ? c : 200;
      return { status, ok: status === 200, json: async () => (typeof c === 'number' ? { title: 'no' } : c) };
    }
    if (url.split('?')[0].endsWith('/v1/inbox/ack')) { // SSE acks, recorded apart: they are no ticket requests
      acks.push({ url, body: JSON.parse(init.body) });
      return { status: 202, ok: true, json: async () => ({ stream: 'u:42', accepted: true }) };
    }
    calls.push({ url, init });
    const a = answer(url, calls.length);
    if (typeof a === 'function') return a();
    const body = a === 201 ? { ticket: 't' + calls.length, expiresIn: 30 } : { title: 'refused' };
    return { status: a, ok: a >= 200 && a < 300, json: async () => body };
  };
  fetch.calls = calls;
  fetch.checks = checks;
  fetch.acks = acks;
  return fetch;
}

export function jwt(claims) {
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256' })}.${b64(claims)}.sig`;
}

export const TOKEN = jwt({ sub: '42', exp: 4102444800 });
export const welcome = (extra = {}) => ({ t: 'welcome', protocol: 'notify.v1', nodeId: 'gw-1', connectionId: 'c-1',
  streams: ['u:42'], pingIntervalMs: 25000, serverTime: 1, ...extra });
export const ev = (seq, epoch = 'e1', stream = 'u:42') => ({ t: 'event', stream, epoch, seq, id: 'id-' + seq, type: 'demo',
  class: 'durable', data: { n: seq } });

/** A client wired to the fakes; records everything it reports. */
export function harness(opts = {}) {
  FakeWebSocket.all = [];
  FakeEventSource.all = [];
  const timers = fakeTimers();
  const log = [];
  const events = [];
  const states = [];
  const resets = [];
  const inboxStates = [];
  const unreads = [];
  const collapses = [];
  const recalls = [];
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
    serviceWorker: opts.serviceWorker,
    timers,
    random: opts.random || (() => 0.5),
    now: () => timers.now,
    backoff: opts.backoff,
    device: 'device' in opts ? opts.device : 'dev-1',
    inbox: opts.inbox,
    onInboxState: (s) => inboxStates.push(s),
    onUnread: (c) => unreads.push(c),
    onCollapsed: (c) => { log.push(`collapsed ${c.stream} ${c.from}..${c.to}`); collapses.push(c); },
    onRecalled: (r) => { log.push(`recalled ${r.stream} ${r.seq} ${r.id}`); recalls.push(r); },
  });
  return { client, timers, log, events, states, resets, store, tokenCalls, fetch, inboxStates, unreads, collapses, recalls,
    lastState: () => states[states.length - 1] };
}


/**
 * A browser's service workers with the Push API, as client.push sees them: `registration.pushManager`
 * makes FakePushSubscriptions (endpoints https://push.test/send/<n>) and records each subscribe's
 * options; `permission: 'denied'` makes subscribe() throw the browser's NotAllowedError. `log` records
 * subscribes and unsubscribes in order, for tests that check what happened before what.
 */
export function fakeServiceWorker({ permission = 'granted', log = [] } = {}) {
  let n = 0;
  const manager = {
    subscription: null,
    subscribes: [],
    async getSubscription() { return this.subscription; },
    async subscribe(options) {
      if (permission !== 'granted') throw new DOMException('Registration failed - permission denied', 'NotAllowedError');
      if (this.subscription) throw new DOMException('a subscription with another key exists', 'InvalidStateError');
      this.subscribes.push(options);
      log.push('subscribe');
      this.subscription = new FakePushSubscription(`https://push.test/send/${++n}`, options.applicationServerKey, this, log);
      return this.subscription;
    },
  };
  const registration = { pushManager: manager };
  return { ready: Promise.resolve(registration), getRegistration: async () => registration, registration, manager, log };
}

/** A PushSubscription: toJSON() as browsers give it (65-byte p256dh, 16-byte auth), unsubscribe() ends it. */
export class FakePushSubscription {
  constructor(endpoint, applicationServerKey, manager, log = []) {
    this.endpoint = endpoint;
    this.expirationTime = null;
    this.options = { userVisibleOnly: true, applicationServerKey };
    this.manager = manager;
    this.log = log;
    this.ended = false;
    this.p256dh = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, endpoint.length)]).toString('base64url');
    this.auth = Buffer.alloc(16, 7).toString('base64url');
  }
  toJSON() { return { endpoint: this.endpoint, expirationTime: this.expirationTime, keys: { p256dh: this.p256dh, auth: this.auth } }; }
  async unsubscribe() {
    this.ended = true;
    this.log.push('unsubscribe ' + this.endpoint);
    if (this.manager.subscription === this) this.manager.subscription = null;
    return true;
  }
}
