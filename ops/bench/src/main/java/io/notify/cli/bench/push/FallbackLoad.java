package io.notify.cli.bench.push;

import io.notify.common.config.PlatformSettings;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.Topic;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The load of {@code bench push}: fallback records of channel {@code push}, as fanout-streams' timer
 * writes them, produced to the run's {@code notify.fallback} at a steady {@code rate} per second for
 * {@code length}, each due the moment it is made ({@code dueAt = at = now}). Record {@code i} is
 * event {@link #eventId}{@code (i)} (short: the sender's Web Push {@code Topic} is the event id when
 * it has at most 32 characters, which is how the receiver keys an arrival) of user
 * {@code i mod users}, carrying that user's registrations. The pacing is open loop: records are
 * made on schedule whatever the sender does. One thread; {@link #dueAt} keeps every record's due time.
 */
final class FallbackLoad {

    /** The event's fallback as a user's event asks for it; only its channel matters to the sender. */
    static final Fallback FALLBACK = new Fallback("10s", FallbackRecord.PUSH_CHANNEL);

    private final String bootstrap;
    private final Topic<StreamId, FallbackRecord> topic;
    private final double rate;
    private final List<List<PushRegistration>> users;
    private final String idPrefix;
    private final long[] dueAt;
    private final AtomicLong acked = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private volatile long sent;
    private volatile long startedAt;
    private volatile long stoppedAt;
    private Thread thread;

    /**
     * @param users    each user's registrations (user {@code u} is {@code bu<u>})
     * @param idPrefix the run's event id prefix, e.g. {@code r1-}
     */
    FallbackLoad(String bootstrap, Topic<StreamId, FallbackRecord> topic, double rate, Duration length,
                 List<List<PushRegistration>> users, String idPrefix) {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.rate = rate;
        this.users = users;
        this.idPrefix = idPrefix;
        this.dueAt = new long[(int) Math.ceil(rate * length.toNanos() / 1e9) + 1];
    }

    /** Event {@code i}'s id: the prefix and {@code i} in base 36. */
    static String eventId(String prefix, long i) {
        return prefix + Long.toString(i, 36);
    }

    /** The record index of an event id of {@code prefix}, or -1 for an id that is not one. */
    static long indexOf(String prefix, String eventId) {
        if (eventId == null || !eventId.startsWith(prefix) || eventId.length() == prefix.length()) {
            return -1;
        }
        try {
            return Long.parseLong(eventId.substring(prefix.length()), 36);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Record {@code i}: event {@code i} of user {@code i mod users}, due at {@code now}. */
    static FallbackRecord record(String prefix, long i, List<List<PushRegistration>> users, long now) {
        int u = (int) (i % users.size());
        String user = "bu" + u;
        StreamId stream = StreamId.forUser(user);
        String id = eventId(prefix, i);
        var data = NotifyJson.mapper().createObjectNode().put("title", "Order " + id + " shipped").put("n", i);
        SequencedEvent e = new SequencedEvent(stream, "e1", i / users.size() + 1, id, "order.shipped", data, null, "bench-push",
                now, now, FALLBACK, null);
        return new FallbackRecord(stream.value(), user, FallbackRecord.PUSH_CHANNEL, FallbackRecord.Reason.NO_DEVICE, e, List.of(),
                now, now, users.get(u));
    }

    /** Starts producing for the length given; returns at once. */
    synchronized void start() {
        Map<String, Object> props = PlatformSettings.kafkaProps(bootstrap, Map.of());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // as EventPreload: not idempotent (on a fresh topic an idempotent producer was seen retrying
        // OUT_OF_ORDER_SEQUENCE_NUMBER without end here); one request in flight, so a retry repeats nothing out of order
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        KafkaProducer<StreamId, FallbackRecord> producer = new KafkaProducer<>(props, topic.keySerde().serializer(),
                topic.valueSerde().serializer());
        thread = new Thread(() -> produce(producer), "push-bench-load");
        thread.setDaemon(true);
        thread.start();
    }

    private void produce(KafkaProducer<StreamId, FallbackRecord> producer) {
        try {
            long t0 = System.nanoTime();
            startedAt = System.currentTimeMillis();
            long total = dueAt.length - 1;
            long i = 0;
            while (i < total && failure.get() == null) {
                long due = Math.min(total, (long) ((System.nanoTime() - t0) * rate / 1e9) + 1);
                for (; i < due; i++) {
                    long now = System.currentTimeMillis();
                    dueAt[(int) i] = now;
                    FallbackRecord r = record(idPrefix, i, users, now);
                    producer.send(new ProducerRecord<>(topic.name(), StreamId.parse(r.stream()), r), (md, e) -> {
                        if (e == null) {
                            acked.incrementAndGet();
                        } else {
                            failure.compareAndSet(null, e);
                        }
                    });
                    sent = i + 1;
                }
                LockSupport.parkNanos(1_000_000); // the pacing tick: 1 ms
            }
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        } finally {
            stoppedAt = System.currentTimeMillis();
            producer.close(Duration.ofSeconds(30));
        }
    }

    /** Waits for the load's end and every record's acknowledgement; fails if one was refused or the bound passed. */
    void awaitDone(Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        thread.join(Math.max(1, bound.toMillis()));
        while (acked.get() < sent && failure.get() == null && System.nanoTime() - deadline < 0) {
            TimeUnit.MILLISECONDS.sleep(20); // poll interval of a bounded wait for acknowledgements
        }
        if (failure.get() != null) {
            throw new IOException("producing to " + topic.name() + " failed", failure.get());
        }
        if (thread.isAlive() || acked.get() < sent) {
            throw new IOException("only " + acked.get() + " of " + sent + " records to " + topic.name() + " acknowledged within " + bound);
        }
    }

    /** Records made so far. */
    long sent() {
        return sent;
    }

    long acked() {
        return acked.get();
    }

    /** When the load started and stopped (epoch ms; 0 before). */
    long startedAt() {
        return startedAt;
    }

    long stoppedAt() {
        return stoppedAt;
    }

    /** Every record's due time (epoch ms), by index, for the {@link #sent} made; read after {@link #awaitDone}. */
    long[] dueAt() {
        return java.util.Arrays.copyOf(dueAt, (int) sent);
    }

    String idPrefix() {
        return idPrefix;
    }
}
