package io.notify.cli.bench.gateway;

import io.notify.cli.bench.LatencySummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes benchmark events straight into {@code notify.events} with a raw idempotent
 * {@code acks=all} producer keyed by the recipient ({@code u:<user>}), as ingest and NotifyPublisher
 * do: one durable event per record for one user, with {@code data.sentAtMs} set to the send time so receivers can measure
 * end-to-end latency. No {@code occurredAt}: the query API cannot serialize it yet (its
 * HttpResponses mapper lacks java.time support), which would break every resume. Every wait is bounded.
 */
final class EventPublisher implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final String topic;
    private final AtomicLong acked = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Histogram ackMicros = LatencySummary.newHistogram(); // written by the producer's I/O thread only
    private long sent;

    EventPublisher(String bootstrap, String topic) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.topic = topic;
    }

    /** A valid v1 envelope: one durable event for {@code user}. */
    static byte[] event(String id, String user, long n, long sentAtMs) {
        return ("{\"id\":\"" + id + "\",\"type\":\"bench.gateway\",\"to\":{\"users\":[\"" + user
                + "\"]},\"class\":\"durable\",\"data\":{\"n\":" + n + ",\"sentAtMs\":" + sentAtMs + "}}")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** Sends {@code perUser} events to each of users 0..users-1 (round-robin) and waits for every acknowledgement. */
    void publishEach(int users, int perUser, String idPrefix, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        for (int k = 0; k < perUser; k++) {
            for (int u = 0; u < users; u++) {
                send(idPrefix + "-" + u + "-" + k, BenchUsers.user(u), k);
                if (failure.get() != null || System.nanoTime() - deadline > 0) {
                    break;
                }
            }
        }
        awaitAcks(deadline, bound);
    }

    /**
     * Sends events at {@code ratePerSecond} for {@code duration}, to users chosen by {@code userOf(i)},
     * in 10 ms ticks; returns how many were acknowledged.
     */
    long publishPaced(double ratePerSecond, Duration duration, IntFunction<String> userOf, String idPrefix)
            throws IOException, InterruptedException {
        return pace(ratePerSecond, duration, n -> send(idPrefix + "-" + n, userOf.apply((int) n), n));
    }

    /** Calls {@code sendOne} with 0, 1, 2, ... at {@code ratePerSecond} for {@code duration}, in 10 ms ticks; waits for the acks. */
    private long pace(double ratePerSecond, Duration duration, java.util.function.LongConsumer sendOne)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        long before = sent;
        long n = 0;
        while (System.nanoTime() - end < 0 && failure.get() == null) {
            long due = (long) ((System.nanoTime() - start) / 1e9 * ratePerSecond);
            for (; n < due; n++) {
                sendOne.accept(n);
            }
            TimeUnit.MILLISECONDS.sleep(10); // pacing tick of an open-loop publisher
        }
        awaitAcks(System.nanoTime() + Duration.ofSeconds(60).toNanos(), Duration.ofSeconds(60));
        return sent - before;
    }

    /**
     * Sends events to one room or b:all ({@code stream}, e.g. {@code r:bench} or {@code b:all}) at
     * {@code ratePerSecond} for {@code duration}; returns how many were acknowledged.
     */
    long publishPacedTo(double ratePerSecond, Duration duration, io.notify.protocol.stream.StreamId stream, String idPrefix)
            throws IOException, InterruptedException {
        String to = stream.isBroadcast() ? "{\"broadcast\":true}" : "{\"rooms\":[\"" + stream.room() + "\"]}";
        return pace(ratePerSecond, duration, n -> send(stream.value(), ("{\"id\":\"" + idPrefix + "-" + n
                + "\",\"type\":\"bench.room\",\"to\":" + to + ",\"class\":\"durable\",\"data\":{\"n\":" + n
                + ",\"sentAtMs\":" + System.currentTimeMillis() + "}}").getBytes(StandardCharsets.US_ASCII)));
    }

    private void send(String id, String user, long n) {
        send("u:" + user, event(id, user, n, System.currentTimeMillis()));
    }

    private void send(String key, byte[] value) {
        sent++;
        long sentNanos = System.nanoTime();
        producer.send(new ProducerRecord<>(topic, key, value), (md, e) -> {
            if (e == null) {
                ackMicros.recordValue(LatencySummary.clampMicros((System.nanoTime() - sentNanos) / 1000));
                acked.incrementAndGet();
            } else {
                failure.compareAndSet(null, e);
            }
        });
    }

    /**
     * Send-to-acknowledgement latency of everything acknowledged so far: how long an event took to
     * be appended by the broker (replicated, acks=all), batching included. Read it once the sends
     * are acknowledged (after a publish call returns).
     */
    LatencySummary ackLatency() {
        return LatencySummary.of(ackMicros);
    }

    private void awaitAcks(long deadline, Duration bound) throws IOException, InterruptedException {
        // Not flush(): it has no bound, and a producer stuck in retries would hang the benchmark.
        while (acked.get() < sent && failure.get() == null && System.nanoTime() - deadline < 0) {
            TimeUnit.MILLISECONDS.sleep(20); // poll interval of a bounded wait for acknowledgements
        }
        if (failure.get() != null) {
            throw new IOException("publishing to " + topic + " failed", failure.get());
        }
        if (acked.get() < sent) {
            throw new IOException("only " + acked.get() + " of " + sent + " events acknowledged within " + bound);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
