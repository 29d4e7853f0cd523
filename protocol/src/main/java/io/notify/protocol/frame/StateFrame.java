package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.List;

/**
 * Server to client, ephemeral: the read state of the user's stream changed (a device marked events
 * seen, read or archived; docs/inbox.md). Sent to every connected device of the user, the one that
 * made the change included ({@code device} names it when the client gave one).
 *
 * <p>{@code unread} and {@code unseen} count the events the inbox held up to seq {@code head} of
 * {@code epoch} when the change was applied; a client adds the durable events it receives with a
 * higher seq. {@code version} grows by one per change of the stream's state: a frame with a lower
 * version than one already applied is stale. {@code kind} with {@code upTo} or {@code seqs} is the
 * change itself.
 *
 * <p>fanout-streams sends it through the ordinary live route as an ephemeral event of type
 * {@value #EVENT_TYPE} (a reserved type no producer may use) whose data is this frame;
 * the gateway turns that event into this frame ({@link #fromLiveEvent}).
 */
@JsonPropertyOrder({"stream", "epoch", "head", "unread", "unseen", "version", "kind", "upTo", "seqs", "device"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StateFrame(StreamId stream, String epoch, long head, long unread, long unseen, long version, ReceiptKind kind,
                         Long upTo, List<Long> seqs, String device) implements ServerFrame {

    /** The type of the ephemeral event that carries a state frame from fanout-streams to the gateways. */
    public static final String EVENT_TYPE = "notify.inbox.state";

    public StateFrame {
        if (stream == null || !stream.isUser()) {
            throw new IllegalArgumentException("stream must be a user's stream, got " + stream);
        }
        Position.of(epoch, 1);
        if (head < 0 || unread < 0 || unseen < 0 || version < 0 || unread > head || unseen > head) {
            throw new IllegalArgumentException("head, unread, unseen and version must be >= 0, unread and unseen <= head");
        }
        if (kind == null || !kind.isMark()) {
            throw new IllegalArgumentException("kind must be seen, read or archive");
        }
        seqs = seqs == null ? null : List.copyOf(seqs);
    }

    @Override
    public FrameType frameType() {
        return FrameType.STATE;
    }

    /** Whether {@code event} carries a state frame (fanout-streams' reserved event type). */
    public static boolean carriedBy(LiveEvent event) {
        return EVENT_TYPE.equals(event.type());
    }

    /** The frame {@code event} carries. */
    public static StateFrame fromLiveEvent(LiveEvent event) {
        return CarriedFrames.read(event, EVENT_TYPE, StateFrame.class, "state");
    }

    /** This frame as the ephemeral event that carries it to the user's devices. */
    public LiveEvent toLiveEvent(String id, String source, long at) {
        return CarriedFrames.carry(this, stream, EVENT_TYPE, id, source, at);
    }

    @JsonIgnore
    public boolean isFrom(String deviceId) {
        return device != null && device.equals(deviceId);
    }
}
