/**
 * notify.js: the Notify client for protocol notify.v1 (docs/protocol.md), for browsers and Node.js
 * 20+. It is an ES module with no dependencies and no build step: the npm package @notify/client
 * (clients/js, types in notify.d.ts), and the file every gateway serves at /notify.js.
 *
 *   import { connect } from '@notify/client'; // or, in a page without a bundler, from '/notify.js'
 *   const client = connect({
 *     gateways: ['https://gw-1.example', 'https://gw-2.example'],
 *     token: async ({ refresh }) => (await fetch('/my/token', { cache: refresh ? 'reload' : 'default' })).text(),
 *     onEvent: (e) => render(e),
 *     onReset: (r) => reloadFromApi(r.stream),
 *     onState: (state, info) => show(state, info),
 *   });
 *   client.close();
 *
 * What the client guarantees:
 * - The token never goes into a URL: before each connection it POSTs it in an Authorization header
 *   to /v1/tickets of the gateway it is about to connect to, and connects with the single-use
 *   ticket it gets (`?ticket=`). Only a gateway that answers 404 there (one older than tickets) is
 *   given `?access_token=`, and the console says so once, without the token.
 * - It tries WebSocket first. In 'auto' mode, two WebSocket attempts in a row that never reach
 *   `welcome` make the next attempt use SSE (EventSource). SSE stays in use until it fails before
 *   its own `welcome`.
 * - It resumes every stream from the position it persisted: WebSocket sends `resume` (as soon as
 *   the socket opens when it holds a position for every stream it will be served, else after
 *   `welcome`), SSE passes `lastEventId`. The position is the last durable event the application *processed*, so it is
 *   stored only after onEvent returns.
 * - onEvent sees each durable (stream, seq) at most once, in seq order. It never sees a seq at or
 *   below the last one delivered. A gap makes the client reconnect and resume. Ephemeral events
 *   pass through unchecked.
 * - Reconnects use full-jitter backoff: the delay is random(0, min(cap, base * 2^n)), and n resets
 *   only when a connection reaches `welcome`. Close codes are honoured (docs/protocol.md §5).
 *   Terminal codes stop the client. 1001 (drain), 4001 (token expired: the client asks for a fresh
 *   token), 4008 (slow consumer) and 4010 (connection recycled) reconnect after a random 0-1 s.
 *   Each reconnect moves to the next gateway in the list.
 * - A refused handshake is not a flaky network: browsers hide why a WebSocket handshake or a CORS
 *   request failed, so after every CHECK_AFTER_FAILURES attempts in a row that fail before
 *   `welcome`, the client asks the gateway that refused it (GET /v1/ws/check, CORS open to every
 *   origin, the token in a header) and, when it answers a refusal, reports it:
 *   onState('refused', { reason, detail, status, definitive, ... }) and client.refusal. A definitive
 *   refusal (origin, token) sets the backoff to its cap (random(0, capMs) between attempts) until
 *   a welcome; after 'token' the token callback is asked for a fresh token (refresh: true).
 * - Node.js: Node 22+ has a global WebSocket; Node 20 needs `--experimental-websocket` or the
 *   WebSocket option. Without localStorage, positions are kept in memory unless a store is given.
 * - It answers pings, acks cumulatively (at most one ack per stream every ACK_DELAY_MS, well under
 *   the gateway's inbound rate limit; over SSE the user's stream by POST /v1/inbox/ack; and again
 *   after every welcome, so an ack lost with a connection or a gateway is made good and a received
 *   event never triggers its offline fallback), and treats a connection with no frame for
 *   pingIntervalMs + max(3 s, pingIntervalMs / 2) as dead.
 * - Rooms and broadcast (docs/protocol.md §8): client.subscribe('chat-1', { onEvent, onSubscribed,
 *   onRefused, onReset, onUnsubscribed }) and client.subscribe(BROADCAST, ...). Each room is its own
 *   stream with its own stored position, subscribed again from it (`subscribe` with epoch and seq)
 *   after every welcome, on whichever node; over SSE the rooms are named in the URL and resumed by
 *   the composite Last-Event-ID. Room events are deduplicated by (stream, epoch, seq) like the
 *   user's. A room without a position starts at the head its `subscribed` names. A refused room is
 *   dropped, never asked for again. client.presence(room) asks who is in it; join and leave arrive
 *   as the room's ephemeral presence.join / presence.leave events.
 * - The client's own frames other than resume and pong (subscribes, unsubscribes, presence, acks)
 *   are paced: a burst of PACE_BURST, then PACE_PER_SECOND per second, under the gateway's inbound
 *   limit (10 frames/s, bursts of 20); acks wait behind the others and keep one per stream.
 * - The device: a stable id kept in localStorage (`notify.device`; per page where storage fails),
 *   or the `device` option, sent as `?device=` on every connect and as `device` in every mark.
 * - The inbox (docs/inbox.md): client.inbox({ before, limit, archived }), client.unreadCount(),
 *   client.markRead / markSeen / archive({ upTo } | { ids }) call the gateway it connects to with
 *   fetch and `Authorization: Bearer <token>` (a 401 asks the token callback once more, with
 *   refresh; a 503 is retried after its Retry-After, at most INBOX_RETRIES times); an error rejects
 *   with an InboxError (status, type, detail). `state` frames keep client.unread / client.unseen:
 *   the counts of the newest state (a lower `version` is ignored) plus the durable events of the
 *   user's stream received above its `head`; with `inbox: true` the counts are read again after
 *   every welcome, since state frames are ephemeral. onInboxState(state) and onUnread(counts) tell.
 * - `collapsed` frames (seqs from..to of a stream superseded during catch-up, or with reason
 *   'muted' an event the user turned live delivery off for) move the stream's position to `to` as if
 *   those events were processed: the next event is `to + 1`, acks and the SSE cursor cover `to`, and
 *   onCollapsed({ stream, epoch, from, to, count, reason? }) tells (reason 'muted', 'expired' or 'recalled').
 * - `recalled` frames (docs/protocol.md §3.7): the producer took back an event this client was sent;
 *   onRecalled({ stream, epoch, seq, id }) (a room's handler, else the client's) tells, so the page stops
 *   showing it. No position moves; a resume past it gets a collapsed frame with reason 'recalled'.
 * - Push (docs/push.md): client.push.register() subscribes this browser with the gateway's VAPID key
 *   (GET /v1/push/config, navigator.serviceWorker.ready, pushManager.subscribe, reusing a
 *   subscription made with the same key) and registers it (POST /v1/push/registrations);
 *   client.push.unregister() (on sign-out) removes the registration of this browser's subscription
 *   and ends the subscription; client.push.list(), client.push.remove(id), and
 *   client.push.registerToken({ fcm } | { apns }) for hybrid apps. Same token, retries and errors as
 *   the inbox (a refusal rejects with a PushError).
 * - Preferences (docs/inbox.md, "Preferences"): client.preferences.get() reads the user's document
 *   ({ types, categories, quietHours? }; GET /v1/preferences), client.preferences.put(doc) replaces it
 *   as a whole (PUT) and resolves with the document stored, client.preferences.reset() removes it
 *   (DELETE). Same token, retries and errors as the inbox (a refusal rejects with a PreferencesError).
 */

export const PROTOCOL = 'notify.v1';

/** Largest delay of a PROMPTLY reconnect (1001, 4001, 4008, 4010), which spreads a drained node's clients. */
export const PROMPT_MAX_MS = 1000;
/** Acks are coalesced per stream and sent at most this often. */
export const ACK_DELAY_MS = 500;
/** WebSocket attempts in a row that fail before `welcome`; after this many, 'auto' mode tries SSE. */
export const WS_FAILURES_BEFORE_SSE = 2;

/** Attempts in a row that fail before `welcome` after which the client asks the gateway why (GET /v1/ws/check). */
export const CHECK_AFTER_FAILURES = 3;
/** Refusals that retrying soon cannot cure: the client backs off to its cap after them. */
export const DEFINITIVE_REFUSALS = Object.freeze(['origin', 'token']);

/** How often an inbox call answered 503 with Retry-After is tried again before it rejects. */
export const INBOX_RETRIES = 3;
/** The longest an inbox call waits for a Retry-After, in ms (a longer one is cut to this). */
const INBOX_RETRY_MAX_MS = 30000;
/** Where the default device id is kept (localStorage). */
export const DEVICE_KEY = 'notify.device';
const DEVICE = /^[A-Za-z0-9._-]{1,64}$/;

/** The broadcast stream: client.subscribe(BROADCAST, handlers). */
export const BROADCAST = 'b:all';
/** The client's own frames: this many at once, then PACE_PER_SECOND per second (the gateway allows 10/s, burst 20). */
export const PACE_BURST = 10;
export const PACE_PER_SECOND = 8;
const ROOM = /^[A-Za-z0-9._:-]{1,128}$/;

/** The stream of a room name (or of BROADCAST); throws a TypeError for a name the gateway would refuse. */
export function roomStream(room) {
  if (room === BROADCAST) return BROADCAST;
  if (typeof room !== 'string' || !ROOM.test(room)) {
    throw new TypeError(`notify: a room name is 1..128 characters of [A-Za-z0-9._:-], got '${room}'`);
  }
  return 'r:' + room;
}

/** The key of a stream in the SSE composite cursor: Java's String.hashCode, sign bit cleared, base 36 (SseCursor). */
export function cursorKey(stream) {
  let h = 0;
  for (let i = 0; i < stream.length; i++) h = (Math.imul(31, h) + stream.charCodeAt(i)) | 0;
  return (h & 0x7fffffff).toString(36);
}

/** The composite Last-Event-ID of protocol §8: `<key>=<epoch>:<seq>` per stream with a position, joined by ','. */
export function compositeCursor(entries) {
  return entries.filter((e) => e.pos).map((e) => `${cursorKey(e.stream)}=${formatPosition(e.pos)}`).join(',');
}

/** The rejection of client.presence(): `code` is the presence_result's error, or 'disconnected'. */
function presenceError(stream, code, detail) {
  return Object.assign(new Error(`notify: presence of ${stream}: ${code}${detail ? ' (' + detail + ')' : ''}`), { code, stream });
}

/** Close code the client uses when it ends a connection in order to reconnect (gap, dead link, bad frame). */
const CLIENT_RECONNECT = 4000;
const TERMINAL = new Set([1000, 1002, 1003, 1007, 1008, 1009, 4003]);
const PROMPT = new Set([1001, 4001, 4008, 4010]);
const EPOCH = /^[A-Za-z0-9_-]{1,64}$/;
const SEQ = /^[1-9][0-9]{0,15}$/;
/** Separate runs of received seqs of the user's stream kept for the unread estimate (normally one). */
const RECEIVED_RUNS_MAX = 1000;

