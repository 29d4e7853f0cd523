package io.notify.devstack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Small producer/consumer helpers for the ITs of this module; every wait is bounded. */
final class KafkaTestClients {

    static final Duration TIMEOUT = Duration.ofSeconds(20);

    private KafkaTestClients() {
    }

    static KafkaProducer<String, String> producer(String bootstrap, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.putAll(extra);
        return new KafkaProducer<>(config);
    }

    static void send(String bootstrap, String topic, String key, String value) throws Exception {
        try (KafkaProducer<String, String> producer = producer(bootstrap, Map.of())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    static KafkaConsumer<String, String> consumer(String bootstrap, String group, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.putAll(extra);
        return new KafkaConsumer<>(config);
    }

    /** Polls until {@code count} records arrived or {@link #TIMEOUT} passed; returns what arrived. */
    static List<ConsumerRecord<String, String>> consume(String bootstrap, String topic, int count, Map<String, Object> extra) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, "g-" + topic + "-" + System.nanoTime(), extra)) {
            consumer.subscribe(List.of(topic));
            Deadline deadline = Deadline.in(TIMEOUT);
            while (records.size() < count && !deadline.expired()) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }
}
