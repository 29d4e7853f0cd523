package io.notify.cli.replay;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options of every command that reads Notify's topics (replay, tail, why): where the cluster is,
 * the topic prefix, how long to wait, and extra client settings. Taken as text and checked by
 * {@link #connection}, so bad input is one line and exit 2, found before any connection is made.
 */
public class ConnectionOptions {

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT",
            defaultValue = "${env:NOTIFY_KAFKA_BOOTSTRAP_SERVERS:-127.0.0.1:9092}",
            description = "Kafka bootstrap servers (default: ${DEFAULT-VALUE}, or $NOTIFY_KAFKA_BOOTSTRAP_SERVERS).")
    String bootstrap;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = "${env:NOTIFY_TOPIC_PREFIX:-}",
            description = "Prefix of every Notify topic name (default: empty, or $NOTIFY_TOPIC_PREFIX).")
    String topicPrefix;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30s",
            description = "Longest wait for Kafka metadata and offsets (default: ${DEFAULT-VALUE}).")
    String timeout;

    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE",
            description = "Extra Kafka client setting, e.g. security.protocol=SSL (repeatable).")
    Map<String, String> kafkaProperties = new LinkedHashMap<>();

    /** The checked connection settings. */
    public record Connection(TopicCatalog catalog, String bootstrap, Map<String, String> kafkaProperties, Duration timeout) {
    }

    /** The settings, checked; a {@link UsageException} naming the bad option otherwise. */
    public Connection connection() {
        TopicCatalog catalog;
        try {
            catalog = TopicCatalog.of(topicPrefix == null ? "" : topicPrefix);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--topic-prefix: " + e.getMessage());
        }
        Duration wait;
        try {
            wait = Settings.parseDurationArg("--timeout", timeout);
        } catch (ConfigException e) {
            throw new UsageException(e.getMessage());
        }
        if (wait.isZero()) {
            throw new UsageException("--timeout must be above zero");
        }
        if (bootstrap == null || bootstrap.isBlank()) {
            throw new UsageException("--bootstrap-servers is empty");
        }
        KafkaClients.checkExtra(kafkaProperties);
        return new Connection(catalog, bootstrap, Map.copyOf(kafkaProperties), wait);
    }
}
