package io.notify.protocol.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** A way an event reaches a user, as a user's preferences name it ({@code io.notify.protocol.prefs.Channels}). */
public enum Channel {
    LIVE("live"), INBOX("inbox"), PUSH("push");

    private final String wireName;

    Channel(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static Channel fromWire(String value) {
        for (Channel c : values()) {
            if (c.wireName.equals(value)) {
                return c;
            }
        }
        throw new IllegalArgumentException("channel must be live, inbox or push, got '" + value + "'");
    }
}