/** Whether `n` is a seq of protocol §3.1: a whole number from 1 to 2^53-1. */
function isSeq(n) {
  return Number.isSafeInteger(n) && n >= 1;
}

/**
 * What to do after a WebSocket close code: 'never' (terminal), 'promptly' or 'backoff'. An unknown
 * code, and 1006 (dropped without a close frame), back off, like CloseCode.policyFor on the server.
 */
export function reconnectPolicy(code) {
  if (TERMINAL.has(code)) return 'never';
  if (PROMPT.has(code)) return 'promptly';
  return 'backoff';
}

/**
 * Exponential backoff with full jitter: next() returns random(0, min(cap, base * 2^attempt)) and
 * counts the attempt; reset() starts over. The client calls reset() only when a connection reached
 * `welcome`, so a node that accepts TCP and then fails does not keep the delay short.
 */
export class Backoff {
  constructor({ baseMs = 1000, capMs = 60000, random = Math.random } = {}) {
    if (!(baseMs > 0) || !(capMs >= baseMs)) {
      throw new RangeError(`backoff needs 0 < baseMs <= capMs, got base ${baseMs}, cap ${capMs}`);
    }
    this.baseMs = baseMs;
    this.capMs = capMs;
    this.random = random;
    this.attempt = 0;
  }

  /** The upper bound of the next delay. */
  ceiling() {
    return Math.min(this.capMs, this.baseMs * 2 ** this.attempt);
  }

  next() {
    const delay = this.random() * this.ceiling();
    this.attempt = Math.min(this.attempt + 1, 64); // 2^64 * base is far past any cap
    return delay;
  }

  reset() {
    this.attempt = 0;
  }
}

/** `epoch:seq`, the position string of protocol §3.1 (an SSE id, a Last-Event-ID). */
export function formatPosition(pos) {
  return `${pos.epoch}:${pos.seq}`;
}

/** The position in `epoch:seq`, or null when the text is not a valid position. */
export function parsePosition(text) {
  if (typeof text !== 'string') return null;
  const colon = text.lastIndexOf(':');
  const epoch = text.slice(0, colon);
  const seq = text.slice(colon + 1);
  if (colon < 0 || !EPOCH.test(epoch) || !SEQ.test(seq)) return null;
  const n = Number(seq);
  return Number.isSafeInteger(n) ? { epoch, seq: n } : null;
}

/** The default position store: localStorage where there is one (browsers), else memory (Node.js). */
function defaultPositions() {
  let storage = null;
  try {
    storage = globalThis.localStorage || null; // reading it may throw (a sandboxed frame)
  } catch {
    storage = null;
  }
  return storage ? localStoragePositions({ storage }) : memoryPositions();
}

/** A position store in memory: what a test or a page without persistence uses. */
export function memoryPositions(initial = {}) {
  const map = new Map(Object.entries(initial));
  return {
    get: (stream) => (map.has(stream) ? { ...map.get(stream) } : null),
    set: (stream, pos) => (pos ? map.set(stream, { epoch: pos.epoch, seq: pos.seq }) : map.delete(stream)),
    entries: () => [...map.entries()].map(([stream, pos]) => ({ stream, ...pos })),
  };
}

/**
 * The default position store: localStorage, one key per stream (`notify.position.u:42` → `epoch:seq`).
 * A value that does not parse counts as no position, so corrupt storage costs a replay, not a crash.
 */
export function localStoragePositions({ storage = globalThis.localStorage, prefix = 'notify.position.' } = {}) {
  return {
    get: (stream) => parsePosition(storage.getItem(prefix + stream)),
    set: (stream, pos) => (pos ? storage.setItem(prefix + stream, formatPosition(pos)) : storage.removeItem(prefix + stream)),
    entries: () => {
      const out = [];
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        const pos = key && key.startsWith(prefix) ? parsePosition(storage.getItem(key)) : null;
        if (pos) out.push({ stream: key.slice(prefix.length), ...pos });
      }
      return out;
    },
  };
}

/**
 * The dedup and ordering rule of protocol §3.2 over a position store. The last delivered position
 * of each stream is kept in memory too, so a store that loses a write can cost a replay after a
 * reload but never a duplicate within one page.
 */
export class Sequencer {
  constructor(store) {
    this.store = store;
    this.last = new Map();
  }

  /** The last processed position of `stream`, or null. */
  position(stream) {
    if (!this.last.has(stream)) this.last.set(stream, this.store.get(stream) ?? null);
    return this.last.get(stream);
  }

  /**
   * 'deliver' for the next event of the stream (or the first one seen without a position),
   * 'duplicate' for a seq at or below the position or for another epoch (the server sends a reset
   * before an epoch change), 'gap' when events are missing in between.
   */
  classify(event) {
    return this.classifyRange(event.stream, event.epoch, event.seq, event.seq);
  }

  /**
   * The same rule for the seqs from..to of a stream (a collapsed frame; an event is from = to):
   * 'deliver' when the range holds the next seq (it may overlap what was processed: a replay),
   * 'duplicate' when all of it is at or below the position or of another epoch, 'gap' when seqs
   * are missing before it.
   */
  classifyRange(stream, epoch, from, to) {
    const pos = this.position(stream);
    if (!pos) return 'deliver';
    if (epoch !== pos.epoch || to <= pos.seq) return 'duplicate';
    return from <= pos.seq + 1 ? 'deliver' : 'gap';
  }

  /** Records `pos` (null: none) as the stream's processed position, in memory and in the store. */
  advance(stream, pos) {
    const value = pos ? { epoch: pos.epoch, seq: pos.seq } : null;
    this.last.set(stream, value);
    this.store.set(stream, value);
  }
}

/** The `sub` and `exp` claims of a JWT, without verifying it (the gateway verifies); null if unreadable. */
export function tokenClaims(token) {
  try {
    const part = String(token).split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(atob(part + '='.repeat((4 - (part.length % 4)) % 4)));
    return claims && typeof claims === 'object' ? claims : null;
  } catch {
    return null;
  }
}

let pageDevice = null; // the device id of a page whose storage cannot keep one

/** A new device id: `web-` and 20 random characters of [0-9a-z]. */
function newDeviceId() {
  const bytes = new Uint8Array(20);
  if (globalThis.crypto && typeof globalThis.crypto.getRandomValues === 'function') globalThis.crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return 'web-' + Array.from(bytes, (b) => (b % 36).toString(36)).join('');
}

/**
 * This browser's device id (docs/protocol.md §1, `?device=`): the one kept in `storage` under `key`,
 * else a new one, stored there. Where the storage cannot be read or written (none, private mode,
 * full), one id per page, the same for every client of the page.
 */
export function deviceId({ storage, key = DEVICE_KEY } = {}) {
  try {
    const store = storage === undefined ? globalThis.localStorage : storage; // reading localStorage itself may throw
    const kept = store.getItem(key);
    if (typeof kept === 'string' && DEVICE.test(kept)) return kept;
    const id = newDeviceId();
    store.setItem(key, id);
    if (store.getItem(key) === id) return id;
  } catch {
    // no storage: a per-page id below
  }
  if (!pageDevice) pageDevice = newDeviceId();
  return pageDevice;
}

/** A gateway base URL (http(s) or ws(s), with or without /v1/ws or /v1/sse) as scheme, host and path. */
function gatewayBase(gateway) {
  const url = new URL(gateway, globalThis.location ? globalThis.location.href : undefined);
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  const path = url.pathname.replace(/\/v1\/(ws|sse)\/?$/, '').replace(/\/+$/, '');
  return { secure, host: url.host, path };
}

/** The query parameter of a credential: a JWT string (`access_token=`) or `{ ticket }` (`ticket=`). */
function credentialParam(credential) {
  return credential && typeof credential === 'object'
    ? `ticket=${encodeURIComponent(credential.ticket)}`
    : `access_token=${encodeURIComponent(credential)}`;
}

/** `&device=<id>` for a device id (its characters need no escaping), or nothing. */
function deviceParam(device) {
  return device ? `&device=${device}` : '';
}

/**
 * The WebSocket URL of a gateway; `credential` is a connect ticket `{ ticket }` or (old gateways) the
 * JWT; `device`, when given, the device id.
 */
export function webSocketUrl(gateway, credential, device) {
  const b = gatewayBase(gateway);
  return `${b.secure ? 'wss' : 'ws'}://${b.host}${b.path}/v1/ws?${credentialParam(credential)}${deviceParam(device)}`;
}

/**
 * The SSE URL of a gateway; `credential` and `device` as for webSocketUrl. `position`: a position, or a
 * Last-Event-ID string (the composite cursor); `streams`: the rooms (r:<room>) and b:all to subscribe at connect.
 */
export function sseUrl(gateway, credential, position, streams = [], device) {
  const b = gatewayBase(gateway);
  const id = typeof position === 'string' ? position : position ? formatPosition(position) : '';
  const resume = id ? `&lastEventId=${encodeURIComponent(id)}` : '';
  const rooms = streams.filter((s) => s.startsWith('r:')).map((s) => s.slice(2));
  const roomsParam = rooms.length > 0 ? `&rooms=${rooms.join(',')}` : ''; // room names need no escaping
  const broadcast = streams.includes(BROADCAST) ? '&broadcast=true' : '';
  return `${httpBase(b)}/v1/sse?${credentialParam(credential)}${deviceParam(device)}${resume}${roomsParam}${broadcast}`;
}

/** The http(s) origin and base path of a gatewayBase. */
function httpBase(b) {
  return `${b.secure ? 'https' : 'http'}://${b.host}${b.path}`;
}

/** Where a gateway issues connect tickets: POST, with `Authorization: Bearer <jwt>`. */
export function ticketUrl(gateway) {
  return `${httpBase(gatewayBase(gateway))}/v1/tickets`;
}

/** A route of a gateway's inbox API (docs/inbox-openapi.yaml): `/v1/inbox` followed by `path` (e.g. `/unread`, `?limit=5`). */
export function inboxUrl(gateway, path = '') {
  return `${httpBase(gatewayBase(gateway))}/v1/inbox${path}`;
}

/**
 * An inbox call the gateway refused or could not answer: `status` (400, 401, 403, 413, 415, 503…),
 * and from its problem+json `type` (e.g. urn:notify:problem:unavailable), `title` and `detail`.
 */
