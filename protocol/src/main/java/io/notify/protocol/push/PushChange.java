package io.notify.protocol.push;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.text.WireNames;

/**
 * The value on {@code notify.push-changes}: one change to a user's push registrations
 * (docs/push.md). Written by the gateways ({@code register}, {@code unregister}: the user's own
 * request) and by the push sender ({@code gone}: the provider said the registration no longer
 * exists, in {@code reason}); applied by fanout-streams in the task that owns the user's stream,
 * which publishes the result on {@code notify.push-registrations}. Keyed by the user's stream, so
 * the topic is partitioned like {@code notify.receipts}. {@code at} is when the change was taken,
 * in epoch ms.
 */
@JsonPropertyOrder({"stream", "kind", "id", "registration", "reason", "at"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PushChange(StreamId stream, Kind kind, String id, PushRegistration registration, String reason, long at) {

    public static final int MAX_REASON = 200;

    /** What the change does. */
    public enum Kind {
        REGISTER("register"), UNREGISTER("unregister"), GONE("gone");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        @JsonValue
        public String wireName() {
            return wireName;
        }

        @JsonCreator
        public static Kind fromWire(String value) {
            return WireNames.parse(values(), Kind::wireName, value, "kind");
        }
    }

    public PushChange {
        if (stream == null || !stream.isUser()) {
            throw new IllegalArgumentException("stream must be a user's stream u:<user>, got " + stream);
        }
        if (kind == null) {
            throw new IllegalArgumentException("kind is required (register, unregister or gone)");
        }
        if (kind == Kind.REGISTER) {
            if (registration == null || (id != null && !id.equals(registration.id()))) {
                throw new IllegalArgumentException("a register change carries the registration (and no other id)");
            }
            id = registration.id();
        } else if (registration != null || id == null || !PushRegistration.ID.matcher(id).matches()) {
            throw new IllegalArgumentException("an " + kind.wireName() + " change names the registration's id only");
        }
        if (reason != null && reason.length() > MAX_REASON) {
            reason = reason.substring(0, MAX_REASON);
        }
        if (at < 0) {
            throw new IllegalArgumentException("at must be epoch ms >= 0, got " + at);
        }
    }

    public static PushChange register(StreamId stream, PushRegistration registration, long at) {
        return new PushChange(stream, Kind.REGISTER, registration.id(), registration, null, at);
    }

    public static PushChange unregister(StreamId stream, String id, long at) {
        return new PushChange(stream, Kind.UNREGISTER, id, null, null, at);
    }

    /** The provider reported the registration gone; {@code reason} is its words (clipped to {@value #MAX_REASON}). */
    public static PushChange gone(StreamId stream, String id, String reason, long at) {
        return new PushChange(stream, Kind.GONE, id, null, reason, at);
    }
}
