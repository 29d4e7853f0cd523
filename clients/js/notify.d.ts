// Type definitions of @notify/client (notify.js), protocol notify.v1 (docs/protocol.md).
// Checked against a typed usage example by `tsc --noEmit -p types-check` in the build
// (ops/e2e NotifyJsTest), so they cannot drift from what the examples use.

// ---------------------------------------------------------------------------------------------
// constants

/** The WebSocket subprotocol and protocol version. */
export const PROTOCOL: 'notify.v1';
/** Largest delay of a prompt reconnect (1001, 4001, 4008, 4010), in ms. */
export const PROMPT_MAX_MS: number;
/** Acks are coalesced per stream and sent at most this often, in ms. */
export const ACK_DELAY_MS: number;
/** WebSocket attempts in a row that fail before `welcome`; after this many, 'auto' mode tries SSE. */
export const WS_FAILURES_BEFORE_SSE: number;
/** Attempts in a row that fail before `welcome` after which the client asks the gateway why (GET /v1/ws/check). */
export const CHECK_AFTER_FAILURES: number;
/** Refusals that retrying soon cannot cure ('origin', 'token'): the backoff goes to its cap after them. */
export const DEFINITIVE_REFUSALS: readonly RefusalReason[];
/** How often an inbox call answered 503 with Retry-After is tried again before it rejects. */
export const INBOX_RETRIES: number;
/** The localStorage key of the default device id. */
export const DEVICE_KEY: 'notify.device';
/** The broadcast stream: `client.subscribe(BROADCAST, handlers)`. */
export const BROADCAST: 'b:all';
/** The client's own frames: this many at once, then PACE_PER_SECOND per second. */
export const PACE_BURST: number;
export const PACE_PER_SECOND: number;

// ---------------------------------------------------------------------------------------------
// positions and streams

/** A stream id: `u:<user>`, `r:<room>` or `b:all`. */
export type StreamId = string;

/** A position of protocol §3.1: the stream's epoch (history id) and a seq (1 .. 2^53-1). */
export interface Position {
  epoch: string;
  seq: number;
}

/** Where the client keeps the last processed position of each stream. */
export interface PositionStore {
  get(stream: StreamId): Position | null;
  /** `null` forgets the stream's position. */
  set(stream: StreamId, pos: Position | null): void;
  /** Every stored position (the built-in stores have it; the client does not need it). */
  entries?(): Array<{ stream: StreamId } & Position>;
}

/** A store in memory (tests, Node.js processes, pages without persistence). */
export function memoryPositions(initial?: Record<StreamId, Position>): Required<PositionStore>;

/** The browser default: one localStorage key per stream (`notify.position.u:42` → `epoch:seq`). */
export function localStoragePositions(options?: { storage?: Storage; prefix?: string }): Required<PositionStore>;

/** `epoch:seq` (an SSE id, a Last-Event-ID). */
export function formatPosition(pos: Position): string;
/** The position in `epoch:seq`, or null when the text is not a valid position. */
export function parsePosition(text: unknown): Position | null;

/** The stream of a room name, or BROADCAST; throws a TypeError for a name the gateway would refuse. */
export function roomStream(room: string): StreamId;
/** The key of a stream in the SSE composite cursor. */
export function cursorKey(stream: StreamId): string;
/** The composite Last-Event-ID of protocol §8. */
export function compositeCursor(entries: Array<{ stream: StreamId | null; pos: Position | null }>): string;

/** The dedup and ordering rule of protocol §3.2 over a position store. */
export class Sequencer {
  constructor(store: PositionStore);
  position(stream: StreamId): Position | null;
  classify(event: { stream: StreamId; epoch: string; seq: number }): 'deliver' | 'duplicate' | 'gap';
  classifyRange(stream: StreamId, epoch: string, from: number, to: number): 'deliver' | 'duplicate' | 'gap';
  advance(stream: StreamId, pos: Position | null): void;
}

// ---------------------------------------------------------------------------------------------
// frames (docs/protocol.md)

export interface WelcomeFrame {
  t: 'welcome';
  protocol: 'notify.v1';
  nodeId: string;
  connectionId: string;
  streams: StreamId[];
  pingIntervalMs: number;
  serverTime: number;
}