export class InboxError extends Error {
  constructor(status, problem, what) {
    const p = problem && typeof problem === 'object' ? problem : {};
    super(`notify: ${what} answered ${status}${p.detail ? ': ' + p.detail : p.title ? ': ' + p.title : ''}`);
    this.name = 'InboxError';
    this.status = status;
    this.type = typeof p.type === 'string' ? p.type : null;
    this.title = typeof p.title === 'string' ? p.title : null;
    this.detail = typeof p.detail === 'string' ? p.detail : null;
  }
}

/** A route of a gateway's push API (docs/push.md): `/v1/push` followed by `path` (e.g. `/config`, `/registrations`). */
export function pushUrl(gateway, path = '') {
  return `${httpBase(gatewayBase(gateway))}/v1/push${path}`;
}

/**
 * A push call the gateway refused or could not answer (client.push): an InboxError (status, type,
 * title, detail) of the push API, e.g. 400 urn:notify:problem:invalid-body with the field at fault.
 */
export class PushError extends InboxError {
  constructor(status, problem, what) {
    super(status, problem, what);
    this.name = 'PushError';
  }
}

/** A push registration id: `pr_` and 22 base64url characters (derived from the address by the gateway). */
const PUSH_ID = /^pr_[A-Za-z0-9_-]{22}$/;

/** Why client.push cannot go on: `code` 'unsupported' (no service worker or PushManager here) or 'off' (the gateway has no Web Push). */
function pushUnavailable(code, message) {
  return Object.assign(new Error(`notify: ${message}`), { name: 'PushUnavailableError', code });
}

/** The bytes of a base64url (or base64) text, padding optional. */
function base64UrlBytes(text) {
  const b64 = String(text).replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Whether an applicationServerKey (ArrayBuffer, typed array, or null) holds exactly `bytes`. */
function sameKey(key, bytes) {
  if (!key) return false;
  const have = key instanceof Uint8Array ? key : ArrayBuffer.isView(key)
    ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : new Uint8Array(key);
  return have.length === bytes.length && have.every((b, i) => b === bytes[i]);
}

/**
 * The body of POST /v1/push/registrations for a native app's token: `{ fcm: { token } }` or
 * `{ apns: { token, topic, environment } }` (a Web Push subscription's JSON as `{ webpush }` too).
 * Throws a TypeError for anything else; the gateway checks the rest (400 invalid-body).
 */
function pushAddressBody(address) {
  const a = address || {};
  const given = ['webpush', 'fcm', 'apns'].filter((k) => a[k] != null);
  if (given.length !== 1) throw new TypeError('notify: a push address is exactly one of { fcm }, { apns } and { webpush }');
  const [kind] = given;
  const v = a[kind];
  if (kind === 'fcm' && !(v && typeof v.token === 'string' && v.token !== '')) throw new TypeError('notify: fcm needs { token }');
  if (kind === 'apns' && !(v && typeof v.token === 'string' && typeof v.topic === 'string'
      && (v.environment === 'sandbox' || v.environment === 'production'))) {
    throw new TypeError("notify: apns needs { token, topic, environment: 'sandbox' | 'production' }");
  }
  if (kind === 'webpush' && !(v && typeof v.endpoint === 'string' && v.keys && typeof v.keys.p256dh === 'string'
      && typeof v.keys.auth === 'string')) {
    throw new TypeError('notify: webpush needs a PushSubscription or its toJSON(): { endpoint, keys: { p256dh, auth } }');
  }
  if (kind === 'fcm') return { fcm: { token: v.token } };
  if (kind === 'apns') return { apns: { token: v.token, topic: v.topic, environment: v.environment } };
  return { webpush: { endpoint: v.endpoint, expirationTime: v.expirationTime ?? null, keys: { p256dh: v.keys.p256dh, auth: v.keys.auth } } };
}

/** The route of a gateway's preferences API (docs/inbox.md, "Preferences"): `/v1/preferences`. */
export function preferencesUrl(gateway) {
  return `${httpBase(gatewayBase(gateway))}/v1/preferences`;
}

/**
 * A preferences call the gateway refused or could not answer (client.preferences): an InboxError
 * (status, type, title, detail), e.g. 400 urn:notify:problem:invalid-body with the field at fault.
 */
export class PreferencesError extends InboxError {
  constructor(status, problem, what) {
    super(status, problem, what);
    this.name = 'PreferencesError';
  }
}

/** The channels a preferences entry may turn off (false) or on (true, or left out). */
const CHANNELS = ['live', 'inbox', 'push'];

const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `entries` (types or categories: key → { live?, inbox?, push? }) as PUT takes them; throws a TypeError for another shape. */
function channelsByKey(field, entries) {
  if (entries == null) return {};
  if (!isMap(entries)) throw new TypeError(`notify: preferences ${field} must be an object of key → { live?, inbox?, push? }`);
  const out = {};
  for (const [key, channels] of Object.entries(entries)) {
    if (!isMap(channels)) throw new TypeError(`notify: preferences ${field}.${key} must be an object such as { push: false }`);
    const entry = {};
    for (const [channel, on] of Object.entries(channels)) {
      if (on == null) continue; // not said: on
      if (!CHANNELS.includes(channel) || typeof on !== 'boolean') {
        throw new TypeError(`notify: preferences ${field}.${key}.${channel}: the channels are live, inbox and push, each true or false`);
      }
      entry[channel] = on;
    }
    out[key] = entry;
  }
  return out;
}

/**
 * The body of PUT /v1/preferences: `{ types, categories }` and `quietHours` when set. Throws a
 * TypeError for a shape the gateway cannot read; the keys, bounds and quiet hours' values are the
 * gateway's to check (400 invalid-body naming the field).
 */
function preferencesBody(doc) {
  if (!isMap(doc)) throw new TypeError('notify: preferences are an object { types?, categories?, quietHours? }');
  const body = { types: channelsByKey('types', doc.types), categories: channelsByKey('categories', doc.categories) };
  const q = doc.quietHours;
  if (q != null) {
    if (!(isMap(q) && typeof q.start === 'string' && typeof q.end === 'string' && typeof q.timeZone === 'string')) {
      throw new TypeError("notify: quietHours needs { start: 'HH:mm', end: 'HH:mm', timeZone } (an IANA zone such as Europe/Berlin)");
    }
    if (q.live !== undefined && typeof q.live !== 'boolean') throw new TypeError('notify: quietHours.live is a boolean');
    body.quietHours = { start: q.start, end: q.end, timeZone: q.timeZone };
    if (q.live !== undefined) body.quietHours.live = q.live;
  }
  return body;
}

/** A preferences document as the gateway answers it, with `types` and `categories` always there. */
function preferencesDoc(answer) {
  const a = isMap(answer) ? answer : {};
  return { ...a, types: isMap(a.types) ? a.types : {}, categories: isMap(a.categories) ? a.categories : {} };
}

/**
 * client.preferences: what the signed-in user wants to receive (docs/inbox.md, "Preferences"), with
 * the client's token: by event type and category, which channels (live, inbox, push) reach them, and
 * quiet hours. Every call rejects with a PreferencesError when the gateway refuses it.
 */
export class NotifyPreferences {
  constructor(client) {
    this.client = client;
  }

  /** The user's document (GET /v1/preferences): `{ types, categories, quietHours? }`, empty maps when they set none. */
  async get() {
    return preferencesDoc(await this.client.preferencesCall('GET'));
  }

  /**
   * Replaces the user's preferences as a whole with `doc` (PUT /v1/preferences): `{ types?, categories?,
   * quietHours? }`, each entry `{ live?, inbox?, push? }` (false: off; true or left out: on). Resolves
   * with the document stored; it applies to events sequenced after it.
   */
  async put(doc) {
    return preferencesDoc(await this.client.preferencesCall('PUT', preferencesBody(doc)));
  }

  /** Resets the user to no preferences (DELETE /v1/preferences): every channel on, no quiet hours. */
  async reset() {
    await this.client.preferencesCall('DELETE');
  }
}

/**
 * client.push: this device's push registrations with the gateway (docs/push.md), with the client's
 * token. In a browser, register() subscribes with the gateway's VAPID key and registers the
 * subscription, unregister() undoes both; a hybrid app registers its native token with
 * registerToken(). Every call rejects with a PushError when the gateway refuses it.
 */
export class NotifyPush {
  constructor(client, serviceWorker) {
    this.client = client;
    this.serviceWorkerOption = serviceWorker;
    this.current = null; // { id, endpoint } of the subscription this page registered last
  }

  /** The ServiceWorkerContainer: the serviceWorker option, else navigator.serviceWorker; null where there is none. */
  container() {
    if (this.serviceWorkerOption !== undefined) return this.serviceWorkerOption;
    const nav = globalThis.navigator;
    return (nav && nav.serviceWorker) || null;
  }

  /** What the gateway offers (GET /v1/push/config): `{ webpush: { applicationServerKey } }`, `webpush` absent when Web Push is off. */
  config() {
    return this.client.pushCall('GET', '/config');
  }

  /** The user's registrations (GET /v1/push/registrations), oldest first: `[{ id, provider, createdAt, endpoint?, topic?, environment? }]`. */
  async list() {
    const answer = await this.client.pushCall('GET', '/registrations');
    return answer && Array.isArray(answer.registrations) ? answer.registrations : [];
  }

  /**
   * Subscribes this browser to push and registers the subscription; resolves with the registration
   * `{ id, provider: 'webpush', createdAt, endpoint }`. `registration`: the ServiceWorkerRegistration
   * to subscribe with (default: navigator.serviceWorker.ready, which waits for the page's active
   * service worker). A subscription made with the gateway's key is reused, one made with another key
   * is ended (and its registration removed) first. The browser asks the user for permission on the
   * first call: call it from a user gesture (a click). Registering again returns the same id.
   * Rejects with an Error whose `code` is 'unsupported' (no service worker or Push API here) or 'off'
   * (the gateway has no Web Push), with what pushManager.subscribe throws (NotAllowedError: permission
   * denied), or with a PushError.
   */
  async register(registration) {
    const sw = registration ? null : this.container();
    if (!registration && !(sw && sw.ready)) throw pushUnavailable('unsupported', 'push needs service workers (a secure context: https or localhost)');
    const config = await this.config();
    const key = config && config.webpush && config.webpush.applicationServerKey;
    if (typeof key !== 'string' || key === '') throw pushUnavailable('off', 'the gateway has no Web Push (GET /v1/push/config has no webpush)');
    const keyBytes = base64UrlBytes(key);
    const reg = registration || (await sw.ready);
    if (!reg || !reg.pushManager) throw pushUnavailable('unsupported', 'push needs a service worker registration with a PushManager');
    let sub = await reg.pushManager.getSubscription();
    if (sub && !sameKey(sub.options && sub.options.applicationServerKey, keyBytes)) {
      // made with another VAPID key (rotated, or another deployment): unusable, and subscribe() would refuse it
      await this.forget(sub.endpoint).catch(() => {});
      await sub.unsubscribe();
      sub = null;
    }
    if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes.buffer });
    const json = typeof sub.toJSON === 'function' ? sub.toJSON() : sub;
    const created = await this.client.pushCall('POST', '/registrations', pushAddressBody({ webpush: json }));
    this.current = { id: created.id, endpoint: json.endpoint };
    return created;
  }

  /**
   * On sign-out: removes the registration of this browser's push subscription at the gateway (the id
   * register() returned, else the one listed with the subscription's endpoint), then ends the
   * subscription. Resolves with `{ id, unsubscribed }`: the registration removed (null when the
   * gateway had none) and whether a subscription was ended. The subscription is ended even when the
   * gateway call fails; then the promise rejects with that error, and the push sender drops the
   * registration as gone at its next push. `registration`: as for register() (default: the page's
   * service worker registration, if any).
   */
  async unregister(registration) {
    const reg = registration || (await this.existing());
    const sub = reg && reg.pushManager ? await reg.pushManager.getSubscription() : null;
    const endpoint = sub ? sub.endpoint : this.current && this.current.endpoint;
    let id = null;
    let failure = null;
    try {
      id = endpoint ? await this.forget(endpoint) : null;
    } catch (e) {
      failure = e;
    }
    this.current = null;
    const unsubscribed = sub ? await sub.unsubscribe() !== false : false;
    if (failure) throw failure;
    return { id, unsubscribed };
  }

  /**
   * Registers a native app's push token (a hybrid app: FCM on Android, APNs on iOS): `{ fcm: { token } }`
   * or `{ apns: { token, topic, environment } }`. Resolves with the registration `{ id, provider,
   * createdAt, topic?, environment? }`; the same token again gives the same id. remove(id) undoes it.
   */
  async registerToken(address) {
    const body = pushAddressBody(address);
    if (body.webpush) throw new TypeError('notify: registerToken takes { fcm } or { apns }; a browser uses register()');
    return this.client.pushCall('POST', '/registrations', body);
  }

  /** Removes the registration `id` (DELETE /v1/push/registrations/{id}); rejects with a PushError (404 not-found) for one the user does not have. */
  async remove(id) {
    if (typeof id !== 'string' || !PUSH_ID.test(id)) throw new TypeError(`notify: a push registration id is pr_ and 22 base64url characters, got '${id}'`);
    await this.client.pushCall('DELETE', '/registrations/' + id);
    if (this.current && this.current.id === id) this.current = null;
  }

  /** Removes the registration of `endpoint` if the gateway has one; resolves with its id, or null. */
  async forget(endpoint) {
    let id = this.current && this.current.endpoint === endpoint ? this.current.id : null;
    if (!id) {
      const mine = (await this.list()).find((r) => r.endpoint === endpoint);
      id = mine ? mine.id : null;
    }
    if (!id) return null;
    try {
      await this.remove(id);
    } catch (e) {
      if (!(e instanceof PushError && e.status === 404)) throw e;
      return null; // gone already
    }
    return id;
  }

  /** The page's service worker registration if it has one, without waiting for one to become active. */
  async existing() {
    const sw = this.container();
    if (!sw) return null;
    if (typeof sw.getRegistration === 'function') return (await sw.getRegistration()) || null;
    return sw.ready;
  }
}

