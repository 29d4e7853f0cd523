package io.notify.cli.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The denominator of {@code bench fanout}, run as its own JVM: a plain KafkaConsumer reads a
 * pre-produced backlog and a KafkaProducer ({@code acks=all}, idempotent, the same batching as
 * the ingest baseline) writes one record per input with the same key and value — consume→produce
 * with no state, no transactions and no offset commits, i.e. the least work a router could do.
 * Timed from the first non-empty poll to the last acknowledgement; latency is send→ack.
 *
 * <pre>relay &lt;bootstrap&gt; &lt;inTopic&gt; &lt;outTopic&gt; &lt;records&gt; &lt;boundMs&gt;</pre>
 */
public final class RelayLoad {

    private RelayLoad() {
    }

    public static void main(String[] args) throws InterruptedException {
        ChildLoad.emit(run(args[0], args[1], args[2], Long.parseLong(args[3]), Duration.ofMillis(Long.parseLong(args[4]))));
    }

    static LoadResult run(String bootstrap, String in, String out, long records, Duration bound) throws InterruptedException {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-relay-" + Long.toString(System.nanoTime(), 36));
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000); // Kafka Streams' default, as the app under test uses
        Histogram micros = LatencySummary.newHistogram();
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long deadline = System.nanoTime() + bound.toNanos();
        long start = 0;
        long consumed = 0;
        try (var consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
             var producer = new KafkaProducer<>(RawProducerLoad.producerProps(bootstrap), new ByteArraySerializer(),
                     new ByteArraySerializer())) {
            consumer.subscribe(List.of(in));
            while (consumed < records && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(200));
                if (batch.isEmpty()) {
                    continue;
                }
                if (start == 0) {
                    start = System.nanoTime();
                }
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    long sent = System.nanoTime();
                    producer.send(new ProducerRecord<>(out, r.key(), r.value()), (md, e) -> {
                        if (e != null) {
                            failed.incrementAndGet();
                            return;
                        }
                        acked.incrementAndGet();
                        synchronized (micros) {
                            micros.recordValue(Math.max(1, (System.nanoTime() - sent) / 1000));
                        }
                    });
                    consumed++;
                }
            }
            producer.flush();
            double seconds = start == 0 ? 0 : (System.nanoTime() - start) / 1e9;
            if (consumed < records) {
                System.err.printf("relay: only %d of %d records consumed within %s%n", consumed, records, bound);
            }
            return new LoadResult("baseline-relay", acked.get(), failed.get() + (records - consumed), seconds,
                    LatencySummary.of(micros));
        }
    }
}
