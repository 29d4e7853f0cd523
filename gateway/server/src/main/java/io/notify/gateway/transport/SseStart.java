package io.notify.gateway.transport;

import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.frame.SseCursor;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where an SSE client stands when it connects (SSE has no {@code resume} frame): the positions its
 * {@code Last-Event-ID} gives (its own stream's, and its rooms' through the composite cursor,
 * {@code SseCursor}), and the streams of its {@code ?rooms=} / {@code ?broadcast=} it has no position
 * in, subscribed from their head. {@link SseTransport} reports it to its session when started, as the
 * client's resume ({@link Transport.Listener#resume}).
 */
public record SseStart(List<ResumePoint> positions, List<String> fresh) {

    public static final SseStart NONE = new SseStart(List.of(), List.of());

    public SseStart {
        positions = List.copyOf(positions);
        fresh = List.copyOf(fresh);
    }

    /**
     * The positions of {@code lastEventId} for the streams a connection serves: a plain position is
     * the user stream's (a connection without rooms); a cursor ({@link SseCursor}) names each stream by
     * its key, and entries of streams not asked for any more are ignored. Two asked streams with one
     * key (a 32-bit hash collision, about 1 in 10^6 for 100 rooms) are refused: their positions could
     * not be told apart.
     *
     * @throws IllegalArgumentException a malformed id, or two streams with one key
     */
    public static SseStart of(String lastEventId, StreamId own, List<StreamId> subscriptions) {
        Map<String, Position> cursor = lastEventId == null ? Map.of()
                : SseCursor.isCursor(lastEventId) ? SseCursor.parse(lastEventId)
                : Map.of(SseCursor.key(own), Position.parse(lastEventId));
        List<ResumePoint> positions = new ArrayList<>();
        List<String> fresh = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        List<StreamId> all = new ArrayList<>(subscriptions.size() + 1);
        all.add(own);
        all.addAll(subscriptions);
        for (StreamId stream : all) {
            String key = SseCursor.key(stream);
            if (!keys.add(key)) {
                throw new IllegalArgumentException(stream + " has the same cursor key as another stream of this connection; "
                        + "rename the room");
            }
            Position p = cursor.get(key);
            if (p != null) {
                positions.add(ResumePoint.of(stream, p));
            } else if (!stream.equals(own)) {
                fresh.add(stream.value());
            }
        }
        return new SseStart(positions, fresh);
    }
}