/** Retry-After (seconds, or an HTTP date) in ms, at most INBOX_RETRY_MAX_MS; null when absent or unreadable. */
function retryAfterMs(res, now) {
  const value = res.headers && typeof res.headers.get === 'function' ? res.headers.get('Retry-After') : null;
  if (value == null || value === '') return null;
  const ms = /^[0-9]+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(INBOX_RETRY_MAX_MS, Math.max(0, ms)) : null;
}

/**
 * The body of a mark (docs/inbox-openapi.yaml, Mark): `{ upTo }` (a seq, or a position `{ epoch, seq }`
 * such as the `head` of unreadCount(), which gives the epoch too) or `{ ids }`, optionally `epoch`,
 * and the device. Throws a TypeError for anything else.
 */
function markBody(mark, device) {
  const m = mark || {};
  const upTo = m.upTo && typeof m.upTo === 'object' ? m.upTo.seq : m.upTo;
  const epoch = m.epoch ?? (m.upTo && typeof m.upTo === 'object' ? m.upTo.epoch : undefined);
  if ((upTo == null) === (m.ids == null)) throw new TypeError('notify: a mark has exactly one of upTo (a seq) and ids');
  if (upTo != null && !(Number.isSafeInteger(upTo) && upTo >= 1)) throw new TypeError(`notify: upTo must be a seq, got ${upTo}`);
  if (m.ids != null && !(Array.isArray(m.ids) && m.ids.length > 0 && m.ids.every((id) => typeof id === 'string'))) {
    throw new TypeError('notify: ids must be a non-empty array of event ids');
  }
  const body = upTo != null ? { upTo } : { ids: m.ids.slice() };
  if (epoch != null) body.epoch = epoch;
  body.device = device;
  return body;
}

/** Where a gateway says whether (and why not) it would accept a handshake now: GET, the JWT in `Authorization: Bearer`. */
export function checkUrl(gateway) {
  return `${httpBase(gatewayBase(gateway))}/v1/ws/check`;
}

/** This page's origin (browsers), or null (Node.js, opaque origins). */
function pageOrigin() {
  const origin = globalThis.location && globalThis.location.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : null;
}

/**
 * Asks `gateway` whether a handshake with `token` would be accepted now (docs/protocol.md,
 * "Why a handshake is refused"): resolves with its answer `{ ok, reason, detail, status,
 * retryAfter }`, `reason` one of origin, token, draining, admission, unavailable when `ok` is
 * false; null when the gateway has no such check (404, an older gateway) or answered something
 * unreadable. Rejects with what fetch throws when the gateway cannot be reached. Consumes no
 * ticket; the token goes in a header, never in the URL. `origin`: the page's (location.origin),
 * sent as ?origin= because browsers send no Origin header with a same-origin GET.
 */
export async function checkHandshake(gateway, token, { fetch = globalThis.fetch, signal, origin = pageOrigin() } = {}) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  // a same-origin GET carries no Origin header, though the page's handshakes do: name it (the header wins)
  const url = origin ? `${checkUrl(gateway)}?origin=${encodeURIComponent(origin)}` : checkUrl(gateway);
  const res = await fetch(url, { method: 'GET', headers, cache: 'no-store', credentials: 'omit', signal });
  if (res.status !== 200) return null;
  const body = await res.json().catch(() => null);
  if (!body || typeof body.ok !== 'boolean') return null;
  if (body.ok) return { ok: true, reason: null, detail: null, status: 200, retryAfter: null };
  return {
    ok: false,
    reason: typeof body.reason === 'string' ? body.reason : 'unknown',
    detail: typeof body.detail === 'string' ? body.detail : null,
    status: Number.isSafeInteger(body.status) ? body.status : null,
    retryAfter: Number.isSafeInteger(body.retryAfter) ? body.retryAfter : null,
  };
}

/** A ticket request the gateway refused (status: 401 token refused, 403 origin, 503 busy or draining). */
export class TicketError extends Error {
  constructor(status, gateway) {
    super(`notify: ${gateway} refused a connect ticket (HTTP ${status})`);
    this.name = 'TicketError';
    this.status = status;
  }
}

/**
 * A connect ticket for the JWT from `gateway`: `{ ticket }`, or null when the gateway has no ticket
 * endpoint (it answered 404: a gateway older than tickets). Throws a TicketError for any other
 * refusal, and what fetch throws when the gateway cannot be reached.
 */
export async function requestTicket(gateway, token, { fetch = globalThis.fetch, signal } = {}) {
  const res = await fetch(ticketUrl(gateway), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    cache: 'no-store',
    credentials: 'omit',
    signal,
  });
  if (res.status === 404) return null;
  if (res.status !== 200 && res.status !== 201) throw new TicketError(res.status, gateway);
  const body = await res.json();
  if (!body || typeof body.ticket !== 'string' || body.ticket === '') throw new TicketError(res.status, gateway);
  return { ticket: body.ticket };
}

/**
 * Starts a client; see the module comment. Returns the running {@link NotifyClient}.
 * @param {import('./notify.js').ConnectOptions} options
 * @returns {NotifyClient}
 */
export function connect(options) {
  return new NotifyClient(options).start();
}

/**
 * One logical connection to the platform: at most one transport connection at a time, replaced on
 * every reconnect. Options (only gateways and token are required):
 *   gateways   base URLs, tried in order and rotated on every reconnect
 *   token      a string, or ({ refresh }) => string | Promise<string>. It is called before every
 *              connection. refresh is true after close 4001 or when the last token's exp has passed;
 *              then the application should return a new token, not a cached one.
 *   positions  { get(stream) → {epoch, seq} | null, set(stream, pos | null) }; default: localStorage,
 *              or memory where there is none (Node.js)
 *   onEvent(event), onReset({stream, reason, head, firstSeq}), onState(state, info), onError(error)
 *              states: connecting, connected, disconnected, refused (the gateway said why it refuses)
 *   transport  'auto' (default), 'ws' or 'sse'
 *   backoff    { baseMs: 1000, capMs: 60000 }
 *   connectTimeoutMs  no `welcome` within it (the ticket request included): the attempt counts as failed (default 15000)
 *   device     this device's id, 1..64 characters of [A-Za-z0-9._-]; default: deviceId() (kept in localStorage)
 *   inbox      true: read the unread counts (unreadCount()) after every welcome (default false)
 *   onInboxState(state)  a `state` frame of the user's stream that was applied (not stale)
 *   onUnread({unread, unseen, version, head})  the unread estimate changed (client.unread, client.unseen)
 *   onCollapsed({stream, epoch, from, to, count, reason?})  seqs from..to were superseded during catch-up (or muted, expired, recalled)
 *   onRecalled({stream, epoch, seq, id})  the producer took back an event this client was sent: stop showing it
 * Rooms: subscribe(room | BROADCAST, handlers), unsubscribe(room), presence(room, { after, limit }).
 * Inbox: inbox({ before, limit, archived }), unreadCount(), markRead / markSeen / archive({ upTo } | { ids }).
 * Push: client.push.register(registration?), unregister(registration?), list(), remove(id), registerToken({ fcm } | { apns }), config().
 * Preferences: client.preferences.get(), put({ types, categories, quietHours }), reset().
 *   serviceWorker  the ServiceWorkerContainer client.push uses (default navigator.serviceWorker; tests inject one)
 * WebSocket: the WebSocket class (Node 20 without --experimental-websocket: e.g. the `ws` package's).
 * Injection points for tests: WebSocket, EventSource, fetch, serviceWorker, timers { setTimeout, clearTimeout }, random, now.
 */
