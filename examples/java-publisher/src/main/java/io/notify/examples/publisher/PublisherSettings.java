package io.notify.examples.publisher;

import java.util.Map;

/**
 * What the publisher example needs, from the environment and the command line, with the defaults
 * of {@code ops/notifyctl dev}: its Kafka on localhost:9092 and topics without a prefix.
 *
 * @param bootstrapServers {@code NOTIFY_BOOTSTRAP_SERVERS}, default {@code localhost:9092}
 * @param topicPrefix      {@code NOTIFY_TOPIC_PREFIX}, default none (a test stack prefixes its topics)
 * @param user             first argument, default {@code 42} (the user of notifyctl dev's token)
 * @param text             second argument, default {@code hello from Java}
 */
public record PublisherSettings(String bootstrapServers, String topicPrefix, String user, String text) {

    public static final String DEFAULT_BOOTSTRAP_SERVERS = "localhost:9092";
    public static final String DEFAULT_USER = "42";

    public PublisherSettings {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("NOTIFY_BOOTSTRAP_SERVERS must name at least one broker, e.g. localhost:9092");
        }
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("the user (first argument) must not be blank");
        }
        topicPrefix = topicPrefix == null ? "" : topicPrefix;
        text = text == null ? "" : text;
    }

    /** Reads {@code env} (System.getenv() in main) and {@code args}: {@code [user] [text]}. */
    public static PublisherSettings from(Map<String, String> env, String... args) {
        if (args.length > 2) {
            throw new IllegalArgumentException("usage: PublisherExample [user] [text]; got " + args.length + " arguments");
        }
        return new PublisherSettings(env.getOrDefault("NOTIFY_BOOTSTRAP_SERVERS", DEFAULT_BOOTSTRAP_SERVERS),
                env.getOrDefault("NOTIFY_TOPIC_PREFIX", ""),
                args.length > 0 ? args[0] : DEFAULT_USER,
                args.length > 1 ? args[1] : "hello from Java");
    }
}