/** An event as onEvent receives it. Durable events carry epoch and seq; ephemeral ones do not. */
export interface EventFrame<D = unknown> {
  t: 'event';
  stream: StreamId;
  epoch?: string;
  seq?: number;
  id: string;
  type: string;
  class: 'durable' | 'ephemeral';
  data: D;
  occurredAt?: string;
  /** RFC 3339: when the event stops being true (the producer's expiresAt or ttl); stop showing it then. */
  expiresAt?: string;
}

export type ResetReason = 'position_too_old' | 'epoch_mismatch' | 'unknown_stream' | (string & {});

export interface ResetFrame {
  t: 'reset';
  stream: StreamId;
  reason: ResetReason;
  head?: Position;
  firstSeq?: number;
}

export interface CollapsedFrame {
  t: 'collapsed';
  stream: StreamId;
  epoch: string;
  from: number;
  to: number;
  reason?: CollapsedReason;
}

/** Why a collapsed frame left seqs out, when not superseded (docs/protocol.md §3.5 to §3.7). */
export type CollapsedReason = 'muted' | 'expired' | 'recalled';

/** The producer took back the event `id` at `seq` of `stream` (docs/protocol.md §3.7); no position moves. */
export interface RecalledFrame {
  t: 'recalled';
  stream: StreamId;
  epoch: string;
  seq: number;
  id: string;
}

export interface SubscribedFrame {
  t: 'subscribed';
  stream: StreamId;
  head?: Position;
}

export interface UnsubscribedFrame {
  t: 'unsubscribed';
  stream: StreamId;
}

export interface SubscribeRefusedFrame {
  t: 'subscribe_refused';
  stream: StreamId;
  reason: 'forbidden' | 'limit' | 'bad_name' | (string & {});
  detail?: string;
}

export interface PresenceResultFrame {
  t: 'presence_result';
  stream: StreamId;
  online?: number;
  members?: string[];
  next?: string;
  error?: 'not_subscribed' | 'off' | 'unavailable' | (string & {});
}

/** The read state of the user's stream after a mark (docs/inbox.md). */
export interface StateFrame {
  t: 'state';
  stream: StreamId;
  epoch: string;
  head: number;
  unread: number;
  unseen: number;
  version: number;
  kind: 'read' | 'seen' | 'archive';
  upTo?: number;
  seqs?: number[];
  device?: string;
}

export interface PingFrame { t: 'ping' }
export interface PongFrame { t: 'pong' }

/** Every frame a gateway sends. */
export type ServerFrame =
  | WelcomeFrame | EventFrame | ResetFrame | CollapsedFrame | RecalledFrame | SubscribedFrame | UnsubscribedFrame
  | SubscribeRefusedFrame | PresenceResultFrame | StateFrame | PingFrame | PongFrame;

/** Every frame the client sends. */
export type ClientFrame =
  | { t: 'resume'; streams: Array<{ stream: StreamId } & Position> }
  | { t: 'ack'; stream: StreamId; seq: number }
  | { t: 'subscribe'; stream: StreamId; epoch?: string; seq?: number }
  | { t: 'unsubscribe'; stream: StreamId }
  | { t: 'presence'; stream: StreamId; after?: string; limit?: number }
  | PongFrame;

// ---------------------------------------------------------------------------------------------
// listeners

export type ConnectionState = 'connecting' | 'connected' | 'disconnected' | 'refused';
export type Transport = 'ws' | 'sse';

/** Why a gateway refuses handshakes (GET /v1/ws/check). */
export type RefusalReason = 'origin' | 'token' | 'draining' | 'admission' | 'unavailable' | (string & {});

/** What the gateway answered about a refusal; held in `client.refusal` until a welcome. */
export interface Refusal {
  gateway: string;
  reason: RefusalReason;
  /** A human-readable reason, e.g. the token's refusal (`token_expired`); never a secret. */
  detail: string | null;
  /** The HTTP status the handshake gets (403 origin, 401 token, 503 the others). */
  status: number | null;
  /** Seconds after which a transient refusal (draining, admission) may be over. */
  retryAfter: number | null;
  /** origin and token: the backoff is at its cap until a welcome. */
  definitive: boolean;
}