export class NotifyClient {
  constructor(options) {
    const o = options || {};
    if (!Array.isArray(o.gateways) || o.gateways.length === 0) throw new TypeError('notify: gateways must be a non-empty array');
    if (o.token == null) throw new TypeError('notify: token is required');
    if (o.transport != null && !['auto', 'ws', 'sse'].includes(o.transport)) {
      throw new TypeError(`notify: transport must be 'auto', 'ws' or 'sse', got '${o.transport}'`);
    }
    if (o.device != null && !(typeof o.device === 'string' && DEVICE.test(o.device))) {
      throw new TypeError(`notify: device must be 1..64 characters of [A-Za-z0-9._-], got '${o.device}'`);
    }
    this.gateways = o.gateways.slice();
    this.tokenSource = typeof o.token === 'function' ? o.token : () => o.token;
    this.sequencer = new Sequencer(o.positions || defaultPositions());
    this.onEvent = o.onEvent || (() => {});
    this.onReset = o.onReset || (() => {});
    this.onState = o.onState || (() => {});
    this.onError = o.onError || ((e) => console.error('notify:', e));
    this.onInboxState = o.onInboxState || (() => {});
    this.onUnread = o.onUnread || (() => {});
    this.onCollapsed = o.onCollapsed || (() => {});
    this.onRecalled = o.onRecalled || (() => {});
    this.device = o.device || deviceId();
    this.inboxOnWelcome = o.inbox === true;
    this.mode = o.transport || 'auto';
    this.random = o.random || Math.random;
    this.backoff = new Backoff({ ...(o.backoff || {}), random: this.random });
    this.connectTimeoutMs = o.connectTimeoutMs ?? 15000;
    this.WebSocketImpl = o.WebSocket || globalThis.WebSocket;
    this.EventSourceImpl = o.EventSource || globalThis.EventSource;
    if (this.mode !== 'sse' && !this.WebSocketImpl && (this.mode === 'ws' || !this.EventSourceImpl)) {
      throw new TypeError('notify: no WebSocket here: pass the WebSocket option, or run Node.js 22+ '
        + '(Node.js 20: node --experimental-websocket)');
    }
    if (this.mode === 'sse' && !this.EventSourceImpl) throw new TypeError('notify: no EventSource here: pass the EventSource option');
    this.fetchImpl = o.fetch || (globalThis.fetch ? globalThis.fetch.bind(globalThis) : null);
    /** This device's push registrations: register(), unregister(), list(), remove(id), registerToken(). */
    this.push = new NotifyPush(this, o.serviceWorker);
    /** The user's preferences: get(), put(doc), reset(). */
    this.preferences = new NotifyPreferences(this);
    this.warnedNoTickets = false;
    const timers = o.timers || globalThis;
    this.setTimer = (fn, ms) => timers.setTimeout(fn, ms);
    this.clearTimer = (id) => timers.clearTimeout(id);
    this.now = o.now || (() => Date.now());
    this.rooms = new Map(); // stream → handlers, in subscription order
    this.leaving = new Map(); // stream → handlers, until `unsubscribed`
    this.counts = null; // the newest read state: { unread, unseen, version, head: {epoch, seq} | null }
    this.received = { epoch: null, ranges: [] }; // durable seqs of the user's stream received on this page, as [from, to]
    this.unreadKey = ''; // the estimate onUnread was last called with

    this.gatewayIndex = 0;
    this.wsFailuresInARow = 0;
    this.failuresInARow = 0; // attempts that failed before welcome, whatever the transport
    this.refusal = null; // what the last handshake check answered, until a welcome
    this.streams = null; // from the last welcome
    this.lastToken = null;
    this.refreshNext = false;
    this.conn = null;
    this.reconnectTimer = null;
    this.stopped = false;
    this.state = 'disconnected';
    this.nodeId = null;
    this.transport = null;
  }

  start() {
    this.open();
    return this;
  }

  /** Ends the connection for good (close code 1000); no reconnect follows. */
  close() {
    if (this.stopped) return;
    this.stopped = true;
    if (this.reconnectTimer !== null) this.clearTimer(this.reconnectTimer);
    this.reconnectTimer = null;
    const conn = this.conn;
    this.conn = null;
    if (conn) this.teardown(conn, 1000, 'closed by client');
    this.setState('disconnected', { code: 1000, reason: 'closed by client', terminal: true });
  }

  /** The last processed position of a stream, or null. */
  position(stream) {
    return this.sequencer.position(stream);
  }

  /**
   * The unread estimate (docs/inbox.md): the `unread` of the newest read state (a `state` frame, or
   * what inbox() / unreadCount() answered) plus the durable events of the user's stream received
   * above its head. null until a state or a count arrived.
   */
  get unread() {
    const e = this.estimate();
    return e ? e.unread : null;
  }

  /** The same estimate of unseen events. */
  get unseen() {
    const e = this.estimate();
    return e ? e.unseen : null;
  }

  /**
   * A page of the user's inbox, newest first (GET /v1/inbox): resolves with { stream, events, next,
   * unread, unseen, version, head, firstSeq }, each event as { event, state } (state: unseen, seen,
   * read, archived); `next` (null on the last page) is the `before` of the following page.
   * `archived`: 'exclude' (default), 'include' or 'only'. Its counts update the unread estimate.
   */
  async inbox({ before, limit, archived } = {}) {
    const query = new URLSearchParams();
    if (before != null) query.set('before', String(before));
    if (limit != null) query.set('limit', String(limit));
    if (archived != null) query.set('archived', String(archived));
    const text = query.toString();
    const page = await this.inboxCall('GET', text ? '?' + text : '');
    const out = { ...page, events: Array.isArray(page.events) ? page.events : [], next: page.next ?? null, head: page.head ?? null };
    this.applyCounts(out);
    return out;
  }

  /** The unread and unseen counts (GET /v1/inbox/unread): { unread, unseen, version, head }. They update the unread estimate. */
  async unreadCount() {
    const c = await this.inboxCall('GET', '/unread');
    const counts = { unread: c.unread, unseen: c.unseen, version: c.version, head: c.head ?? null };
    this.applyCounts(counts);
    return counts;
  }

  /**
   * Marks events read: `{ upTo }` (every event up to that seq; a position { epoch, seq } such as a
   * `head` also gives the epoch) or `{ ids }` (1..100 event ids), optionally `epoch`. The device id
   * goes along. Resolves with the gateway's { stream, accepted } once the mark is recorded (202); it
   * takes effect a moment later and reaches every device of the user as a `state` frame.
   */
  markRead(mark) {
    return this.mark('read', mark);
  }

  /** Marks events seen (listed to the user); as markRead. */
  markSeen(mark) {
    return this.mark('seen', mark);
  }

  /** Archives events (neither unread nor unseen, left out of inbox() by default); as markRead. */
  archive(mark) {
    return this.mark('archive', mark);
  }

  async mark(kind, mark) {
    return this.inboxCall('POST', '/' + kind, markBody(mark, this.device));
  }

  /**
   * One call of the inbox API on the gateway the client connects to (that of its current or next
   * connection), the token in an Authorization header. A 401 asks the token callback once more
   * (refresh: true); a 503 with Retry-After waits that long plus up to 1 s and tries again, at most
   * INBOX_RETRIES times. Resolves with the JSON of a 2xx answer (null for 204); rejects with an
   * InboxError, or with what fetch throws when the gateway cannot be reached.
   */
  inboxCall(method, path, body) {
    return this.gatewayCall(method, inboxUrl(this.gateways[this.gatewayIndex], path), body,
      `${method} /v1/inbox${path.split('?')[0]}`, InboxError, 'the inbox API');
  }

  /** One call of the push API (/v1/push…), as inboxCall; rejects with a PushError. */
  pushCall(method, path, body) {
    return this.gatewayCall(method, pushUrl(this.gateways[this.gatewayIndex], path), body,
      `${method} /v1/push${path}`, PushError, 'the push API');
  }

  /** One call of the preferences API (/v1/preferences), as inboxCall; rejects with a PreferencesError. */
  preferencesCall(method, body) {
    return this.gatewayCall(method, preferencesUrl(this.gateways[this.gatewayIndex]), body,
      `${method} /v1/preferences`, PreferencesError, 'the preferences API');
  }

  /** A call of the gateway's user API (inbox, push, preferences) at `url`; see inboxCall. `what` names it in errors. */
  async gatewayCall(method, url, body, what, ErrorClass, api) {
    if (!this.fetchImpl) throw new Error(`notify: ${api} needs fetch`);
    let refresh = this.tokenExpired();
    let refreshed = false;
    let retries = 0;
    for (;;) {
      const token = await this.freshToken(refresh);
      this.lastToken = token;
      const headers = { Authorization: `Bearer ${token}` };
      if (body) headers['Content-Type'] = 'application/json';
      const res = await this.fetchImpl(url, { method, headers, body: body ? JSON.stringify(body) : undefined,
        cache: 'no-store', credentials: 'omit' });
      if (res.status === 204) return null;
      if (res.status >= 200 && res.status < 300) return res.json();
      refresh = false;
      if (res.status === 401 && !refreshed) {
        refresh = refreshed = true; // the token was refused: a fresh one, once
        continue;
      }
      const waitMs = res.status === 503 && retries < INBOX_RETRIES ? retryAfterMs(res, Date.now()) : null;
      if (waitMs === null) {
        throw new ErrorClass(res.status, await res.json().catch(() => null), what);
      }
      retries++;
      await new Promise((resolve) => this.setTimer(resolve, waitMs + this.random() * 1000));
    }
  }

  /** A token from the token callback; throws when it gives none. */
  async freshToken(refresh) {
    const token = await this.tokenSource({ refresh });
    if (typeof token !== 'string' || token === '') throw new Error('the token callback returned no token');
    return token;
  }

