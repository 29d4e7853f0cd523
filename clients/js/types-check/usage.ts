// A typed use of @notify/client, compiled with `tsc --noEmit -p types-check` in the build (ops/e2e
// NotifyJsTest): the package is imported by its own name (its "exports"), as an application would.
import {
  connect, memoryPositions, localStoragePositions, BROADCAST, CHECK_AFTER_FAILURES, checkHandshake, InboxError,
  TicketError, PushError, PreferencesError, preferencesUrl, formatPosition, parsePosition, roomStream, requestTicket, deviceId, pushUrl,
  type ConnectOptions, type ConnectionState, type EventFrame, type NotifyClient, type PositionStore, type Position,
  type Refusal, type ServerFrame, type StateInfo, type UnreadCounts, type ClientFrame, type HandshakeCheck,
  type PushRegistration, type PushConfig, type PushUnregistered, type PushUnavailableError,
  type Preferences, type Channels, type RecalledInfo, type RecalledFrame, type CollapsedReason,
} from '@notify/client';

interface OrderShipped {
  orderId: string;
}

// a position store of the application's own (e.g. a file or a database in a Node.js service)
const saved = new Map<string, Position>();
const store: PositionStore = {
  get: (stream) => saved.get(stream) ?? null,
  set: (stream, pos) => (pos ? void saved.set(stream, pos) : void saved.delete(stream)),
};

function render(state: ConnectionState, info: StateInfo): string {
  switch (state) {
    case 'connected':
      return `on ${info.nodeId ?? '?'} over ${info.transport ?? '?'}`;
    case 'refused': {
      const r: Refusal | undefined = info.refusal;
      return `refused: ${info.reason} (${info.detail ?? ''}) ${r?.definitive ? 'for good' : 'for now'}`;
    }
    case 'disconnected':
      return info.terminal ? `stopped (${info.code})` : `retry in ${Math.round(info.delayMs ?? 0)} ms`;
    case 'connecting':
      return `connecting to ${info.gateway}`;
  }
}

const options: ConnectOptions = {
  gateways: ['http://localhost:8081', 'http://localhost:8082'],
  token: async ({ refresh }) => (await fetch('/token', { cache: refresh ? 'reload' : 'default' })).text(),
  positions: store,
  transport: 'auto',
  backoff: { baseMs: 500, capMs: 30000 },
  inbox: true,
  onEvent: (e: EventFrame) => {
    if (e.type === 'order.shipped') {
      const data = e.data as OrderShipped;
      console.log(data.orderId, e.class === 'durable' ? formatPosition({ epoch: e.epoch!, seq: e.seq! }) : 'live');
    }
  },
  onReset: (r) => console.log('reload', r.stream, r.reason, r.head?.seq, r.firstSeq),
  onState: (state, info) => console.log(render(state, info)),
  onUnread: (c: UnreadCounts) => console.log('bell', c.unread, c.unseen),
  onInboxState: (s) => console.log(s.kind, s.unread, s.upTo ?? s.seqs),
  onCollapsed: (c) => console.log(c.stream, c.count, c.reason === 'recalled' ? 'taken back' : c.reason ?? 'superseded'),
  onRecalled: (r: RecalledInfo) => console.log('remove', r.id, r.stream, formatPosition({ epoch: r.epoch, seq: r.seq })),
  onError: (e) => console.error(e),
};

const client: NotifyClient = connect(options);
const room: string = client.subscribe('chat-1', {
  onEvent: (e) => console.log(e.id),
  onRefused: ({ reason, detail }) => console.log(reason, detail),
  onSubscribed: ({ head }) => console.log(head?.seq),
  onRecalled: ({ id, seq }) => console.log('remove', id, seq),
});
client.subscribe(BROADCAST);
console.log(room, roomStream('lobby'), client.subscriptions(), client.state, client.refusal?.reason, CHECK_AFTER_FAILURES);

