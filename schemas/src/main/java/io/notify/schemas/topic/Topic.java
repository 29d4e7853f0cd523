package io.notify.schemas.topic;

import io.notify.protocol.text.IdChars;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serde;

/**
 * One Kafka topic as a typed value: its name, the serdes of its key and value, and a one-line
 * description of each format for humans (docs, {@code notifyctl}). Guarantees: the name is a legal
 * Kafka topic name; serdes and formats are present.
 */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde, String keyFormat, String valueFormat) {

    /** Kafka's legal topic characters and length. */
    public static final Pattern LEGAL_NAME = Pattern.compile("^[A-Za-z0-9._-]{1,249}$");

    public Topic {
        if (!IdChars.matches(name, 1, 249, "._-", false) || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("topic name must be 1..249 chars of [A-Za-z0-9._-] and not '.' or '..', got '"
                    + name + "'");
        }
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
        Objects.requireNonNull(keyFormat, "keyFormat");
        Objects.requireNonNull(valueFormat, "valueFormat");
    }

    @Override
    public String toString() {
        return name;
    }
}
