package io.notify.protocol.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Delivery class of an event. Durable events are sequenced per stream, kept in the inbox and
 * replayed on resume; ephemeral events are routed live only, at most once, never replayed.
 */
public enum EventClass {
    DURABLE("durable"),
    EPHEMERAL("ephemeral");

    private final String wireName;

    EventClass(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static EventClass fromWire(String value) {
        for (EventClass c : values()) {
            if (c.wireName.equals(value)) {
                return c;
            }
        }
        throw new IllegalArgumentException("class must be 'durable' or 'ephemeral', got '" + value + "'");
    }
}
