package io.notify.protocol.frame;

import io.notify.protocol.NotifyJson;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.StreamId;

/**
 * Frames fanout-streams sends through the ordinary live route as an ephemeral event of a reserved type
 * whose data is the frame ({@link StateFrame}, {@link RecalledFrame}): the one way to wrap and unwrap them.
 */
final class CarriedFrames {

    private CarriedFrames() {
    }

    /** The {@code frame} of type {@code type} carried by {@code event}, {@code what} naming it in errors. */
    static <F extends ServerFrame> F read(LiveEvent event, String type, Class<F> frame, String what) {
        if (!type.equals(event.type())) {
            throw new IllegalArgumentException("event " + event.id() + " of type " + event.type() + " carries no " + what + " frame");
        }
        try {
            return NotifyJson.mapper().treeToValue(event.data(), frame);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("event " + event.id() + " carries an unreadable " + what + " frame: "
                    + e.getOriginalMessage(), e);
        }
    }

    /** {@code frame} ({@code "t"} included, so {@link #read} reads it back) as the ephemeral event of {@code type} to {@code stream}. */
    static LiveEvent carry(ServerFrame frame, StreamId stream, String type, String id, String source, long at) {
        return new LiveEvent(stream, id, type, NotifyJson.mapper().valueToTree(frame), null, null, source, at);
    }
}
