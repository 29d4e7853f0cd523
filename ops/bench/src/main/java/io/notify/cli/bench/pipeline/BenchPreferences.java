package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.gateway.ClientFleet;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The bench users' preferences (bench pipeline --preferences): push off for one event type, for every user. */
final class BenchPreferences {

    private BenchPreferences() {
    }

    static void write(String bootstrapServers, TopicCatalog topics, int users, String mutedType) {
        Topic<StreamId, UserPreferences> topic = topics.preferences();
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        Preferences prefs = new Preferences(Map.of(mutedType, new Channels(null, null, false)), Map.of(), null);
        try (KafkaProducer<StreamId, UserPreferences> producer = new KafkaProducer<>(p, topic.keySerde().serializer(),
                topic.valueSerde().serializer())) {
            long now = System.currentTimeMillis();
            for (int i = 0; i < users; i++) {
                StreamId user = StreamId.forUser(ClientFleet.user(i));
                producer.send(new ProducerRecord<>(topic.name(), user, new UserPreferences(user, prefs, now)));
            }
            producer.flush();
        }
    }
}
