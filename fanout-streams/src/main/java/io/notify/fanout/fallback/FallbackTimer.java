package io.notify.fanout.fallback;

import io.notify.fanout.inbox.InboxStores;
import io.notify.fanout.inbox.StreamHead;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.push.PushStores;
import io.notify.protocol.inbox.EventState;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Offline fallback (docs/inbox.md): every sequenced event of a user stream that asked for one is
 * kept in the {@value #STORE} store under its due time ({@code sequencedAt + after},
 * {@link FallbackKey}); a wall-clock punctuator every {@code check-interval} reads what is due, in
 * due order, and for each event either writes one {@link FallbackRecord} to {@code notify.fallback}
 * (for channel {@code push}, with the user's push registrations from the {@code push-registrations}
 * store) or, when a device acknowledged it or the user read or archived it, nothing (cancelled). Either
 * way the entry is deleted in the same exactly-once transaction as the record, so each event gets
 * at most one record, and exactly one when not cancelled. Runs in the sequencer's sub-topology (it
 * shares the heads and inbox-state stores), so it sees the acks and marks of its own streams.
 *
 * <p>Bounds: at most {@code max-pending} pending fallbacks per task (more are not scheduled:
 * {@code outcome=dropped_full}); at most {@code max-per-run} handled per punctuation (the rest wait
 * for the next one, which shows as lateness). Counted in {@code notify_fanout_fallback_total{outcome}};
 * the lateness of each decision ({@code now - dueAt}) in {@code notify_fanout_fallback_lateness_seconds}.
 * Not thread-safe: one instance per task.
 */
public final class FallbackTimer implements Processor<StreamId, StreamEvent, StreamId, FallbackRecord> {

    public static final String STORE = "fallback-pending";

    private final FallbackSettings settings;
    private final Clock clock;
    private final FanoutMetrics metrics;
    private ProcessorContext<StreamId, FallbackRecord> context;
    private KeyValueStore<Bytes, SequencedEvent> pending;
    private KeyValueStore<StreamId, StreamHead> heads;
    private KeyValueStore<StreamId, InboxState> states;
    private KeyValueStore<StreamId, PushRegistrations> registrations;
    private long held; // entries of this task's store: estimated at start, then counted

    public FallbackTimer(FallbackSettings settings, Clock clock, FanoutMetrics metrics) {
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** The store of pending fallbacks; caching on: an event read within one commit never reaches the changelog. */
    public static StoreBuilder<KeyValueStore<Bytes, SequencedEvent>> storeBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.Bytes(), NotifySerdes.sequencedEvent())
                .withCachingEnabled();
    }

    @Override
    public void init(ProcessorContext<StreamId, FallbackRecord> context) {
        this.context = context;
        this.pending = context.getStateStore(STORE);
        this.heads = context.getStateStore(InboxStores.HEADS);
        this.states = context.getStateStore(InboxStores.INBOX_STATE);
        this.registrations = context.getStateStore(PushStores.REGISTRATIONS);
        this.held = pending.approximateNumEntries();
        context.schedule(settings.checkInterval(), PunctuationType.WALL_CLOCK_TIME, this::fireDue);
    }

    @Override
    public void process(Record<StreamId, StreamEvent> record) {
        if (!(record.value() instanceof SequencedEvent e) || e.fallback() == null || !e.stream().isUser()) {
            return;
        }
        if (held >= settings.maxPending()) {
            metrics.fallback("dropped_full");
            return;
        }
        pending.put(new FallbackKey(e.sequencedAt() + e.fallback().delay().toMillis(), e.stream(), e.seq()).toBytes(), e);
        held++;
        metrics.fallback("scheduled");
    }

    /** Decides every fallback due by {@code now}, oldest first, at most {@code max-per-run}. */
    void fireDue(long now) {
        List<KeyValue<Bytes, SequencedEvent>> due = new ArrayList<>();
        try (KeyValueIterator<Bytes, SequencedEvent> it = pending.range(FallbackKey.first(), FallbackKey.upTo(now))) {
            while (it.hasNext() && due.size() < settings.maxPerRun()) {
                due.add(it.next());
            }
        }
        for (KeyValue<Bytes, SequencedEvent> entry : due) {
            FallbackKey key = FallbackKey.fromBytes(entry.key);
            decide(entry.value, key.dueAt(), now);
            pending.delete(entry.key);
            held = Math.max(0, held - 1);
            metrics.fallbackLateness(now - key.dueAt());
        }
    }

    private void decide(SequencedEvent event, long dueAt, long now) {
        StreamId stream = event.stream();
        StreamHead head = heads.get(stream);
        InboxState state = states.get(stream);
        boolean sameHistory = head != null && head.epoch().equals(event.epoch()) && state != null && state.epoch().equals(event.epoch());
        if (sameHistory) {
            EventState s = state.stateOf(event.seq());
            if (s == EventState.READ || s == EventState.ARCHIVED) {
                metrics.fallback("cancelled_read");
                return;
            }
            if (state.devices().values().stream().anyMatch(d -> d.acked() >= event.seq())) {
                metrics.fallback("cancelled_ack");
                return;
            }
        }
        List<FallbackRecord.Device> devices = new ArrayList<>();
        if (state != null) {
            state.devices().forEach((id, d) -> devices.add(new FallbackRecord.Device(id, sameHistory ? d.acked() : 0, d.at())));
        }
        FallbackRecord.Reason reason = devices.isEmpty() ? FallbackRecord.Reason.NO_DEVICE : FallbackRecord.Reason.NO_ACK;
        String channel = event.fallback().channel();
        PushRegistrations push = FallbackRecord.PUSH_CHANNEL.equals(channel) ? registrations.get(stream) : null;
        context.forward(new Record<>(stream, new FallbackRecord(stream.value(), stream.userId(), channel, reason,
                event, devices, dueAt, clock.millis(), push == null ? List.of() : push.registrations()), now));
        metrics.fallback("emitted_" + reason.wireName());
    }
}
