package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.protocol.text.WireNames;

/**
 * Server to client: the subscription asked for is not made; the connection stays open and every
 * other subscription is untouched. {@code stream} echoes the request's text (clipped to
 * {@link SubscribeFrame#MAX_STREAM_CHARS}); {@code detail} says more for people, not programs.
 */
@JsonPropertyOrder({"stream", "reason", "detail"})
public record SubscribeRefusedFrame(String stream, Reason reason, String detail) implements ServerFrame {

    /** Why a subscription is refused. */
    public enum Reason {
        /** The token does not allow this room (its {@code rooms} claim, or the namespace's policy). */
        FORBIDDEN("forbidden"),
        /** The connection holds as many subscriptions as the node allows. */
        LIMIT("limit"),
        /** Not a room stream ({@code r:<room>}) or {@code b:all}. */
        BAD_NAME("bad_name");

        private final String wireName;

        Reason(String wireName) {
            this.wireName = wireName;
        }

        @JsonValue
        public String wireName() {
            return wireName;
        }

        @JsonCreator
        public static Reason fromWire(String value) {
            return WireNames.parse(values(), Reason::wireName, value, "reason");
        }
    }

    public SubscribeRefusedFrame {
        SubscribeFrame.requireStreamText(stream);
        if (reason == null) {
            throw new IllegalArgumentException("reason is required");
        }
        if (detail == null || detail.isEmpty() || detail.length() > 512) {
            throw new IllegalArgumentException("detail must be 1..512 characters");
        }
    }

    @Override
    public FrameType frameType() {
        return FrameType.SUBSCRIBE_REFUSED;
    }
}
