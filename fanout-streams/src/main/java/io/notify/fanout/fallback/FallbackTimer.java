package io.notify.fanout.fallback;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.event.Digest;
import io.notify.fanout.inbox.InboxKey;
import io.notify.fanout.inbox.InboxLimits;
import io.notify.fanout.inbox.InboxRetention;
import io.notify.fanout.inbox.InboxStores;
import io.notify.fanout.inbox.StreamHead;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.prefs.PreferenceStores;
import io.notify.fanout.push.PushStores;
import io.notify.protocol.event.Channel;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.prefs.QuietHours;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
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
 * <p>The user's say (docs/inbox.md, "Preferences"): an event whose push channel the user turned off
 * ({@code muted}) is not scheduled; one whose event expired by its due time is cancelled
 * ({@code cancelled_expired}); a fallback due during the user's quiet hours is held to their end
 * (its entry moves to that time); critical events skip both. Events that ask for a {@code digest} fold:
 * the first of a user's events with a digest key opens an {@link OpenDigest} (store {@value #DIGESTS})
 * due when its window closes (or at the first event's own due time, if later); later events of the key
 * sequenced before then join it instead of being scheduled, and one record stands for all of them that
 * were neither acknowledged nor read; with {@code digest.summary} the user's inbox also gets one entry that stands for
 * them ({@link TimerOutput.Summary}). What a fallback stands for is decided when it is due ({@link Standing}): its events
 * not acknowledged, read, recalled ({@code cancelled_recalled}) nor expired; a digest shows the first and last of those.
 * A critical event is never folded into a digest. A digest held by quiet hours keeps taking events until it fires.
 *
 * <p>Bounds: at most {@code max-pending} pending fallbacks per task (more are not scheduled:
 * {@code outcome=dropped_full}; a digest holds one entry however many it folds); at most
 * {@code max-per-run} handled per punctuation (the rest wait for the next one, which shows as lateness).
 * Counted in {@code notify_fanout_fallback_total{outcome}}; the lateness of each decision
 * ({@code now - dueAt}) in {@code notify_fanout_fallback_lateness_seconds}. Not thread-safe: one
 * instance per task.
 */
public final class FallbackTimer implements Processor<StreamId, StreamEvent, StreamId, TimerOutput> {

    public static final String STORE = "fallback-pending";
    public static final String DIGESTS = "fallback-digests";
    /** The {@code source} of digests' inbox summaries. */
    public static final String SUMMARY_SOURCE = "notify-fanout";

    private final FallbackSettings settings;
    private final Clock clock;
    private final FanoutMetrics metrics;
    private final InboxLimits limits;
    private ProcessorContext<StreamId, TimerOutput> context;
    private InboxRetention retention;
    private KeyValueStore<Bytes, SequencedEvent> pending;
    private KeyValueStore<Bytes, OpenDigest> digests;
    private KeyValueStore<StreamId, StreamHead> heads;
    private KeyValueStore<InboxKey, SequencedEvent> inbox;
    private KeyValueStore<StreamId, InboxState> states;
    private KeyValueStore<StreamId, PushRegistrations> registrations;
    private KeyValueStore<StreamId, UserPreferences> preferences;
    private long held; // entries of this task's store: estimated at start, then counted

    public FallbackTimer(FallbackSettings settings, InboxLimits limits, Clock clock, FanoutMetrics metrics) {
        this.settings = settings;
        this.limits = limits;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** The store of pending fallbacks; caching on: an event read within one commit never reaches the changelog. */
    public static StoreBuilder<KeyValueStore<Bytes, SequencedEvent>> storeBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.Bytes(), NotifySerdes.sequencedEvent())
                .withCachingEnabled();
    }

    /** The store of digests still collecting, by user stream and digest key. */
    public static StoreBuilder<KeyValueStore<Bytes, OpenDigest>> digestsBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(DIGESTS), Serdes.Bytes(), OpenDigest.serde());
    }

    @Override
    public void init(ProcessorContext<StreamId, TimerOutput> context) {
        this.context = context;
        this.pending = context.getStateStore(STORE);
        this.digests = context.getStateStore(DIGESTS);
        this.heads = context.getStateStore(InboxStores.HEADS);
        this.inbox = context.getStateStore(InboxStores.INBOX);
        this.states = context.getStateStore(InboxStores.INBOX_STATE);
        this.registrations = context.getStateStore(PushStores.REGISTRATIONS);
        this.preferences = context.getStateStore(PreferenceStores.PREFERENCES);
        this.held = pending.approximateNumEntries();
        this.retention = new InboxRetention(heads, inbox, limits, 0, 0, metrics); // trims after a digest summary only
        // wall-clock punctuation, decided on this timer's clock (the one sequencedAt comes from)
        context.schedule(settings.checkInterval(), PunctuationType.WALL_CLOCK_TIME, ts -> fireDue(clock.millis()));
    }

    @Override
    public void process(Record<StreamId, StreamEvent> record) {
        if (!(record.value() instanceof SequencedEvent e) || e.fallback() == null || !e.stream().isUser()) {
            return;
        }
        if (e.isMuted(Channel.PUSH)) {
            metrics.fallback("muted");
            return;
        }
        Bytes digestKey = e.digest() == null || e.critical() ? null : digestKey(e); // a critical event is never folded, never held
        if (digestKey != null) {
            OpenDigest open = digests.get(digestKey);
            if (open != null && !open.takes(e)) { // its window closed, and the punctuator has not fired it yet: fire it now
                digests.put(digestKey, null);
                Bytes key = open.pendingKey().toBytes();
                if (pending.get(key) != null) {
                    pending.put(key, null);
                    held = Math.max(0, held - 1);
                    settle(open.first(), open, open.dueAt(), clock.millis());
                }
                open = digests.get(digestKey); // held by quiet hours: still open, and e folds into it
            }
            if (open != null && open.takes(e)) {
                digests.put(digestKey, open.with(e));
                metrics.fallback("folded");
                return;
            }
        }
        if (held >= settings.maxPending()) {
            metrics.fallback("dropped_full");
            return;
        }
        long dueAt = e.sequencedAt() + e.fallback().delay().toMillis();
        if (digestKey != null) {
            dueAt = Math.max(dueAt, e.sequencedAt() + e.digest().length().toMillis());
            digests.put(digestKey, OpenDigest.open(e, dueAt));
        }
        pending.put(new FallbackKey(dueAt, e.stream(), e.seq()).toBytes(), e);
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
            SequencedEvent event = entry.value;
            OpenDigest digest = event.digest() == null ? null : digests.get(digestKey(event));
            if (digest != null && digest.first().seq() != event.seq()) {
                digest = null; // not this entry's digest (a newer one of the key): decide the event alone
            } else if (digest != null) {
                digests.put(digestKey(event), null);
            }
            pending.put(entry.key, null); // tombstones: delete() would read each value back first
            held = Math.max(0, held - 1);
            settle(event, digest, key.dueAt(), now);
        }
    }

    /** Cancels, holds (quiet hours) or emits one due fallback, whose pending entry is already deleted. */
    private void settle(SequencedEvent event, OpenDigest digest, long dueAt, long now) {
        StreamId stream = event.stream();
        StreamHead head = heads.get(stream);
        InboxState state = states.get(stream);
        boolean sameEpoch = head != null && head.epoch().equals(event.epoch());
        boolean sameHistory = sameEpoch && state != null && state.epoch().equals(event.epoch());
        Standing standing = Standing.of(event, digest, sameHistory ? state : null,
                sameEpoch ? seq -> inbox.get(new InboxKey(stream, seq)) : null, now);
        if (standing.none()) { // every event acknowledged, read, recalled or expired: nothing to reach the user with
            metrics.fallback(standing.cancelled());
            metrics.fallbackLateness(now - dueAt);
            return;
        }
        Long quietEnd = event.critical() ? null : quietEnd(stream, dueAt); // it fell due inside the user's quiet hours
        if (quietEnd != null && quietEnd > now) {
            pending.put(new FallbackKey(quietEnd, stream, event.seq()).toBytes(), event);
            held++;
            if (digest != null) {
                digests.put(digestKey(event), digest.dueAt(quietEnd));
            }
            metrics.fallback("held_quiet");
            return;
        }
        List<FallbackRecord.Device> devices = new ArrayList<>();
        if (state != null) {
            state.devices().forEach((id, d) -> devices.add(new FallbackRecord.Device(id, sameHistory ? d.acked() : 0, d.at())));
        }
        FallbackRecord.Reason reason = devices.isEmpty() ? FallbackRecord.Reason.NO_DEVICE : FallbackRecord.Reason.NO_ACK;
        String channel = event.fallback().channel();
        PushRegistrations push = FallbackRecord.PUSH_CHANNEL.equals(channel) ? registrations.get(stream) : null;
        FallbackRecord.Digested folded = digest == null ? null
                : new FallbackRecord.Digested(event.digest().key(), standing.count(), standing.first());
        context.forward(new Record<>(stream, new TimerOutput.Fallback(new FallbackRecord(stream.value(), stream.userId(), channel, reason,
                standing.last(), devices, dueAt, clock.millis(), push == null ? List.of() : push.registrations(), folded)), now));
        if (digest != null && event.digest().summary() && sameEpoch) {
            summarize(stream, event.digest().key(), standing, now);
        }
        metrics.fallback("emitted_" + reason.wireName());
        metrics.fallbackLateness(now - dueAt);
    }

    /**
     * The inbox summary of a digest that asked for one (docs/inbox.md, "Digests"): the stream's next seq, type
     * {@value Digest#SUMMARY_TYPE}, data {@code {key, count, type, first: {id, seq}, last: {id, seq}}}, held in the inbox
     * like any event and sent on to the stream log and the user's devices, in this transaction.
     */
    private void summarize(StreamId stream, String key, Standing standing, long now) {
        StreamHead head = heads.get(stream).next();
        SequencedEvent first = standing.first();
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("key", key).put("count", standing.count())
                .put("type", standing.last().type());
        data.putObject("first").put("id", first.id()).put("seq", first.seq());
        data.putObject("last").put("id", standing.last().id()).put("seq", standing.last().seq());
        SequencedEvent summary = new SequencedEvent(stream, head.epoch(), head.lastSeq(), "digest." + first.epoch() + "." + first.seq(),
                Digest.SUMMARY_TYPE, data, null, SUMMARY_SOURCE, now, now);
        inbox.put(new InboxKey(stream, head.lastSeq()), summary);
        heads.put(stream, retention.trim(stream, head, now));
        metrics.sequenced();
        context.forward(new Record<>(stream, new TimerOutput.Summary(summary), now));
    }

    /** When the user's quiet hours that hold {@code at} end (epoch ms), or null when {@code at} is outside them. */
    private Long quietEnd(StreamId stream, long at) {
        UserPreferences prefs = preferences.get(stream);
        QuietHours quiet = prefs == null ? null : prefs.preferences().quietHours();
        Instant end = quiet == null ? null : quiet.endOf(Instant.ofEpochMilli(at));
        return end == null ? null : end.toEpochMilli();
    }

    private static Bytes digestKey(SequencedEvent e) {
        return Bytes.wrap((e.stream().value() + '\u0000' + e.digest().key()).getBytes(StandardCharsets.UTF_8));
    }
}
