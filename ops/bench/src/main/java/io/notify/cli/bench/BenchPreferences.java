package io.notify.cli.bench;

import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import java.util.Properties;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The bench users' preferences, written to {@code notify.preferences} keyed by each user's stream as
 * the gateway writes them (bench pipeline --preferences; bench fallback's quiet hours).
 */
public final class BenchPreferences {

    private BenchPreferences() {
    }

    /** The same {@code prefs} for users {@code 0..users-1}, named by {@code userName}; returns once every record is acknowledged. */
    public static void write(String bootstrapServers, TopicCatalog topics, int users, IntFunction<String> userName, Preferences prefs) {
        Topic<StreamId, UserPreferences> topic = topics.preferences();
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<StreamId, UserPreferences> producer = new KafkaProducer<>(p, topic.keySerde().serializer(),
                topic.valueSerde().serializer())) {
            long now = System.currentTimeMillis();
            for (int i = 0; i < users; i++) {
                StreamId user = StreamId.forUser(userName.apply(i));
                producer.send(new ProducerRecord<>(topic.name(), user, new UserPreferences(user, prefs, now)));
            }
            producer.flush();
        }
    }
}