async function bell(c: NotifyClient): Promise<number> {
  try {
    const page = await c.inbox({ limit: 20, archived: 'exclude' });
    for (const item of page.events) console.log(item.state, item.event.type);
    const counts = await c.unreadCount();
    if (counts.head) await c.markRead({ upTo: counts.head });
    await c.markSeen({ ids: ['ord-1:shipped'] });
    const who = await c.presence('chat-1', { limit: 10 });
    console.log(who.online, who.members, who.next);
    return c.unread ?? 0;
  } catch (e) {
    if (e instanceof InboxError) return e.status;
    throw e;
  }
}

async function helpers(): Promise<void> {
  const check: HandshakeCheck | null = await checkHandshake('http://localhost:8081', 'jwt');
  if (check && !check.ok) console.log(check.reason, check.status, check.retryAfter);
  try {
    const ticket = await requestTicket('http://localhost:8081', 'jwt');
    console.log(ticket?.ticket);
  } catch (e) {
    if (e instanceof TicketError) console.log(e.status);
  }
  const recalled: RecalledFrame = { t: 'recalled', stream: 'u:42', epoch: 'e1', seq: 7, id: 'ord-1' };
  const reason: CollapsedReason = 'recalled';
  const frames: ServerFrame[] = [{ t: 'ping' }, { t: 'subscribed', stream: 'r:chat-1' }, recalled,
    { t: 'collapsed', stream: 'u:42', epoch: 'e1', from: 7, to: 7, reason }];
  const mine: ClientFrame = { t: 'ack', stream: 'u:42', seq: 3 };
  console.log(frames.length, mine.t, parsePosition('e1:3')?.seq, deviceId({ storage: null }));
  const mem = memoryPositions({ 'u:42': { epoch: 'e1', seq: 3 } });
  console.log(mem.entries(), localStoragePositions().get('u:42'));
}

// push: the browser's own service worker registration and PushSubscription fit client.push as they are
async function push(c: NotifyClient): Promise<void> {
  const config: PushConfig = await c.push.config();
  if (!config.webpush) return; // no Web Push at this gateway
  try {
    const sw = await navigator.serviceWorker.register('/service-worker.js');
    const mine: PushRegistration = await c.push.register(sw); // or c.push.register(): navigator.serviceWorker.ready
    console.log(mine.id, mine.provider, mine.endpoint, new Date(mine.createdAt));
    for (const r of await c.push.list()) console.log(r.id, r.provider, r.topic ?? r.endpoint, r.environment);
    const native = await c.push.registerToken({ apns: { token: 'ab'.repeat(32), topic: 'com.example.app', environment: 'sandbox' } });
    await c.push.registerToken({ fcm: { token: 'fcm-token' } });
    await c.push.remove(native.id);
    const gone: PushUnregistered = await c.push.unregister(); // on sign-out
    console.log(gone.id ?? 'none', gone.unsubscribed, pushUrl('http://localhost:8081', '/config'));
  } catch (e) {
    if (e instanceof PushError) console.log(e.status, e.type, e.detail);
    else if ((e as PushUnavailableError).code === 'unsupported') console.log('no push in this browser');
    else throw e;
  }
}

// preferences: the user's preference centre
async function preferences(c: NotifyClient): Promise<void> {
  const mine: Preferences = await c.preferences.get();
  const shipped: Channels = mine.types['order.shipped'] ?? {};
  console.log(shipped.push !== false, Object.keys(mine.categories), mine.quietHours?.timeZone ?? 'no quiet hours');
  try {
    const stored = await c.preferences.put({
      types: { 'order.shipped': { live: false, inbox: true, push: false } },
      categories: { marketing: { push: false } },
      quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin' },
    });
    console.log(stored.quietHours?.start, preferencesUrl('http://localhost:8081'));
    await c.preferences.put({ categories: { marketing: { push: false } } }); // types: none, no quiet hours
    await c.preferences.reset();
  } catch (e) {
    if (e instanceof PreferencesError) console.log(e.status, e.type, e.detail); // 400 invalid-body: the field at fault
    else throw e;
  }
}

const withWorkers: ConnectOptions = { ...options, serviceWorker: navigator.serviceWorker };
void withWorkers;

void bell(client).then(helpers).then(() => push(client)).then(() => preferences(client)).finally(() => client.close());