/** The `info` of onState; which fields are set depends on the state. */
export interface StateInfo {
  gateway?: string;
  transport?: Transport;
  /** connected */
  nodeId?: string | null;
  connectionId?: string;
  streams?: StreamId[];
  /** disconnected, refused: the close code (1006: dropped, refused, or failed before a close frame) */
  code?: number;
  /** disconnected: the close reason; refused: the refusal's reason */
  reason?: string;
  /** disconnected, refused: the delay before the next attempt (absent when terminal) */
  delayMs?: number;
  /** connecting, disconnected, refused: the backoff's attempt counter */
  attempt?: number;
  /** disconnected: no reconnect follows */
  terminal?: boolean;
  /** refused: the refusal's fields (reason above) and the connection's own close reason */
  detail?: string | null;
  status?: number | null;
  retryAfter?: number | null;
  definitive?: boolean;
  closeReason?: string;
  /** while a refusal is held (until a welcome): what the gateway said */
  refusal?: Refusal;
}

export interface ResetInfo {
  stream: StreamId;
  reason: ResetReason;
  head: Position | null;
  firstSeq: number | null;
}

export interface CollapsedInfo {
  stream: StreamId;
  epoch: string;
  from: number;
  to: number;
  count: number;
  /**
   * Absent: superseded during catch-up; 'muted': the user turned live delivery off for it (protocol §3.5); 'expired': it
   * expired before it was sent (§3.6); 'recalled': its producer took it back (§3.7), its content never comes.
   */
  reason?: CollapsedReason;
}

/** A `recalled` frame without its `t`: the event to stop showing. */
export type RecalledInfo = Omit<RecalledFrame, 't'>;

/** The unread estimate: the newest read state plus the events of the user's stream received above its head. */
export interface UnreadCounts {
  unread: number;
  unseen: number;
  version: number;
  head: Position | null;
}

/** A `state` frame without its `t`. */
export type InboxState = Omit<StateFrame, 't'>;

export interface RoomHandlers {
  onEvent?(event: EventFrame): void;
  onSubscribed?(info: { stream: StreamId; head: Position | null }): void;
  onRefused?(info: { stream: StreamId; reason: SubscribeRefusedFrame['reason']; detail?: string }): void;
  onReset?(info: ResetInfo): void;
  onUnsubscribed?(info: { stream: StreamId }): void;
  onCollapsed?(info: CollapsedInfo): void;
  onRecalled?(info: RecalledInfo): void;
}

/** The token callback: `refresh` is true after close 4001, a refused token, or past the last token's exp. */
export type TokenProvider = (arg: { refresh: boolean }) => string | Promise<string>;

/** Timers the client uses (tests inject virtual ones). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: any): void;
}

/** The WebSocket class the client constructs: `new WebSocket(url, 'notify.v1')`. */
export type WebSocketClass = new (url: string, protocol: string) => {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: any) => any) | null;
  onmessage: ((ev: { data: any }) => any) | null;
  onclose: ((ev: { code: number; reason: string }) => any) | null;
  onerror: ((ev: any) => any) | null;
};

/** The EventSource class the client constructs: `new EventSource(url)`. */
export type EventSourceClass = new (url: string) => {
  close(): void;
  onmessage: ((ev: { data: any }) => any) | null;
  onerror: ((ev: any) => any) | null;
};

export type FetchFunction = (url: string, init?: any) => Promise<{
  status: number;
  json(): Promise<any>;
  headers?: { get(name: string): string | null };
}>;

