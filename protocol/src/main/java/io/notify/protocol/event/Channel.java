package io.notify.protocol.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.protocol.text.WireNames;

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
        return WireNames.parse(values(), Channel::wireName, value, "channel");
    }
}
