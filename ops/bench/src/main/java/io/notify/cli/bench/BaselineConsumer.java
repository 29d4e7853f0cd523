package io.notify.cli.bench;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The consumer half of {@link BaselineRun}: a thread with a plain KafkaConsumer assigned every
 * partition of the run's topic from offset 0 (no group, no rebalance), reading while the producer
 * writes, recording produce→consume latency from the send time in each record's header.
 */
final class BaselineConsumer {

    /** What the consumer saw: records read, the time it read the last one, the latency summary. */
    record Outcome(long count, long lastNanos, LatencySummary latency) {
    }

    private final AtomicLong count = new AtomicLong();
    private final AtomicLong target = new AtomicLong(Long.MAX_VALUE);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch ready = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private final Histogram latency = LatencySummary.newHistogram();
    private volatile long clock;
    private volatile long lastNanos;
    private volatile boolean stop;
    private Thread thread;

    long count() {
        return count.get();
    }

    /** Starts reading {@code topic} and returns once the consumer holds its positions. */
    void start(String bootstrap, String topic, long records, long deadline) throws Exception {
        target.set(records);
        thread = new Thread(() -> consume(bootstrap, topic, deadline), "baseline-consumer");
        thread.setDaemon(true);
        thread.start();
        long wait = deadline - System.nanoTime();
        if (!ready.await(Math.max(0, wait), TimeUnit.NANOSECONDS)) {
            stop = true;
            throw new TimeoutException("baseline: the consumer did not get its partitions before the deadline");
        }
        rethrow();
    }

    /** The producer's start: the consumer's rate window opens here. */
    void startClock(long nanos) {
        clock = nanos;
        lastNanos = nanos;
    }

    /** The producer is done: stop after {@code records} (what was acknowledged). */
    void stopAt(long records) {
        target.set(records);
    }

    /** Waits for the consumer to reach its target or the deadline, whichever first, then stops it. */
    Outcome await(long deadline) throws Exception {
        boolean finished = done.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        stop = true;
        if (!finished) {
            thread.join(10_000);
        }
        rethrow();
        synchronized (latency) {
            return new Outcome(count.get(), lastNanos, LatencySummary.of(latency));
        }
    }

    private void consume(String bootstrap, String topic, long deadline) {
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            partitions.forEach(p -> consumer.position(p, Duration.ofSeconds(30)));
            ready.countDown();
            while (!stop && count.get() < target.get() && System.nanoTime() - deadline < 0) {
                var records = consumer.poll(Duration.ofMillis(100));
                long now = System.nanoTime();
                synchronized (latency) {
                    for (ConsumerRecord<byte[], byte[]> r : records) {
                        Header sent = r.headers().lastHeader(BaselineRun.SENT_HEADER);
                        if (sent != null) {
                            latency.recordValue(LatencySummary.clampMicros((now - ByteBuffer.wrap(sent.value()).getLong()) / 1000));
                        }
                    }
                }
                if (!records.isEmpty()) {
                    count.addAndGet(records.count());
                    lastNanos = Math.max(now, clock);
                }
            }
        } catch (RuntimeException e) {
            failure.set(e);
        } finally {
            ready.countDown();
            done.countDown();
        }
    }

    private void rethrow() throws Exception {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("baseline consumer failed: " + t, t);
        }
    }
}