export interface ConnectOptions {
  /** Gateway base URLs (http(s) or ws(s)), tried in order and rotated on every reconnect. */
  gateways: string[];
  /** A JWT, or a callback called before every connection. */
  token: string | TokenProvider;
  /** Default: localStorage where there is one, else memory. */
  positions?: PositionStore;
  onEvent?(event: EventFrame): void;
  onReset?(info: ResetInfo): void;
  onState?(state: ConnectionState, info: StateInfo): void;
  onError?(error: unknown): void;
  onInboxState?(state: InboxState): void;
  onUnread?(counts: UnreadCounts): void;
  onCollapsed?(info: CollapsedInfo): void;
  /** The producer took back an event this client was sent (a room's own handler first): stop showing it. */
  onRecalled?(info: RecalledInfo): void;
  /** Default 'auto': WebSocket, SSE after WS_FAILURES_BEFORE_SSE failed WebSocket attempts. */
  transport?: 'auto' | Transport;
  /** Default { baseMs: 1000, capMs: 60000 }. */
  backoff?: { baseMs?: number; capMs?: number };
  /** No `welcome` within it (the ticket request included): the attempt failed. Default 15000. */
  connectTimeoutMs?: number;
  /** 1..64 characters of [A-Za-z0-9._-]; default deviceId(). */
  device?: string;
  /** true: read the unread counts after every welcome. */
  inbox?: boolean;
  /** Default globalThis.WebSocket (Node.js 22+, browsers; Node.js 20 with --experimental-websocket). */
  WebSocket?: WebSocketClass;
  /** Default globalThis.EventSource (browsers). */
  EventSource?: EventSourceClass;
  fetch?: FetchFunction;
  /** The service workers `client.push` uses; default navigator.serviceWorker (null: none, push is unsupported). */
  serviceWorker?: ServiceWorkerContainerLike | null;
  timers?: Timers;
  random?: () => number;
  now?: () => number;
}

// ---------------------------------------------------------------------------------------------
// the client

export function connect(options: ConnectOptions): NotifyClient;

export interface InboxItem {
  event: EventFrame;
  state: 'unseen' | 'seen' | 'read' | 'archived';
}

export interface InboxPage {
  stream: StreamId;
  events: InboxItem[];
  /** The `before` of the following page; null on the last one. */
  next: number | null;
  unread: number;
  unseen: number;
  version: number;
  head: Position | null;
  firstSeq?: number;
}

/** `{ upTo }` (a seq, or a position such as a head) or `{ ids }` (1..100 event ids), optionally `epoch`. */
export type Mark =
  | { upTo: number | Position; epoch?: string; ids?: never }
  | { ids: string[]; epoch?: string; upTo?: never };

export interface PresenceAnswer {
  stream: StreamId;
  online: number;
  members: string[];
  next: string | null;
}

// ---------------------------------------------------------------------------------------------
// push (docs/push.md)

export type PushProvider = 'webpush' | 'fcm' | 'apns';

/** A registration as the gateway shows it: never a key or a token. */
export interface PushRegistration {
  /** `pr_` and 22 base64url characters, derived from the address: the same address gives the same id. */
  id: string;
  provider: PushProvider | (string & {});
  /** When it was first registered, epoch ms. */
  createdAt: number;
  /** webpush: the subscription's endpoint */
  endpoint?: string;
  /** apns: the app's bundle id */
  topic?: string;
  /** apns */
  environment?: 'sandbox' | 'production';
}

/** What GET /v1/push/config answers: `webpush` is absent when the deployment has no Web Push. */
export interface PushConfig {
  webpush?: { applicationServerKey: string };
}

