package io.notify.cli.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes the backlog a run measures, before the measured consumer starts: {@code count} events,
 * each to {@code events.recipients()} distinct users drawn at random (seeded, so every run and the
 * baseline get the same sequence), or as a caller chooses them ({@link #cycled}), keyed by the first
 * recipient ({@code u:<user>}) as ingest does. Fails unless every record is acknowledged within the bound.
 */
final class EventPreload {

    private EventPreload() {
    }

    /** {@code n} distinct users of {@code users}, at random. */
    static List<String> recipients(SplittableRandom random, int users, int n) {
        if (n > users) {
            throw new IllegalArgumentException(n + " recipients per event need at least as many users, got " + users);
        }
        Set<Integer> picked = new LinkedHashSet<>();
        while (picked.size() < n) {
            picked.add(random.nextInt(users));
        }
        return picked.stream().map(FanoutEvents::user).toList();
    }

    /** Event {@code i}'s one recipient is user {@code i mod users}: distinct users while {@code i < users}, then again. */
    static LongFunction<List<String>> cycled(int users) {
        return i -> List.of(FanoutEvents.user((int) (i % users)));
    }

    static void produce(String bootstrap, String topic, FanoutEvents events, long count, int users, long seed,
                        Duration bound) throws IOException, InterruptedException {
        SplittableRandom random = new SplittableRandom(seed);
        produce(bootstrap, topic, events, count, i -> recipients(random, users, events.recipients()), seed, bound);
    }

    /** {@code count} events, event {@code i} (id {@code bf-<seed>-<i>}) to {@code recipientsOf(i)}, in order. */
    static void produce(String bootstrap, String topic, FanoutEvents events, long count, LongFunction<List<String>> recipientsOf,
                        long seed, Duration bound) throws IOException, InterruptedException {
        AtomicLong acked = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long deadline = System.nanoTime() + bound.toNanos();
        // Not idempotent: preloading needs no dedup, and an idempotent producer that met NOT_LEADER on a
        // fresh topic was seen retrying OUT_OF_ORDER_SEQUENCE_NUMBER without end on this broker (bench
        // fanout run 2 of 3 failed so); one request in flight keeps the order without sequence numbers.
        Map<String, Object> props = new HashMap<>(RawProducerLoad.producerProps(bootstrap));
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        var producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        try {
            for (long i = 0; i < count && failure.get() == null && System.nanoTime() < deadline; i++) {
                String id = "bf-" + seed + "-" + i;
                List<String> to = recipientsOf.apply(i);
                byte[] value = events.value(id, to);
                producer.send(new ProducerRecord<>(topic, "u:" + to.get(0), value), (md, e) -> {
                    if (e == null) {
                        acked.incrementAndGet();
                    } else {
                        failure.compareAndSet(null, e);
                    }
                });
            }
            // Not flush(): it has no bound, and a producer stuck in retries would hang the benchmark.
            while (acked.get() < count && failure.get() == null && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(20); // poll interval of a bounded wait for acknowledgements
            }
        } finally {
            producer.close(Duration.ofSeconds(5));
        }
        if (failure.get() != null) {
            throw new IOException("pre-producing to " + topic + " failed", failure.get());
        }
        if (acked.get() < count) {
            throw new IOException("pre-produced only " + acked.get() + " of " + count + " events to " + topic
                    + " within " + bound.toSeconds() + " s");
        }
    }
}
