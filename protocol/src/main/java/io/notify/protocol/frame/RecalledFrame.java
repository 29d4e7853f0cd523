package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;

/**
 * Server to client, ephemeral: the producer took back the event {@code id} at {@code seq} of
 * {@code stream}'s history {@code epoch} (docs/protocol.md, "Recall"). A client that holds it removes
 * it from what it shows; one that does not ignores the frame. Its position is unaffected: the seq
 * stays delivered (a client catching up past it gets a {@code collapsed} frame with reason
 * {@code recalled} in its place). A user's unread count drops by a {@code state} frame that follows.
 *
 * <p>fanout-streams sends it through the ordinary live route as an ephemeral event of type
 * {@value #EVENT_TYPE} (reserved, as the state frame's) whose data is this frame; the gateway turns
 * that event into this frame ({@link #fromLiveEvent}).
 */
@JsonPropertyOrder({"stream", "epoch", "seq", "id"})
public record RecalledFrame(StreamId stream, String epoch, long seq, String id) implements ServerFrame {

    /** The type of the ephemeral event that carries a recalled frame from fanout-streams to the gateways. */
    public static final String EVENT_TYPE = "notify.recalled";

    public RecalledFrame {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        Position.of(epoch, seq);
        if (!EventIds.isValid(id)) {
            throw new IllegalArgumentException("id must be an event id, got '" + id + "'");
        }
    }

    @Override
    public FrameType frameType() {
        return FrameType.RECALLED;
    }

    /** Whether {@code event} carries a recalled frame. */
    public static boolean carriedBy(LiveEvent event) {
        return EVENT_TYPE.equals(event.type());
    }

    /** The frame {@code event} carries. */
    public static RecalledFrame fromLiveEvent(LiveEvent event) {
        return CarriedFrames.read(event, EVENT_TYPE, RecalledFrame.class, "recalled");
    }

    /** This frame as the ephemeral event that carries it to the stream's devices. */
    public LiveEvent toLiveEvent(String eventId, String source, long at) {
        return CarriedFrames.carry(this, stream, EVENT_TYPE, eventId, source, at);
    }
}
