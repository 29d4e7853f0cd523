package io.notify.protocol.push;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.text.Clip;

/**
 * The value on {@code notify.push-outcomes}: what became of one attempt to push one event to one
 * registered device (docs/push.md, "Outcomes"), written by the push sender; {@code notifyctl why}
 * and {@code replay} read it. {@code registration} and {@code provider} are absent for
 * {@code no_registration} (the user had no device to push to). {@code status} is the provider's
 * HTTP status (0: none came), {@code reason} its words, {@code providerId} its message id where it
 * gave one, {@code attempt} counts from 1, {@code at} is epoch ms.
 */
@JsonPropertyOrder({"stream", "eventId", "seq", "registration", "provider", "outcome", "attempt", "status", "reason",
        "providerId", "at"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PushOutcome(StreamId stream, String eventId, long seq, String registration, String provider, Outcome outcome,
                          int attempt, int status, String reason, String providerId, long at) {

    /** What happened. */
    public enum Outcome {
        /** The provider took it. */
        SENT("sent"),
        /** A transient failure (429, 5xx, network): tried again after a backoff. */
        RETRY("retry"),
        /** The provider said the registration is gone: it is removed ({@code notify.push-changes} kind gone). */
        GONE("gone"),
        /** The provider refused this message for good: the DLQ has it. */
        REFUSED("refused"),
        /** Still failing after the last attempt, or older than the sender's deadline: the DLQ has it. */
        GIVEN_UP("given_up"),
        /** The device's own rate limit held it back: the DLQ has it. */
        RATE_LIMITED("rate_limited"),
        /** The user had no push registration when the fallback fired. */
        NO_REGISTRATION("no_registration");

        private final String wireName;

        Outcome(String wireName) {
            this.wireName = wireName;
        }

        @JsonValue
        public String wireName() {
            return wireName;
        }

        @JsonCreator
        public static Outcome fromWire(String value) {
            for (Outcome o : values()) {
                if (o.wireName.equals(value)) {
                    return o;
                }
            }
            throw new IllegalArgumentException("unknown push outcome '" + Clip.clip(value) + "'");
        }
    }

    public PushOutcome {
        if (stream == null || eventId == null || outcome == null) {
            throw new IllegalArgumentException("an outcome names its stream, event and outcome");
        }
        if (reason != null && reason.length() > PushChange.MAX_REASON) {
            reason = reason.substring(0, PushChange.MAX_REASON);
        }
    }
}
