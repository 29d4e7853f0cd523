// Unit tests of recall in the client (clients/js/notify.js; docs/protocol.md §3.7): `recalled` frames
// reach onRecalled (a room's handler first) and move no position, and a collapsed frame with reason
// 'recalled' is a position like any collapsed one. Run by `node --test test/*.test.mjs` (ops/e2e NotifyJsTest in `mvn verify`).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ACK_DELAY_MS } from '../notify.js';
import { FakeWebSocket, FakeEventSource, tick, welcome, ev, harness } from './fakes.mjs';

const recalled = (seq, extra = {}) => ({ t: 'recalled', stream: 'u:42', epoch: 'e1', seq, id: 'id-' + seq, ...extra });
const state = (version, head, unread) => ({ t: 'state', stream: 'u:42', epoch: 'e1', head, unread, unseen: unread, version,
  kind: 'archive', seqs: [1], device: 'notify.recall' });

async function overWebSocket(opts) {
  const h = harness(opts);
  await tick();
  const ws = FakeWebSocket.last();
  ws.frame(welcome());
  return { h, ws };
}

describe('recall', () => {
  test('a recalled frame tells onRecalled and moves nothing: no position, no ack, the next event follows', async () => {
    const { h, ws } = await overWebSocket();
    ws.frame(state(1, 0, 0));
    ws.frame(ev(1));
    ws.frame(ev(2));
    h.timers.advance(ACK_DELAY_MS);
    const acks = ws.sent.filter((f) => f.t === 'ack').length;
    assert.equal(h.client.unread, 2);

    ws.frame(recalled(1));
    assert.deepEqual(h.recalls, [{ stream: 'u:42', epoch: 'e1', seq: 1, id: 'id-1' }]);
    assert.deepEqual(h.store.get('u:42'), { epoch: 'e1', seq: 2 });
    h.timers.advance(ACK_DELAY_MS);
    assert.equal(ws.sent.filter((f) => f.t === 'ack').length, acks, 'nothing to ack');
    ws.frame(state(2, 2, 1)); // fanout archives the recalled event for the user: the following state frame lowers the count
    assert.equal(h.client.unread, 1);
    ws.frame(ev(3));
    assert.equal(ws.closedWith, null, 'no gap');
    assert.deepEqual(h.log.filter((l) => !l.startsWith('set')), ['event 1', 'event 2', 'recalled u:42 1 id-1', 'event 3']);
    assert.equal(h.client.unread, 2);
  });

  test('malformed recalled frames are ignored; a room\'s go to its own onRecalled, one of a room not held nowhere', async () => {
    const { h, ws } = await overWebSocket();
    ws.frame(recalled(1, { epoch: undefined }));
    ws.frame(recalled(0));
    ws.frame(recalled(1, { id: 7 }));
    assert.deepEqual(h.recalls, []);

    const room = [];
    h.client.subscribe('chat-1', { onEvent: () => {}, onRecalled: (r) => room.push(r) });
    ws.frame({ t: 'subscribed', stream: 'r:chat-1', head: { epoch: 'r1', seq: 3 } });
    ws.frame(ev(4, 'r1', 'r:chat-1'));
    ws.frame(recalled(4, { stream: 'r:chat-1', epoch: 'r1' }));
    ws.frame(recalled(1, { stream: 'r:left', epoch: 'r9' }));
    assert.deepEqual(room, [{ stream: 'r:chat-1', epoch: 'r1', seq: 4, id: 'id-4' }]);
    assert.deepEqual(h.recalls, [], "the room's handler, not the client's");
    assert.deepEqual(h.store.get('r:chat-1'), { epoch: 'r1', seq: 4 });
  });

  test('over SSE a recalled frame leaves the cursor where it was; a catch-up gets collapsed with reason recalled', async () => {
    const h = harness({ transport: 'sse', positions: { 'u:42': { epoch: 'e1', seq: 1 } } });
    await tick();
    const es = FakeEventSource.last();
    es.frame(welcome());
    es.frame({ t: 'collapsed', stream: 'u:42', epoch: 'e1', from: 2, to: 2, reason: 'recalled' });
    es.frame(ev(3));
    es.frame(recalled(3));
    assert.deepEqual(h.collapses, [{ stream: 'u:42', epoch: 'e1', from: 2, to: 2, count: 1, reason: 'recalled' }]);
    assert.deepEqual(h.recalls.map((r) => r.seq), [3]);
    assert.deepEqual(h.events.map((e) => e.seq), [3], 'no content of 2');
    es.fail();
    h.timers.advance(60000);
    await tick();
    assert.match(FakeEventSource.last().url, /&lastEventId=e1%3A3$/);
  });
});