  /**
   * Takes `counts` ({ unread, unseen, version, head }) as the read state, unless it is older than the
   * one held: a lower version, or the same version with a lower head of the same history. True when taken.
   */
  applyCounts(counts) {
    if (!counts || !Number.isSafeInteger(counts.version) || !Number.isSafeInteger(counts.unread)) return false;
    const head = counts.head && isSeq(counts.head.seq) ? { epoch: counts.head.epoch, seq: counts.head.seq } : null;
    const cur = this.counts;
    if (cur && (counts.version < cur.version
        || (counts.version === cur.version && cur.head && (!head || (head.epoch === cur.head.epoch && head.seq < cur.head.seq))))) {
      return false;
    }
    const unseen = Number.isSafeInteger(counts.unseen) ? counts.unseen : 0;
    this.counts = { unread: counts.unread, unseen, version: counts.version, head };
    this.emitUnread();
    return true;
  }

  /**
   * The read state held plus the runs of the user's stream received above its head (of its history):
   * { unread, unseen, version, head }, `head` the newest position counted. null without a read state.
   */
  estimate() {
    const c = this.counts;
    if (!c) return null;
    const r = this.received;
    let above = 0;
    let head = c.head;
    if (!c.head || r.epoch === c.head.epoch) {
      const after = c.head ? c.head.seq : 0;
      for (const [from, to] of r.ranges) {
        if (to <= after) continue;
        above += to - Math.max(from, after + 1) + 1;
        head = { epoch: r.epoch, seq: to };
      }
    }
    return { unread: c.unread + above, unseen: c.unseen + above, version: c.version, head };
  }

  /** Calls onUnread when the estimate changed. */
  emitUnread() {
    const e = this.estimate();
    const key = e ? `${e.unread}/${e.unseen}/${e.version}/${e.head ? formatPosition(e.head) : ''}` : '';
    if (!e || key === this.unreadKey) return;
    this.unreadKey = key;
    this.safely(this.onUnread, e);
  }

  /** Seqs from..to of `stream` were received: those of the user's stream count in the unread estimate. */
  noteReceived(stream, epoch, from, to) {
    if (stream !== this.ownStream(this.lastToken)) return;
    const r = this.received;
    if (r.epoch !== epoch) {
      r.epoch = epoch;
      r.ranges = [];
    }
    const last = r.ranges[r.ranges.length - 1];
    if (last && from === last[1] + 1) last[1] = to;
    else r.ranges.push([from, to]);
    if (r.ranges.length > RECEIVED_RUNS_MAX) r.ranges.shift();
    this.emitUnread();
  }

  /** Reads the counts again (the `inbox` option: after every welcome, since state frames may have been missed). */
  refreshUnread() {
    this.unreadCount().catch((e) => this.onError(e));
  }

  /**
   * Subscribes to a room (or BROADCAST) and returns its stream id (r:<room>, b:all). handlers:
   *   onEvent(event)                            the room's events, durable and ephemeral (presence.join / presence.leave)
   *   onSubscribed({stream, head})              the gateway's `subscribed`, after every (re)connect
   *   onRefused({stream, reason, detail})       `subscribe_refused` (forbidden, limit, bad_name): the room is dropped
   *   onReset({stream, reason, head, firstSeq}) the room's position could not be continued: reload its state
   *   onCollapsed(info), onRecalled({stream, epoch, seq, id})  as the client's, for the room
   *   onUnsubscribed({stream})                  after unsubscribe()
   * A room without onEvent (onReset) uses the client's. Subscribing again only replaces the handlers.
   * Over WebSocket the subscription is sent at once (paced) and after every welcome, from the stored
   * position; over SSE a change of rooms reconnects the stream with the new ?rooms= list.
   */
  subscribe(room, handlers = {}) {
    const stream = roomStream(room);
    const isNew = !this.rooms.has(stream);
    this.leaving.delete(stream);
    this.rooms.set(stream, handlers || {});
    if (!isNew) return stream;
    const conn = this.conn;
    if (conn && conn.kind === 'ws' && conn.welcomed) this.paced(conn, this.subscribeFrame(stream));
    else if (conn && conn.kind === 'sse') this.restartSoon(conn);
    return stream;
  }

  /** Leaves a room: none of its events reach the handlers any more; onUnsubscribed follows the gateway's answer. */
  unsubscribe(room) {
    const stream = roomStream(room);
    const handlers = this.rooms.get(stream);
    if (!handlers) return;
    this.rooms.delete(stream);
    const conn = this.conn;
    if (conn && conn.kind === 'ws' && conn.welcomed) {
      const queued = conn.outbox.findIndex((f) => f.t === 'subscribe' && f.stream === stream);
      if (queued < 0) {
        this.leaving.set(stream, handlers);
        this.paced(conn, { t: 'unsubscribe', stream });
        return;
      }
      conn.outbox.splice(queued, 1); // never sent: the gateway has nothing to undo
    }
    this.callRoom(handlers, 'onUnsubscribed', { stream });
    if (conn && conn.kind === 'sse') this.restartSoon(conn);
  }

  /** The subscribed streams (r:<room>, b:all), in subscription order. */
  subscriptions() {
    return [...this.rooms.keys()];
  }

  /**
   * Who is in a subscribed room (WebSocket only; presence must be on for the room at the gateway):
   * resolves with { stream, online, members, next } (one page of members in user-id order; pass
   * `next` as `after` for the following page), rejects with an Error whose `code` is the
   * presence_result's error (not_subscribed, off, unavailable) or 'disconnected' (no WebSocket
   * connection, or it ended before the answer). One request per room is in flight at a time.
   */
  presence(room, { after, limit } = {}) {
    const stream = roomStream(room);
    const conn = this.conn;
    if (!conn || conn.kind !== 'ws' || !conn.welcomed) {
      return Promise.reject(presenceError(stream, 'disconnected', 'presence needs a connected WebSocket'));
    }
    const frame = { t: 'presence', stream };
    if (after != null) frame.after = after;
    if (limit != null) frame.limit = limit;
    return new Promise((resolve, reject) => {
      const asks = conn.presence.get(stream) || [];
      asks.push({ frame, resolve, reject });
      conn.presence.set(stream, asks);
      if (asks.length === 1) this.paced(conn, frame); // the answer names no page: one question per room at a time
    });
  }

  subscribeFrame(stream) {
    const pos = this.sequencer.position(stream);
    return pos ? { t: 'subscribe', stream, epoch: pos.epoch, seq: pos.seq } : { t: 'subscribe', stream };
  }

  /**
   * SSE names its rooms in the URL: a new set is a new request to the same gateway, resumed by the
   * composite cursor. Changes made together (in one task) cost one reconnect.
   */
  restartSoon(conn) {
    if (conn.restarting) return;
    conn.restarting = true;
    Promise.resolve().then(() => {
      if (conn !== this.conn || this.stopped) return;
      this.conn = null;
      this.teardown(conn, CLIENT_RECONNECT, 'rooms changed');
      this.open();
    });
  }

  callRoom(handlers, name, arg) {
    const fn = handlers && handlers[name];
    if (typeof fn === 'function') this.safely(fn, arg);
  }

  /** Calls an application callback; what it throws goes to onError. */
  safely(fn, arg) {
    try {
      fn(arg);
    } catch (e) {
      this.onError(e);
    }
  }

  /** Sends one of the client's own frames now, or as soon as the pace allows (after the frames queued before it). */
  paced(conn, frame) {
    conn.outbox.push(frame);
    this.pump(conn);
  }

  /**
   * The pace of the client's own frames: a token bucket of PACE_BURST refilled at PACE_PER_SECOND.
   * Subscribes, unsubscribes and presence questions go first, in order; acks that are due follow,
   * one per stream with its latest seq, so a busy connection's acks never pile up.
   */
  pump(conn) {
    if (conn !== this.conn) return;
    const now = this.now();
    conn.tokens = Math.min(PACE_BURST, conn.tokens + ((now - conn.refilledAt) * PACE_PER_SECOND) / 1000);
    conn.refilledAt = now;
    while (conn.tokens >= 1) {
      let frame = conn.outbox.shift();
      if (!frame) {
        const due = conn.acksDue.entries().next();
        if (due.done) break;
        conn.acksDue.delete(due.value[0]);
        frame = { t: 'ack', stream: due.value[0], seq: due.value[1] };
      }
      conn.tokens -= 1;
      this.send(conn, frame);
    }
    if ((conn.outbox.length > 0 || conn.acksDue.size > 0) && !conn.timers.pace) {
      const waitMs = Math.ceil(((1 - conn.tokens) * 1000) / PACE_PER_SECOND);
      conn.timers.pace = this.setTimer(() => {
        conn.timers.pace = null;
        this.pump(conn);
      }, waitMs);
    }
  }

  pickTransport() {
    if (this.mode !== 'auto') return this.mode;
    if (!this.WebSocketImpl) return 'sse';
    return this.wsFailuresInARow >= WS_FAILURES_BEFORE_SSE && this.EventSourceImpl ? 'sse' : 'ws';
  }

  async open() {
    if (this.stopped) return;
    const gateway = this.gateways[this.gatewayIndex];
    const kind = this.pickTransport();
    this.transport = kind;
    this.setState('connecting', { gateway, transport: kind, attempt: this.backoff.attempt, ...this.refusalInfo() });
    const refresh = this.refreshNext || this.tokenExpired();
    this.refreshNext = false;
    let token;
    try {
      token = await this.freshToken(refresh);
    } catch (e) {
      this.onError(e);
      if (!this.stopped) this.scheduleReconnect('backoff', { code: 1006, reason: 'no token' });
      return;
    }
    if (this.stopped) return;
    this.lastToken = token;
    const conn = { kind, gateway, welcomed: false, socket: null, timers: {}, acks: new Map(), pingIntervalMs: 0, abort: null,
      outbox: [], acksDue: new Map(), tokens: PACE_BURST, refilledAt: this.now(), presence: new Map(), restarting: false };
    this.conn = conn;
    conn.timers.connect = this.setTimer(() => this.end(conn, 1006, 'no welcome within ' + this.connectTimeoutMs + ' ms'),
      this.connectTimeoutMs);
    let credential;
    try {
      credential = await this.credential(conn, token);
    } catch (e) {
      if (conn !== this.conn) return; // timed out or closed meanwhile
      this.onError(e);
      if (e instanceof TicketError && e.status === 401) this.refreshNext = true; // the token was refused: ask for a new one
      this.end(conn, 1006, e instanceof TicketError ? 'ticket refused (HTTP ' + e.status + ')' : 'ticket request failed');
      return;
    }
    if (conn !== this.conn) return;
    try {
      if (kind === 'ws') this.openWebSocket(conn, credential, token);
      else this.openEventSource(conn, credential, token);
    } catch (e) {
      this.onError(e);
      this.end(conn, 1006, 'cannot open ' + kind);
    }
  }

