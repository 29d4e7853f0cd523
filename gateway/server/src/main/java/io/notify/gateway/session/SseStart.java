package io.notify.gateway.session;

import io.notify.protocol.frame.ResumePoint;
import java.util.List;

/**
 * Where an SSE client stands when it connects (SSE has no {@code resume} frame): the positions its
 * {@code Last-Event-ID} gives (its own stream's, and its rooms' through the composite cursor,
 * {@code SseCursor}), and the streams of its {@code ?rooms=} / {@code ?broadcast=} it has no position
 * in, subscribed from their head.
 */
public record SseStart(List<ResumePoint> positions, List<String> fresh) {

    public static final SseStart NONE = new SseStart(List.of(), List.of());

    public SseStart {
        positions = List.copyOf(positions);
        fresh = List.copyOf(fresh);
    }
}
