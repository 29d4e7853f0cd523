package io.notify.protocol.inbox;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.protocol.text.WireNames;

/**
 * What a record of {@code notify.receipts} says about a user's events: a device received them
 * ({@code ack}, from the client's {@code ack} frame), or the user saw, read or archived them (the
 * gateway's {@code POST /v1/inbox/seen|read|archive}).
 */
public enum ReceiptKind {
    /** A device processed every durable event up to {@code upTo}: delivery, not reading. */
    ACK("ack"),
    SEEN("seen"),
    READ("read"),
    ARCHIVE("archive");

    private final String wireName;

    ReceiptKind(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** A change of read state (everything but {@code ack}). */
    public boolean isMark() {
        return this != ACK;
    }

    @JsonCreator
    public static ReceiptKind fromWire(String value) {
        return WireNames.parse(values(), ReceiptKind::wireName, value, "kind");
    }
}