  /** A connect ticket from the connection's gateway; the token itself only for a gateway without tickets (404). */
  async credential(conn, token) {
    if (!this.fetchImpl) return token; // no fetch at all (very old browsers): the token in the URL, as before tickets
    conn.abort = typeof AbortController === 'function' ? new AbortController() : null;
    const ticket = await requestTicket(conn.gateway, token, { fetch: this.fetchImpl, signal: conn.abort ? conn.abort.signal : undefined });
    conn.abort = null;
    if (ticket) return ticket;
    if (!this.warnedNoTickets) {
      this.warnedNoTickets = true;
      console.warn(`notify: ${conn.gateway} has no connect tickets (POST /v1/tickets answered 404: an older gateway); `
        + 'connecting with the token in the URL (?access_token=) instead');
    }
    return token;
  }

  openWebSocket(conn, credential, token) {
    const ws = new this.WebSocketImpl(webSocketUrl(conn.gateway, credential, this.device), PROTOCOL);
    conn.socket = ws;
    ws.onopen = () => this.onOpen(conn, token);
    ws.onmessage = (m) => this.onMessage(conn, m.data);
    ws.onclose = (e) => this.end(conn, e.code, e.reason || '');
    ws.onerror = () => {}; // always followed by close, which carries the code
  }

  openEventSource(conn, credential, token) {
    const stream = this.ownStream(token);
    const own = stream ? this.sequencer.position(stream) : null;
    const rooms = this.subscriptions();
    const resume = rooms.length === 0 ? own
      : compositeCursor([{ stream, pos: own }, ...rooms.map((s) => ({ stream: s, pos: this.sequencer.position(s) }))]);
    const es = new this.EventSourceImpl(sseUrl(conn.gateway, credential, resume || null, rooms, this.device));
    conn.socket = es;
    es.onmessage = (m) => this.onMessage(conn, m.data);
    // EventSource would retry the same node by itself; the client takes over instead (rotation,
    // backoff, its own processed position). SSE has no close codes: a drop or a refusal is 1006.
    es.onerror = () => this.end(conn, 1006, conn.welcomed ? 'event stream ended' : 'event stream refused or failed');
  }

  /**
   * The WebSocket is open: when the client holds a position for every stream the connection will
   * serve (those of the last welcome, else u:<sub> of the token), it sends `resume` now, before
   * `welcome`, and the gateway replays at once without reading the stream's head first
   * (docs/protocol.md, "resume"). Otherwise the resume follows the welcome.
   */
  onOpen(conn, token) {
    if (conn !== this.conn) return;
    let streams = this.streams && this.streams.length > 0 ? this.streams : null;
    if (!streams) {
      const own = this.ownStream(token);
      streams = own ? [own] : [];
    }
    if (streams.length === 0) return;
    const points = [];
    for (const stream of streams) {
      const pos = this.sequencer.position(stream);
      if (!pos) return;
      points.push({ stream, epoch: pos.epoch, seq: pos.seq });
    }
    conn.resumed = true;
    this.send(conn, { t: 'resume', streams: points });
  }

  /** The user's own stream, the one an SSE connection serves: the one the last welcome named, else u:<sub> of the token. */
  ownStream(token) {
    if (this.streams && this.streams.length > 0) return this.streams[0];
    const claims = tokenClaims(token);
    return claims && typeof claims.sub === 'string' ? 'u:' + claims.sub : null;
  }

  tokenExpired() {
    const claims = this.lastToken ? tokenClaims(this.lastToken) : null;
    return !!claims && typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now() + 5000;
  }

