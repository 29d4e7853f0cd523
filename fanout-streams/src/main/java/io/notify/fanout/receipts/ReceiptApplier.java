package io.notify.fanout.receipts;

import io.notify.fanout.commit.CatchUpCommit;
import io.notify.fanout.inbox.InboxKey;
import io.notify.fanout.inbox.InboxStores;
import io.notify.fanout.inbox.StreamHead;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Applies {@code notify.receipts} to the {@code inbox-state} store, in the task that owns the
 * stream's head and inbox (the receipts topic is partitioned like the by-stream topic), so a mark
 * is checked against the events the inbox holds in the same transaction that records it.
 *
 * <ul>
 *   <li>A mark ({@code seen}, {@code read}, {@code archive}) up to a seq covers at most the head's
 *       last seq; a mark by ids covers the held events with those ids (found by one scan of the
 *       stream's inbox, at most its bound). The new state is forwarded at once, with the ephemeral
 *       event that carries the {@code state} frame to the user's devices.</li>
 *   <li>An {@code ack} records the device's highest acknowledged seq; the state is forwarded by a
 *       wall-clock punctuator every {@code publish-interval}, once per stream however many acks
 *       arrived (a crash before it loses only that write: the store, which is what queries read,
 *       has the ack).</li>
 * </ul>
 * Dropped, each counted in {@code notify_fanout_receipts_total{kind,outcome}}: an unreadable record
 * ({@code unreadable}), a value whose stream is not its key ({@code misplaced}: it is in another
 * stream's partition), a stream without events ({@code no_stream}), a receipt for another epoch than
 * the stream's ({@code stale_epoch}), a mark by ids of which none is held ({@code unknown_ids}).
 * Not thread-safe: one instance per task.
 */
public final class ReceiptApplier implements Processor<byte[], byte[], StreamId, StateUpdate> {

    /** The {@code source} of the events that carry state frames. */
    public static final String SOURCE = "notify-fanout";
    /**
     * The {@code device} of the archive marks a recall writes (docs/protocol.md, "Recall"): its ids name recalled entries
     * only, since an id is unique in its producer's scope, not in a stream.
     */
    public static final String RECALL_DEVICE = "notify.recall";

    private final InboxStateSettings settings;
    private final Clock clock;
    private final FanoutMetrics metrics;
    private final Set<StreamId> ackedSincePublish = new LinkedHashSet<>();
    private ProcessorContext<StreamId, StateUpdate> context;
    private KeyValueStore<StreamId, StreamHead> heads;
    private KeyValueStore<InboxKey, SequencedEvent> inbox;
    private KeyValueStore<StreamId, InboxState> states;

    public ReceiptApplier(InboxStateSettings settings, Clock clock, FanoutMetrics metrics) {
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<StreamId, StateUpdate> context) {
        this.context = context;
        this.heads = context.getStateStore(InboxStores.HEADS);
        this.inbox = context.getStateStore(InboxStores.INBOX);
        this.states = context.getStateStore(InboxStores.INBOX_STATE);
        context.schedule(settings.publishInterval(), PunctuationType.WALL_CLOCK_TIME, this::publishAcked);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        metrics.catchUpCommit(CatchUpCommit.processed(context));
        Receipt receipt;
        try {
            receipt = NotifySerdes.receipt().deserializer().deserialize(null, record.value());
        } catch (SerializationException e) {
            metrics.receipt("unknown", "unreadable");
            return;
        }
        if (receipt == null) {
            metrics.receipt("unknown", "unreadable");
            return;
        }
        String kind = receipt.kind().wireName();
        StreamId stream = receipt.stream();
        if (record.key() == null || !java.util.Arrays.equals(record.key(), NotifySerdes.streamId().serializer().serialize(null, stream))) {
            metrics.receipt(kind, "misplaced");
            return;
        }
        StreamHead head = heads.get(stream);
        if (head == null) {
            metrics.receipt(kind, "no_stream");
            return;
        }
        if (receipt.epoch() != null && !receipt.epoch().equals(head.epoch())) {
            metrics.receipt(kind, "stale_epoch");
            return;
        }
        InboxState before = states.get(stream);
        InboxState state = (before == null ? InboxState.empty(stream, head.epoch()) : before.forEpoch(head.epoch()))
                .pruned(head.firstSeq());
        long at = receipt.at();
        if (receipt.kind() == ReceiptKind.ACK) {
            states.put(stream, state.acked(receipt.device(), Math.min(receipt.upTo(), head.lastSeq()), at, settings.maxDevices()));
            ackedSincePublish.add(stream);
            metrics.receipt(kind, "applied");
            return;
        }
        Long upTo = null;
        List<Long> seqs = null;
        if (receipt.upTo() != null) {
            upTo = Math.min(receipt.upTo(), head.lastSeq());
            state = state.markUpTo(receipt.kind(), upTo, at);
        } else {
            seqs = seqsOf(stream, head, receipt.ids(), RECALL_DEVICE.equals(receipt.device()));
            if (seqs.isEmpty()) {
                metrics.receipt(kind, "unknown_ids");
                return;
            }
            state = state.markSeqs(receipt.kind(), seqs, at);
        }
        states.put(stream, state);
        ackedSincePublish.remove(stream); // this update carries the acks too
        metrics.receipt(kind, "applied");
        long first = head.firstSeq();
        long last = head.lastSeq();
        StateFrame frame = new StateFrame(stream, head.epoch(), last, state.unread(first, last), state.unseen(first, last),
                state.version(), receipt.kind(), upTo, seqs, receipt.device());
        context.forward(record.withKey(stream).withValue(new StateUpdate(state, frame.toLiveEvent(EventIds.generate(), SOURCE,
                clock.millis()))));
    }

    /**
     * The seqs of the held events of {@code stream} whose id is one of {@code ids} (of the recalled entries only, for a
     * recall's mark): one scan of the inbox, newest first.
     */
    private List<Long> seqsOf(StreamId stream, StreamHead head, List<String> ids, boolean recalledOnly) {
        Set<String> wanted = new HashSet<>(ids);
        List<Long> found = new ArrayList<>();
        try (KeyValueIterator<InboxKey, SequencedEvent> it = inbox.reverseRange(new InboxKey(stream, head.firstSeq()),
                new InboxKey(stream, head.lastSeq()))) {
            while (it.hasNext() && !wanted.isEmpty()) {
                KeyValue<InboxKey, SequencedEvent> e = it.next();
                if ((!recalledOnly || e.value.recalled()) && wanted.remove(e.value.id())) {
                    found.add(e.key.seq());
                }
            }
        }
        return found;
    }

    /** Writes the state of every stream whose acks changed it since the last run. */
    private void publishAcked(long now) {
        for (StreamId stream : ackedSincePublish) {
            InboxState state = states.get(stream);
            if (state != null) {
                context.forward(new Record<>(stream, new StateUpdate(state, null), now));
            }
        }
        ackedSincePublish.clear();
    }
}
