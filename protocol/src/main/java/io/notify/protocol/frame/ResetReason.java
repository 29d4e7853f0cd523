package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.protocol.text.WireNames;

/** Why the server cannot continue a stream from the client's position. */
public enum ResetReason {
    /** The stream's history was reset (new epoch), or the position is ahead of the head: it came from another history. */
    EPOCH_MISMATCH("epoch_mismatch"),
    /** The inbox no longer holds the events right after the position (trimmed by count or age). */
    POSITION_TOO_OLD("position_too_old"),
    /** The server holds no history for the stream at all. */
    UNKNOWN_STREAM("unknown_stream");

    private final String wireName;

    ResetReason(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static ResetReason fromWire(String value) {
        return WireNames.parse(values(), ResetReason::wireName, value, "reason");
    }
}
