package io.notify.cli.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The denominator of every Notify benchmark: a plain idempotent {@code acks=all} KafkaProducer
 * writing records of the same size, with the same batching settings as ingest, as fast as the
 * broker acknowledges them (bounded in flight so the run measures throughput, not buffering).
 */
final class RawProducerLoad {

    private RawProducerLoad() {
    }

    static Map<String, Object> producerProps(String bootstrap) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 2);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        return p;
    }

    static LoadResult run(String name, String bootstrap, String topic, BenchEvents events, Duration duration,
                          int maxInFlight) throws InterruptedException {
        Histogram micros = LatencySummary.newHistogram();
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        Semaphore inFlight = new Semaphore(maxInFlight);
        try (var producer = new KafkaProducer<>(producerProps(bootstrap), new StringSerializer(), new ByteArraySerializer())) {
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            long n = 0;
            while (System.nanoTime() < end) {
                if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                long sent = System.nanoTime();
                String id = "raw-" + n++;
                producer.send(new ProducerRecord<>(topic, id, events.value(id)), (md, e) -> {
                    inFlight.release();
                    if (e == null) {
                        acked.incrementAndGet();
                        synchronized (micros) {
                            micros.recordValue(Math.max(1, (System.nanoTime() - sent) / 1000));
                        }
                    } else {
                        failed.incrementAndGet();
                    }
                });
            }
            producer.flush();
            inFlight.acquire(maxInFlight);
            double seconds = (System.nanoTime() - start) / 1e9;
            return new LoadResult(name, acked.get(), failed.get(), seconds, LatencySummary.of(micros));
        }
    }
}
