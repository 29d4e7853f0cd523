package io.notify.protocol.stream;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Why fan-out could not hand an event to a live connection. */
public enum UndeliveredReason {
    /** The registry knows no live connection of the user. */
    NO_LIVE_CONNECTION("no_live_connection"),
    /** The registry could not be asked in time; the user may be online (durable events wait in the inbox). */
    REGISTRY_UNAVAILABLE("registry_unavailable");

    private final String wireName;

    UndeliveredReason(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static UndeliveredReason fromWire(String value) {
        for (UndeliveredReason r : values()) {
            if (r.wireName.equals(value)) {
                return r;
            }
        }
        throw new IllegalArgumentException("reason must be 'no_live_connection' or 'registry_unavailable', got '"
                + Texts.clip(value) + "'");
    }
}
