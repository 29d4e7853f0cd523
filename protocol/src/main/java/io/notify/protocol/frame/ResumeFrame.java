package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.StreamId;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Client to server, the first frame a WebSocket client sends after {@code welcome}: where it
 * stands in each stream it has a position for. Streams left out (or an empty list) start live,
 * with no replay. Guarantees: at most {@link #MAX_STREAMS} entries, each stream at most once.
 */
@JsonPropertyOrder({"streams"})
public record ResumeFrame(List<ResumePoint> streams) implements ClientFrame {

    public static final int MAX_STREAMS = 100;

    public ResumeFrame {
        if (streams == null) {
            throw new IllegalArgumentException("streams is required (use [] to start live)");
        }
        if (streams.size() > MAX_STREAMS) {
            throw new IllegalArgumentException("streams holds " + streams.size() + " entries; at most " + MAX_STREAMS);
        }
        streams = List.copyOf(streams);
        Set<StreamId> seen = new HashSet<>();
        for (ResumePoint p : streams) {
            if (!seen.add(p.stream())) {
                throw new IllegalArgumentException("streams names " + p.stream() + " more than once");
            }
        }
    }

    public static ResumeFrame of(ResumePoint... points) {
        return new ResumeFrame(List.of(points));
    }

    /** Start live on every stream: nothing to replay. */
    public static ResumeFrame live() {
        return new ResumeFrame(List.of());
    }

    @Override
    public FrameType frameType() {
        return FrameType.RESUME;
    }
}