  onMessage(conn, data) {
    if (conn !== this.conn) return;
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      this.onError(new Error('notify: unreadable frame from ' + conn.gateway));
      this.end(conn, CLIENT_RECONNECT, 'unreadable frame');
      return;
    }
    if (!frame || typeof frame !== 'object') return;
    this.armLiveness(conn);
    switch (frame.t) {
      case 'welcome': this.onWelcome(conn, frame); break;
      case 'event': this.onEventFrame(conn, frame); break;
      case 'reset': this.onResetFrame(conn, frame); break;
      case 'ping': if (conn.kind === 'ws') this.send(conn, { t: 'pong' }); break;
      case 'subscribed': this.onSubscribedFrame(frame); break;
      case 'unsubscribed': this.onUnsubscribedFrame(frame); break;
      case 'subscribe_refused': this.onRefusedFrame(frame); break;
      case 'presence_result': this.onPresenceResult(conn, frame); break;
      case 'state': this.onStateFrame(frame); break;
      case 'collapsed': this.onCollapsedFrame(conn, frame); break;
      case 'recalled': this.onRecalledFrame(frame); break;
      default: break; // pong, and frame types a newer server may add (protocol §7)
    }
  }

  onWelcome(conn, frame) {
    conn.welcomed = true;
    conn.pingIntervalMs = frame.pingIntervalMs || 0;
    this.clearTimer(conn.timers.connect);
    this.backoff.reset();
    this.failuresInARow = 0;
    this.refusal = null;
    if (conn.kind === 'ws') this.wsFailuresInARow = 0;
    this.streams = Array.isArray(frame.streams) ? frame.streams.slice() : [];
    this.nodeId = frame.nodeId || null;
    this.armLiveness(conn);
    if (conn.kind === 'ws' && !conn.resumed) {
      const points = [];
      for (const stream of this.streams) {
        const pos = this.sequencer.position(stream);
        if (pos) points.push({ stream, epoch: pos.epoch, seq: pos.seq });
      }
      this.send(conn, { t: 'resume', streams: points });
    }
    if (conn.kind === 'ws') {
      for (const stream of this.rooms.keys()) this.paced(conn, this.subscribeFrame(stream)); // from the stored positions
    }
    // re-ack the user's stream where this device stands: an ack the last connection had not sent yet
    // (or a gateway lost with its receipt batch) is made good, so the events it covers trigger no fallback
    const own = this.ownStream(this.lastToken);
    const at = own && this.streams.includes(own) ? this.sequencer.position(own) : null;
    if (at) this.ack(conn, own, at.epoch, at.seq);
    this.setState('connected', { gateway: conn.gateway, transport: conn.kind, nodeId: this.nodeId,
      connectionId: frame.connectionId, streams: this.streams });
    if (this.inboxOnWelcome) this.refreshUnread(); // state frames sent while away are lost: read the counts
  }

  onSubscribedFrame(frame) {
    const handlers = this.rooms.get(frame.stream);
    if (!handlers) return;
    const head = frame.head && typeof frame.head.seq === 'number' ? { epoch: frame.head.epoch, seq: frame.head.seq } : null;
    if (head && !this.sequencer.position(frame.stream)) this.sequencer.advance(frame.stream, head); // a fresh room starts at its head
    this.callRoom(handlers, 'onSubscribed', { stream: frame.stream, head });
  }

  onUnsubscribedFrame(frame) {
    const handlers = this.leaving.get(frame.stream);
    if (!handlers) return;
    this.leaving.delete(frame.stream);
    this.callRoom(handlers, 'onUnsubscribed', { stream: frame.stream });
  }

  onRefusedFrame(frame) {
    const handlers = this.rooms.get(frame.stream) || this.leaving.get(frame.stream);
    if (!handlers) return;
    this.rooms.delete(frame.stream); // refused for good: not asked for again
    this.leaving.delete(frame.stream);
    this.callRoom(handlers, 'onRefused', { stream: frame.stream, reason: frame.reason, detail: frame.detail });
  }

  onPresenceResult(conn, frame) {
    const asks = conn.presence.get(frame.stream);
    const ask = asks && asks.shift();
    if (!ask) return;
    if (asks.length > 0) this.paced(conn, asks[0].frame);
    else conn.presence.delete(frame.stream);
    if (frame.error) ask.reject(presenceError(frame.stream, frame.error));
    else ask.resolve({ stream: frame.stream, online: frame.online, members: frame.members || [], next: frame.next ?? null });
  }

  /** Whether events of `stream` reach the application: the user's stream, and the rooms it holds (a room left is dropped). */
  isHeld(stream) {
    return typeof stream !== 'string' || stream.startsWith('u:') || this.rooms.has(stream);
  }

  /** The room handler `name` of the frame's stream, or null: then the client-wide callback applies. */
  roomHandler(stream, name) {
    const room = typeof stream === 'string' && !stream.startsWith('u:') ? this.rooms.get(stream) : null;
    return room && typeof room[name] === 'function' ? room : null;
  }

  onEventFrame(conn, frame) {
    if (!this.isHeld(frame.stream)) return; // a room left (or never joined): its events in flight are dropped
    if (frame.class !== 'durable') {
      this.deliver(frame); // ephemeral: no position, never deduplicated
      return;
    }
    if (typeof frame.stream !== 'string' || typeof frame.epoch !== 'string' || !isSeq(frame.seq)) {
      this.onError(new Error('notify: durable event without a valid position, ignored'));
      return;
    }
    if (!this.admit(conn, frame.stream, frame.epoch, frame.seq, frame.seq)) return;
    this.deliver(frame);
    this.processed(conn, frame.stream, frame.epoch, frame.seq, frame.seq); // persisted only after the application processed it
  }

  /**
   * A `collapsed` frame: the seqs from..to were superseded during catch-up. They count as processed
   * (the position moves to `to`, in seq order with the events around them), after onCollapsed.
   */
  onCollapsedFrame(conn, frame) {
    if (!this.isHeld(frame.stream)) return;
    const { stream, epoch, from, to } = frame;
    if (typeof stream !== 'string' || typeof epoch !== 'string' || !isSeq(from) || !isSeq(to) || to < from) {
      this.onError(new Error('notify: collapsed frame without a valid range, ignored'));
      return;
    }
    const pos = this.sequencer.position(stream);
    if (!this.admit(conn, stream, epoch, from, to)) return;
    const first = pos ? Math.max(from, pos.seq + 1) : from; // a replay may overlap what was processed
    const info = { stream, epoch, from: first, to, count: to - first + 1 };
    if (typeof frame.reason === 'string') info.reason = frame.reason; // 'muted' (protocol §3.5), 'expired' (§3.6), 'recalled' (§3.7)
    this.dispatch(stream, 'onCollapsed', this.onCollapsed, info);
    this.processed(conn, stream, epoch, first, to);
  }

  /** A `recalled` frame: the producer took back an event; onRecalled tells. It is no position: nothing moves, nothing is acked. */
  onRecalledFrame(frame) {
    const { stream, epoch, seq, id } = frame;
    if (!this.isHeld(stream) || typeof stream !== 'string' || typeof epoch !== 'string' || !isSeq(seq) || typeof id !== 'string') return;
    this.dispatch(stream, 'onRecalled', this.onRecalled, { stream, epoch, seq, id });
  }

  /** Whether seqs from..to of a stream are new; a gap before them ends the connection, which resumes. */
  admit(conn, stream, epoch, from, to) {
    const verdict = this.sequencer.classifyRange(stream, epoch, from, to);
    if (verdict === 'gap') this.end(conn, CLIENT_RECONNECT, 'gap after seq ' + this.sequencer.position(stream).seq + ' in ' + stream);
    return verdict === 'deliver';
  }

  /** Seqs from..to of a stream were processed: the position moves to `to` (stored), is acked, and counts as received. */
  processed(conn, stream, epoch, from, to) {
    this.sequencer.advance(stream, { epoch, seq: to });
    this.ack(conn, stream, epoch, to);
    this.noteReceived(stream, epoch, from, to);
  }

  /**
   * Acks a processed position: an `ack` frame over WebSocket; over SSE, which sends no frames, the
   * user's own stream by POST /v1/inbox/ack (rooms' acks are only metrics). Either way at most one
   * per stream every ACK_DELAY_MS, the latest seq: an acked event never makes its fallback fire.
   */
  ack(conn, stream, epoch, seq) {
    if (conn !== this.conn) return;
    if (conn.kind === 'ws') this.queueAck(conn, stream, seq);
    else if (stream === this.ownStream(this.lastToken)) this.queueHttpAck(epoch, seq);
  }

  queueHttpAck(epoch, seq) {
    this.httpAck = { epoch, seq };
    if (this.httpAckTimer || this.httpAcksOff) return;
    this.httpAckTimer = this.setTimer(() => {
      this.httpAckTimer = null;
      const a = this.httpAck;
      this.httpAck = null;
      if (!a || this.stopped || !this.fetchImpl) return;
      this.inboxCall('POST', '/ack', { upTo: a.seq, epoch: a.epoch, device: this.device }).catch((e) => {
        // best effort: the next processed event, or the next resume, acks again; a gateway without the
        // route (404, older than it) is not asked again
        if (e instanceof InboxError && e.status === 404) this.httpAcksOff = true;
      });
    }, ACK_DELAY_MS);
  }

  deliver(frame) {
    // an exception counts as processed: holding the stream back would stall it for good
    this.dispatch(frame.stream, 'onEvent', this.onEvent, frame);
  }

  /** A `state` frame of the user's stream: the new read state, unless it is stale (a lower version). */
  onStateFrame(frame) {
    if (typeof frame.stream !== 'string' || frame.stream !== this.ownStream(this.lastToken)) return;
    const head = isSeq(frame.head) ? { epoch: frame.epoch, seq: frame.head } : null;
    if (!this.applyCounts({ unread: frame.unread, unseen: frame.unseen, version: frame.version, head })) return;
    const { t, ...state } = frame;
    this.safely(this.onInboxState, state);
  }

  onResetFrame(conn, frame) {
    if (!this.isHeld(frame.stream)) return; // a room left meanwhile: its next subscribe starts from what is stored
    const head = frame.head && typeof frame.head.seq === 'number' ? { epoch: frame.head.epoch, seq: frame.head.seq } : null;
    const info = { stream: frame.stream, reason: frame.reason, head, firstSeq: frame.firstSeq ?? null };
    this.dispatch(frame.stream, 'onReset', this.onReset, info);
    this.sequencer.advance(frame.stream, head);
    if (this.inboxOnWelcome && frame.stream === this.ownStream(this.lastToken)) this.refreshUnread(); // perhaps another history
  }

  /** The room's handler `name` for a room stream that has one, else the client-wide `fallback`. */
  dispatch(stream, name, fallback, arg) {
    const room = this.roomHandler(stream, name);
    if (room) this.callRoom(room, name, arg);
    else this.safely(fallback, arg);
  }

  queueAck(conn, stream, seq) {
    conn.acks.set(stream, seq);
    if (conn.timers.ack) return;
    conn.timers.ack = this.setTimer(() => {
      conn.timers.ack = null;
      for (const [s, q] of conn.acks) conn.acksDue.set(s, q); // one per stream, the latest seq: bounded however busy
      conn.acks.clear();
      this.pump(conn);
    }, ACK_DELAY_MS);
  }

  send(conn, frame) {
    if (conn !== this.conn || conn.kind !== 'ws') return;
    try {
      conn.socket.send(JSON.stringify(frame));
    } catch (e) {
      this.onError(e); // the socket is closing; its close event follows
    }
  }

  /** Protocol §4: no frame of any kind for pingIntervalMs + max(3 s, pingIntervalMs / 2) means the connection is dead. */
  armLiveness(conn) {
    if (!conn.welcomed || !conn.pingIntervalMs) return;
    if (conn.timers.liveness) this.clearTimer(conn.timers.liveness);
    const silence = conn.pingIntervalMs + Math.max(3000, Math.floor(conn.pingIntervalMs / 2));
    conn.timers.liveness = this.setTimer(() => this.end(conn, 1006, 'no frame for ' + silence + ' ms'), silence);
  }

  /** The connection is over (closed by the server, failed, or given up by the client): decide what next. */
  end(conn, code, reason) {
    if (conn !== this.conn) return;
    this.conn = null;
    this.teardown(conn, CLIENT_RECONNECT, reason);
    if (!conn.welcomed) {
      this.failuresInARow++;
      if (conn.kind === 'ws') this.wsFailuresInARow++;
      else this.wsFailuresInARow = 0; // SSE failed too: WebSocket gets its chances again
    }
    const policy = reconnectPolicy(code);
    if (policy === 'never') {
      this.stopped = true;
      this.setState('disconnected', { gateway: conn.gateway, transport: conn.kind, code, reason, terminal: true });
      return;
    }
    if (code === 4001) this.refreshNext = true;
    this.gatewayIndex = (this.gatewayIndex + 1) % this.gateways.length;
    const info = { gateway: conn.gateway, transport: conn.kind, code, reason };
    if (!conn.welcomed && this.failuresInARow % CHECK_AFTER_FAILURES === 0 && this.fetchImpl) {
      this.checkThenReconnect(policy, info);
      return;
    }
    this.scheduleReconnect(policy, info);
  }

  /**
   * Attempts keep failing before `welcome`: asks the gateway of the last one why (GET /v1/ws/check,
   * at most connectTimeoutMs), reports a refusal (state 'refused', client.refusal), and backs off to
   * the cap after a definitive one. An unreachable gateway or one without the check is a network
   * problem as before: nothing is reported. Then the reconnect is scheduled as usual.
   */
  async checkThenReconnect(policy, info) {
    const abort = typeof AbortController === 'function' ? new AbortController() : null;
    const timer = abort ? this.setTimer(() => abort.abort(), this.connectTimeoutMs) : null;
    let verdict = null;
    try {
      verdict = await checkHandshake(info.gateway, this.lastToken, { fetch: this.fetchImpl, signal: abort ? abort.signal : undefined });
    } catch {
      verdict = null; // unreachable, or too slow: the network after all
    } finally {
      if (timer !== null) this.clearTimer(timer);
    }
    if (this.stopped || this.conn || this.reconnectTimer !== null) return; // closed meanwhile
    if (!verdict || verdict.ok) {
      this.scheduleReconnect(policy, info);
      return;
    }
    const definitive = DEFINITIVE_REFUSALS.includes(verdict.reason);
    this.refusal = { gateway: info.gateway, reason: verdict.reason, detail: verdict.detail, status: verdict.status,
      retryAfter: verdict.retryAfter, definitive };
    if (definitive) {
      this.backoff.attempt = 64; // random(0, capMs) from now on: no tight loop against a refusal (until a welcome)
      if (verdict.reason === 'token') this.refreshNext = true; // the token callback is asked for a new one
    }
    this.scheduleReconnect(policy, info, 'refused');
  }

  /**
   * Schedules the next attempt and says so: state 'disconnected' (or 'refused' right after a
   * check found a refusal: then `reason`, `detail`, `status`, `definitive` are the refusal's and
   * `closeReason` the connection's); while a refusal is held, every info (connecting too) carries it as `refusal`.
   */
  scheduleReconnect(policy, info, state = 'disconnected') {
    const attempt = this.backoff.attempt;
    const delayMs = policy === 'promptly' ? this.random() * PROMPT_MAX_MS : this.backoff.next();
    const details = state === 'refused'
      ? { ...info, closeReason: info.reason, ...this.refusal, ...this.refusalInfo() }
      : { ...info, ...this.refusalInfo() };
    this.setState(state, { ...details, delayMs, attempt, terminal: false });
    this.reconnectTimer = this.setTimer(() => {
      this.reconnectTimer = null;
      this.open();
    }, delayMs);
  }

  /** `{ refusal }` while a refusal is held (until a welcome), else nothing: part of every state's info. */
  refusalInfo() {
    return this.refusal ? { refusal: { ...this.refusal } } : {};
  }

  teardown(conn, code, reason) {
    for (const id of Object.values(conn.timers)) if (id) this.clearTimer(id);
    conn.timers = {};
    for (const [stream, asks] of conn.presence) for (const ask of asks) ask.reject(presenceError(stream, 'disconnected', 'the connection ended'));
    conn.presence.clear();
    // unsubscribes not yet confirmed are over: the next connection does not subscribe them again
    for (const [stream, handlers] of this.leaving) this.callRoom(handlers, 'onUnsubscribed', { stream });
    this.leaving.clear();
    if (conn.abort) {
      try { conn.abort.abort(); } catch { /* already settled */ }
      conn.abort = null;
    }
    const s = conn.socket;
    if (!s) return;
    s.onmessage = null;
    s.onclose = null;
    s.onerror = null;
    try {
      if (conn.kind === 'ws') s.close(code, String(reason).slice(0, 100));
      else s.close();
    } catch {
      try { s.close(); } catch { /* already closed */ }
    }
  }

  setState(state, info) {
    this.state = state;
    if (state !== 'connected') this.nodeId = null;
    try {
      this.onState(state, info || {});
    } catch (e) {
      this.onError(e);
    }
  }
}
