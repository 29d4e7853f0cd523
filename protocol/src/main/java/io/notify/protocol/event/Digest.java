package io.notify.protocol.event;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Duration;

/**
 * An event's request to be folded with others (docs/inbox.md, "Digests"): the offline fallbacks of a
 * user's events with the same {@code key}, sequenced within {@code window} of the first, become one
 * fallback record that carries their count and the first and last of them, instead of one record
 * each. Durable events to users with a {@link Fallback} only. {@code key} follows the rules of an
 * event type; {@code window} those of {@code fallback.after} (a whole number of s, m, h or d), from
 * 10 s to 1 day. {@code summary}: when the digest fires, the user's inbox also gets one entry of type
 * {@value #SUMMARY_TYPE} that stands for the events it folded (docs/inbox.md, "Digests").
 */
@JsonPropertyOrder({"key", "window", "summary"})
public record Digest(String key, String window, @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean summary) {

    /** The type of the inbox entry a digest with {@code summary} writes (reserved: no producer's event has it). */
    public static final String SUMMARY_TYPE = "notify.digest";

    public static final Duration MIN_WINDOW = Duration.ofSeconds(10);
    public static final Duration MAX_WINDOW = Duration.ofDays(1);

    public Digest {
        if (!EventEnvelope.isType(key)) {
            throw new IllegalArgumentException("digest.key must be 1..128 chars of [A-Za-z0-9._:-], starting with a letter or digit, got '"
                    + key + "'");
        }
        Duration d = Durations.parse("digest.window", window);
        if (d.compareTo(MIN_WINDOW) < 0 || d.compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("digest.window must be from 10s to 1d, got '" + window + "'");
        }
    }

    /** A digest without an inbox summary. */
    public Digest(String key, String window) {
        this(key, window, false);
    }

    /** {@code window} as a duration. */
    @JsonIgnore
    public Duration length() {
        return Durations.parse("digest.window", window);
    }
}
