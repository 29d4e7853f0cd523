package io.notify.gateway.session;

import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.stream.StreamId;
import java.util.List;

/**
 * What a client's positions ({@code resume}, or SSE's Last-Event-ID) say for a connection serving
 * {@code own}: its own stream's point, the rooms' and b:all's (each a subscribe from that position),
 * or another user's stream, which the connection may not name (4003). Pure; docs/protocol.md §3.
 */
record ResumePoints(ResumePoint own, List<ResumePoint> subscriptions, StreamId foreign) {

    static ResumePoints of(List<ResumePoint> points, StreamId own) {
        ResumePoint mine = null;
        for (ResumePoint p : points) {
            if (p.stream().equals(own)) {
                mine = p;
            } else if (p.stream().isUser()) {
                return new ResumePoints(null, List.of(), p.stream());
            }
        }
        return new ResumePoints(mine, points.stream().filter(p -> !p.stream().isUser()).toList(), null);
    }

    /** Whether {@code points} give a position in the connection's own stream (then no anchor is needed before welcome). */
    static boolean namesOwn(List<ResumePoint> points, StreamId own) {
        return points.stream().anyMatch(p -> p.stream().equals(own));
    }
}