/** PushSubscription.toJSON(), as POST /v1/push/registrations takes it. */
export interface WebPushSubscriptionJSON {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/** A native app's token for registerToken(): FCM, or APNs with its app's topic and environment. */
export type PushTokenAddress =
  | { fcm: { token: string }; apns?: never }
  | { apns: { token: string; topic: string; environment: 'sandbox' | 'production' }; fcm?: never };

/** The parts of the browser's PushSubscription that client.push uses. */
export interface PushSubscriptionLike {
  readonly endpoint: string;
  readonly options?: { readonly applicationServerKey: ArrayBuffer | null } | null;
  toJSON(): { endpoint?: string; expirationTime?: number | null; keys?: Record<string, string> };
  unsubscribe(): Promise<boolean>;
}

/** The parts of the browser's PushManager that client.push uses. */
export interface PushManagerLike {
  getSubscription(): Promise<PushSubscriptionLike | null>;
  subscribe(options: { userVisibleOnly: boolean; applicationServerKey: ArrayBuffer }): Promise<PushSubscriptionLike>;
}

/** A ServiceWorkerRegistration (the parts client.push uses). */
export interface ServiceWorkerRegistrationLike {
  readonly pushManager: PushManagerLike;
}

/** navigator.serviceWorker (the parts client.push uses). */
export interface ServiceWorkerContainerLike {
  readonly ready: Promise<ServiceWorkerRegistrationLike>;
  getRegistration?(): Promise<ServiceWorkerRegistrationLike | undefined>;
}

/** What unregister() did: the registration removed at the gateway (null: it had none) and whether a subscription was ended. */
export interface PushUnregistered {
  id: string | null;
  unsubscribed: boolean;
}

/** `client.push`: this device's push registrations. A refusal rejects with a PushError. */
export class NotifyPush {
  constructor(client: NotifyClient, serviceWorker?: ServiceWorkerContainerLike | null);
  /** GET /v1/push/config. */
  config(): Promise<PushConfig>;
  /** The user's registrations, oldest first (one just made may take a moment to be listed). */
  list(): Promise<PushRegistration[]>;
  /**
   * Subscribes this browser (with the gateway's VAPID key; an existing subscription with that key
   * is reused) and registers the subscription. Default registration: navigator.serviceWorker.ready.
   * Rejects with an Error whose `code` is 'unsupported' or 'off', with the browser's NotAllowedError
   * (permission denied), or with a PushError.
   */
  register(registration?: ServiceWorkerRegistrationLike): Promise<PushRegistration>;
  /** On sign-out: removes this browser subscription's registration at the gateway, then ends the subscription. */
  unregister(registration?: ServiceWorkerRegistrationLike): Promise<PushUnregistered>;
  /** Registers a native app's FCM or APNs token (hybrid apps). */
  registerToken(address: PushTokenAddress): Promise<PushRegistration>;
  /** Removes registration `id` (404 not-found: the user has none such). */
  remove(id: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// preferences (docs/inbox.md, "Preferences", "Quiet hours")

/** Which channels an entry turns off (`false`) or on (`true`, or left out: on). */
export interface Channels {
  /** delivery to the user's connected devices, live and on resume */
  live?: boolean;
  /** kept in the inbox: listed, counted unread, replayed on resume */
  inbox?: boolean;
  /** the offline fallback (push, e-mail, any channel) */
  push?: boolean;
}

/** A daily window `[start, end)` of local time (`HH:mm`; crosses midnight when end < start) in an IANA zone, during which fallbacks are held. */
export interface QuietHours {
  start: string;
  end: string;
  /** e.g. 'Europe/Berlin' */
  timeZone: string;
  /** false: what arrives inside the window is muted for live delivery too (kept in the inbox). */
  live?: boolean;
}

/** The user's preferences as the gateway answers them: entries by event type and by category. */
export interface Preferences {
  types: Record<string, Channels>;
  categories: Record<string, Channels>;
  /** absent when the user set none */
  quietHours?: QuietHours;
}

/** What put() takes: the whole document (what it leaves out is gone); `types` and `categories` default to none. */
export interface PreferencesInput {
  types?: Record<string, Channels>;
  categories?: Record<string, Channels>;
  quietHours?: QuietHours | null;
}

/** `client.preferences`: what the signed-in user wants to receive. A refusal rejects with a PreferencesError. */
export class NotifyPreferences {
  constructor(client: NotifyClient);
  /** GET /v1/preferences; empty maps when the user set none. A change made a moment ago may not show yet. */
  get(): Promise<Preferences>;
  /** PUT /v1/preferences: replaces the document as a whole; resolves with the document stored. A malformed shape is a TypeError before anything is sent. */
  put(doc: PreferencesInput): Promise<Preferences>;
  /** DELETE /v1/preferences: every channel on, no quiet hours. */
  reset(): Promise<void>;
}

export class NotifyClient {
  constructor(options: ConnectOptions);
  start(): this;
  /** Ends the connection for good (close code 1000). */
  close(): void;
  /** The last processed position of a stream, or null. */
  position(stream: StreamId): Position | null;
  /** connecting, connected, disconnected or refused. */
  readonly state: ConnectionState;
  /** The node of the current connection, or null. */
  readonly nodeId: string | null;
  /** The transport of the current or next attempt. */
  readonly transport: Transport | null;
  /** What the gateway said when it last refused this client's handshakes; null after a welcome. */
  readonly refusal: Refusal | null;
  /** The unread estimate; null until a state or a count arrived. */
  readonly unread: number | null;
  readonly unseen: number | null;

  inbox(query?: { before?: number; limit?: number; archived?: 'exclude' | 'include' | 'only' }): Promise<InboxPage>;
  unreadCount(): Promise<UnreadCounts>;
  markRead(mark: Mark): Promise<{ stream: StreamId; accepted: boolean }>;
  markSeen(mark: Mark): Promise<{ stream: StreamId; accepted: boolean }>;
  archive(mark: Mark): Promise<{ stream: StreamId; accepted: boolean }>;

  /** Subscribes to a room (or BROADCAST); returns its stream id. */
  subscribe(room: string, handlers?: RoomHandlers): StreamId;
  unsubscribe(room: string): void;
  subscriptions(): StreamId[];
  presence(room: string, page?: { after?: string; limit?: number }): Promise<PresenceAnswer>;

  /** This device's push registrations (docs/push.md). */
  readonly push: NotifyPush;
  /** The user's preferences (docs/inbox.md, "Preferences"). */
  readonly preferences: NotifyPreferences;
}

// ---------------------------------------------------------------------------------------------
// errors and helpers

/** An inbox call the gateway refused or could not answer. */
export class InboxError extends Error {
  constructor(status: number, problem: unknown, what: string);
  readonly status: number;
  readonly type: string | null;
  readonly title: string | null;
  readonly detail: string | null;
}

/** A push call the gateway refused or could not answer (an InboxError of the push API). */
export class PushError extends InboxError {
  constructor(status: number, problem: unknown, what: string);
}

/** A preferences call the gateway refused or could not answer (an InboxError of the preferences API): 400 invalid-body names the field in `detail`. */
export class PreferencesError extends InboxError {
  constructor(status: number, problem: unknown, what: string);
}

/** Why client.push cannot go on: no service worker or Push API here, or no Web Push at the gateway. */
export interface PushUnavailableError extends Error {
  code: 'unsupported' | 'off';
}

/** A ticket request the gateway refused (401 token, 403 origin, 503 busy or draining). */
export class TicketError extends Error {
  constructor(status: number, gateway: string);
  readonly status: number;
}

/** Exponential backoff with full jitter: random(0, min(cap, base * 2^attempt)). */
export class Backoff {
  constructor(options?: { baseMs?: number; capMs?: number; random?: () => number });
  baseMs: number;
  capMs: number;
  attempt: number;
  ceiling(): number;
  next(): number;
  reset(): void;
}

/** 'never' (terminal), 'promptly' or 'backoff' for a WebSocket close code. */
export function reconnectPolicy(code: number): 'never' | 'promptly' | 'backoff';

/** The claims of a JWT, unverified; null if unreadable. */
export function tokenClaims(token: string): Record<string, unknown> | null;

/** This browser's device id, kept in `storage` (default localStorage) under `key`. */
export function deviceId(options?: { storage?: Storage | null; key?: string }): string;

/** A connect ticket credential, or the JWT itself (gateways older than tickets). */
export type Credential = { ticket: string } | string;

export function webSocketUrl(gateway: string, credential: Credential, device?: string): string;
export function sseUrl(gateway: string, credential: Credential, position?: Position | string | null,
  streams?: StreamId[], device?: string): string;
export function ticketUrl(gateway: string): string;
export function inboxUrl(gateway: string, path?: string): string;
export function pushUrl(gateway: string, path?: string): string;
export function preferencesUrl(gateway: string): string;
export function checkUrl(gateway: string): string;

/** A connect ticket from `gateway`; null when it has none (404). */
export function requestTicket(gateway: string, token: string,
  options?: { fetch?: FetchFunction; signal?: AbortSignal }): Promise<{ ticket: string } | null>;

/** What GET /v1/ws/check answers. */
export interface HandshakeCheck {
  ok: boolean;
  reason: RefusalReason | null;
  detail: string | null;
  status: number | null;
  retryAfter: number | null;
}

/** Whether `gateway` would accept a handshake with `token` (from `origin`, default this page's) now; null when it has no check. */
export function checkHandshake(gateway: string, token: string | null,
  options?: { fetch?: FetchFunction; signal?: AbortSignal; origin?: string | null }): Promise<HandshakeCheck | null>;
