package io.notify.protocol.event;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * An event's offline fallback (docs/inbox.md, "Offline fallback"): if no device of a recipient
 * acknowledges or reads the event within {@code after}, fanout-streams writes one record to
 * {@code notify.fallback} for the sender named {@code channel} (push, e-mail, SMS: the downstream
 * consumer decides). Durable events to users only. {@code after} is a whole number of seconds,
 * minutes, hours or days ({@code 90s}, {@code 2m}, {@code 1h}, {@code 7d}), from 10 s to 7 days;
 * {@code channel} is 1..64 chars of {@code [A-Za-z0-9._:-]}.
 */
@JsonPropertyOrder({"after", "channel"})
public record Fallback(String after, String channel) {

    public static final Pattern AFTER = Durations.FORM;
    public static final Pattern CHANNEL = Pattern.compile("^[A-Za-z0-9._:-]{1,64}$");
    public static final Duration MIN_AFTER = Duration.ofSeconds(10);
    public static final Duration MAX_AFTER = Duration.ofDays(7);

    public Fallback {
        Duration d = parse(after);
        if (d.compareTo(MIN_AFTER) < 0 || d.compareTo(MAX_AFTER) > 0) {
            throw new IllegalArgumentException("fallback.after must be from 10s to 7d, got '" + after + "'");
        }
        if (channel == null || !CHANNEL.matcher(channel).matches()) {
            throw new IllegalArgumentException("fallback.channel must be 1..64 chars of [A-Za-z0-9._:-], got '" + channel + "'");
        }
    }

    /** {@code after} as a duration. */
    @JsonIgnore
    public Duration delay() {
        return parse(after);
    }

    private static Duration parse(String after) {
        return Durations.parse("fallback.after", after);
    }
}
