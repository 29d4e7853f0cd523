package io.notify.cli.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The denominator of the Notify benchmarks, as a library call: a raw idempotent {@code acks=all}
 * KafkaProducer writes N records of a Notify event's size (the bytes of {@link BenchEvents}, with
 * ingest's producer settings) to a fresh topic while a KafkaConsumer in the same process reads
 * them. Measures producer and consumer throughput and produce→consume latency (the send time in
 * nanoseconds travels in a record header; both ends share the JVM clock). Bounded by a deadline;
 * the topic is deleted afterwards. Other benches call {@link #measure} for a same-run baseline.
 */
public final class BaselineRun {

    static final String SENT_HEADER = "bench-sent-ns";
    private static final int MAX_IN_FLIGHT = 10_000;

    /** What to run: records and their size, topic partitions, producer compression, the bound, the topic prefix. */
    public record Options(long records, int recordBytes, int partitions, String compression, Duration deadline,
                          String topicPrefix) {

        public Options {
            if (records < 1 || recordBytes < 64 || partitions < 1) {
                throw new IllegalArgumentException("records >= 1, recordBytes >= 64, partitions >= 1");
            }
        }

        /** Six partitions (as the ingest bench), lz4 (as ingest's producer), five minutes at most. */
        public static Options of(long records, int recordBytes) {
            return new Options(records, recordBytes, 6, "lz4", Duration.ofMinutes(5), "bench-baseline-");
        }
    }

    /**
     * One run. Rates are per second of each side's own window: the producer's from its first send
     * to its last acknowledgement, the consumer's from the producer's first send to the last record read.
     */
    public record Result(long records, int recordBytes, long produced, long failed, long consumed, double produceSeconds,
                         double consumeSeconds, double producerRecordsPerSecond, double producerMegabytesPerSecond,
                         double consumerRecordsPerSecond, double consumerMegabytesPerSecond, LatencySummary endToEndMs,
                         LatencySummary ackMs) {
    }

    private final String bootstrap;
    private final Options options;
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final BaselineConsumer consumer = new BaselineConsumer();

    public BaselineRun(String bootstrap, Options options) {
        this.bootstrap = bootstrap;
        this.options = options;
    }

    /** One run with the default options: the same-run denominator for another bench. */
    public static Result measure(String bootstrap, long records, int recordBytes) throws Exception {
        return new BaselineRun(bootstrap, Options.of(records, recordBytes)).run();
    }

    /** Records acknowledged so far (for progress). */
    public long produced() {
        return acked.get();
    }

    /** Records read so far (for progress). */
    public long consumed() {
        return consumer.count();
    }

    /** Produces and consumes {@code records}; throws {@link TimeoutException} when the deadline passes first. */
    public Result run() throws Exception {
        long deadline = System.nanoTime() + options.deadline().toNanos();
        String topic = options.topicPrefix() + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            BenchTopics.create(admin, List.of(new NewTopic(topic, options.partitions(), (short) 1)));
            try {
                return produceAndConsume(topic, deadline);
            } finally {
                admin.deleteTopics(List.of(topic));
            }
        }
    }

    private Result produceAndConsume(String topic, long deadline) throws Exception {
        BenchEvents events = new BenchEvents(options.recordBytes());
        int valueBytes = events.value(id(0)).length;
        Histogram ack = LatencySummary.newHistogram();
        Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
        Map<String, Object> props = RawProducerLoad.producerProps(bootstrap);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, options.compression());
        consumer.start(bootstrap, topic, options.records(), deadline);
        long start;
        long lastAck;
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            start = System.nanoTime();
            consumer.startClock(start);
            AtomicLong last = new AtomicLong(start);
            for (long n = 0; n < options.records(); n++) {
                while (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    checkDeadline(deadline, "producing");
                }
                String id = id(n);
                long sent = System.nanoTime();
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, id.getBytes(StandardCharsets.US_ASCII), events.value(id));
                record.headers().add(SENT_HEADER, ByteBuffer.allocate(8).putLong(sent).array());
                producer.send(record, (md, e) -> {
                    long now = System.nanoTime();
                    if (e == null) {
                        acked.incrementAndGet();
                        last.accumulateAndGet(now, Math::max);
                        synchronized (ack) {
                            ack.recordValue(LatencySummary.clampMicros((now - sent) / 1000));
                        }
                    } else {
                        failed.incrementAndGet();
                    }
                    inFlight.release();
                });
            }
            producer.flush();
            while (!inFlight.tryAcquire(MAX_IN_FLIGHT, 100, TimeUnit.MILLISECONDS)) {
                checkDeadline(deadline, "waiting for acknowledgements");
            }
            lastAck = last.get();
        } finally {
            consumer.stopAt(acked.get());
        }
        BaselineConsumer.Outcome read = consumer.await(deadline);
        if (read.count() < acked.get()) {
            throw new TimeoutException(String.format("baseline: the consumer read %,d of %,d acknowledged records before "
                    + "the deadline (%s)", read.count(), acked.get(), options.deadline()));
        }
        double produceSeconds = (lastAck - start) / 1e9;
        double consumeSeconds = (read.lastNanos() - start) / 1e9;
        long n = acked.get();
        return new Result(options.records(), valueBytes, n, failed.get(), read.count(), produceSeconds, consumeSeconds,
                rate(n, produceSeconds), rate(n, produceSeconds) * valueBytes / 1e6,
                rate(read.count(), consumeSeconds), rate(read.count(), consumeSeconds) * valueBytes / 1e6,
                read.latency(), LatencySummary.of(ack));
    }

    /** Ids of 24 characters, the length {@link BenchEvents} sizes its padding for, so values are exactly the asked size. */
    static String id(long n) {
        return String.format("baseline-%015d", n);
    }

    static double rate(long count, double seconds) {
        return seconds <= 0 ? 0 : count / seconds;
    }

    private void checkDeadline(long deadline, String what) throws TimeoutException {
        if (System.nanoTime() - deadline > 0) {
            throw new TimeoutException(String.format("baseline: still %s after %s (%,d of %,d acknowledged); is the broker up?",
                    what, options.deadline(), acked.get(), options.records()));
        }
    }
}
