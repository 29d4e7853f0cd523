package io.notify.protocol.inbox;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.text.WireNames;
import java.util.List;

/**
 * The value of {@code notify.fallback}: no device of the user acknowledged or read {@code event}
 * within its {@code fallback.after}, so the sender named {@code channel} should reach the user
 * another way (push, e-mail). Written exactly once per event and user by fanout-streams
 * (docs/inbox.md, "Offline fallback"); a push/e-mail service or a Kafka Connect sink consumes it.
 *
 * <ul>
 *   <li>{@code reason}: {@code no_device} when no device of the user ever acknowledged anything
 *       that fanout-streams still remembers, {@code no_ack} when devices exist but none acknowledged
 *       this event;</li>
 *   <li>{@code devices}: each known device with the last seq it acknowledged and when it was last
 *       heard (epoch ms): what a sender needs to pick one;</li>
 *   <li>{@code dueAt}: when the fallback was due ({@code sequencedAt + after}); {@code at}: when it
 *       was written, so {@code at - dueAt} is the timer's lateness;</li>
 *   <li>{@code push}: for channel {@value #PUSH_CHANNEL}, the user's push registrations when the record
 *       was written (absent when there are none, and for other channels): the push sender sends one push
 *       to each.</li>
 *   <li>{@code digest}: for events that asked to be folded ({@code digest} in the envelope), the digest
 *       this record stands for: its {@code key}, how many of its events were neither acknowledged nor
 *       read when it fired ({@code count}), and the {@code first} of them; {@code event} is the last.</li>
 * </ul>
 */
@JsonPropertyOrder({"stream", "userId", "channel", "reason", "event", "devices", "dueAt", "at", "push", "digest"})
public record FallbackRecord(String stream, String userId, String channel, Reason reason, SequencedEvent event,
                             List<Device> devices, long dueAt, long at,
                             @JsonInclude(JsonInclude.Include.NON_EMPTY) List<PushRegistration> push,
                             @JsonInclude(JsonInclude.Include.NON_NULL) Digested digest) {

    /** The channel whose records carry the user's push registrations ({@code push}) for the push sender (docs/push.md). */
    public static final String PUSH_CHANNEL = "push";

    /** Why the user is reached another way. */
    public enum Reason {
        NO_DEVICE("no_device"), NO_ACK("no_ack");

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

    /** A device of the user: the last seq it acknowledged and when it was last heard. */
    @JsonPropertyOrder({"device", "acked", "lastSeenAt"})
    public record Device(String device, long acked, long lastSeenAt) {
    }

    /** The events one record stands for when they asked to be folded: {@code count} of them, {@code first} to {@code event}. */
    @JsonPropertyOrder({"key", "count", "first"})
    public record Digested(String key, long count, SequencedEvent first) {

        public Digested {
            if (key == null || count < 1 || first == null) {
                throw new IllegalArgumentException("a digest has a key, a count >= 1 and its first event");
            }
        }
    }

    public FallbackRecord {
        if (event == null || event.fallback() == null || !event.stream().isUser()) {
            throw new IllegalArgumentException("a fallback record holds a user's durable event that asked for a fallback");
        }
        if (!event.stream().value().equals(stream) || !event.stream().userId().equals(userId)) {
            throw new IllegalArgumentException("stream and userId must be the event's");
        }
        if (!event.fallback().channel().equals(channel) || reason == null) {
            throw new IllegalArgumentException("channel must be the event's fallback channel, and reason is required");
        }
        devices = devices == null ? List.of() : List.copyOf(devices);
        push = push == null ? List.of() : List.copyOf(push);
        if (!push.isEmpty() && !PUSH_CHANNEL.equals(channel)) {
            throw new IllegalArgumentException("only a record of channel push carries push registrations");
        }
        if (digest != null && (event.digest() == null || !event.digest().key().equals(digest.key())
                || !digest.first().stream().equals(event.stream()) || digest.first().seq() > event.seq())) {
            throw new IllegalArgumentException("a digest record's event is the last of its digest, in the same stream");
        }
    }

    /** A record for one event (not folded). */
    public FallbackRecord(String stream, String userId, String channel, Reason reason, SequencedEvent event,
                          List<Device> devices, long dueAt, long at, List<PushRegistration> push) {
        this(stream, userId, channel, reason, event, devices, dueAt, at, push, null);
    }

    /** A record without push registrations (any channel but push, or a user with none). */
    public FallbackRecord(String stream, String userId, String channel, Reason reason, SequencedEvent event,
                          List<Device> devices, long dueAt, long at) {
        this(stream, userId, channel, reason, event, devices, dueAt, at, List.of(), null);
    }
}
