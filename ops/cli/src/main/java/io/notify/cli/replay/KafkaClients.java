package io.notify.cli.replay;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;

/**
 * The Kafka clients of replay and tail, configured in one place. The consumer has no group id
 * (assign + seek only, nothing committed, no group a production consumer could rebalance with),
 * reads committed records only, and never creates topics. The producer is idempotent with
 * {@code acks=all}.
 */
final class KafkaClients {

    /** Settings the safety of a replay rests on: {@code --kafka-property} may not change them. */
    static final Set<String> FIXED = Set.of(ConsumerConfig.GROUP_ID_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ProducerConfig.ACKS_CONFIG, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG);

    private KafkaClients() {
    }

    static void checkExtra(Map<String, String> extra) {
        for (String k : extra.keySet()) {
            if (FIXED.contains(k)) {
                throw new UsageException("--kafka-property " + k + " cannot be changed: replay, tail and why rely on its value");
            }
        }
    }

    static Map<String, Object> consumerProps(String bootstrap, Map<String, String> extra) {
        Map<String, Object> p = new HashMap<>(extra);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        p.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "notifyctl-replay");
        p.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        p.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 * 1024 * 1024);
        return p;
    }

    static Consumer<byte[], byte[]> consumer(String bootstrap, Map<String, String> extra) {
        return new KafkaConsumer<>(consumerProps(bootstrap, extra), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    static Producer<byte[], byte[]> producer(String bootstrap, Map<String, String> extra) {
        Map<String, Object> p = new HashMap<>(extra); // security settings apply to both clients; the rest is ignored
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "notifyctl-republish");
        p.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * The partition Kafka's default partitioner gives {@code key} among {@code partitions}: murmur2,
     * positive, modulo the count. Kafka Streams writes keyed records so, which is where fan-out puts a
     * stream's records on the topics keyed by stream.
     */
    static int partitionOf(byte[] key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }

    /**
     * The partitions of {@code topic}, sorted; a {@link UsageException} when the topic does not
     * exist, so a misspelt name is bad input (exit 2) and nothing is read.
     */
    static List<TopicPartition> partitions(Consumer<?, ?> consumer, String topic, Duration timeout) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new UsageException("topic '" + topic + "' does not exist on this cluster"
                    + " (check --topic-prefix and --bootstrap-servers)");
        }
        return infos.stream().map(i -> new TopicPartition(i.topic(), i.partition()))
                .sorted((a, b) -> Integer.compare(a.partition(), b.partition())).toList();
    }
}
