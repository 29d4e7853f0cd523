package io.notify.client.internal;

import io.notify.client.NotifyClientException.Kind;
import io.notify.client.NotifyClientException;
import io.notify.protocol.frame.SseCursor;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where an SSE request resumes (docs/protocol.md §1 and §8): SSE has no {@code resume} frame, so the
 * stored positions go in {@code Last-Event-ID}. Confined to the client's event thread.
 */
final class SseResume {

    private final StreamPositions positions;
    private final Rooms rooms;
    private final Function<StreamId, Optional<Position>> stored;
    private final Consumer<NotifyClientException> errors;

    /** @param stored a stream's stored position, a store failure reported and read as none */
    SseResume(StreamPositions positions, Rooms rooms, Function<StreamId, Optional<Position>> stored,
              Consumer<NotifyClientException> errors) {
        this.positions = positions;
        this.rooms = rooms;
        this.stored = stored;
        this.errors = errors;
    }

    /**
     * The {@code Last-Event-ID}: with no subscriptions the plain position of §1 ({@link #position});
     * with some, the composite cursor (§8) of the user's stream and every subscribed stream the
     * store holds a position for. {@code streams}: those of the last welcome.
     */
    Optional<String> lastEventId(List<StreamId> streams) {
        if (rooms.isEmpty()) {
            return position(streams).map(Position::format);
        }
        StringBuilder cursor = new StringBuilder();
        Optional<StreamId> own = streams.size() == 1 ? Optional.of(streams.get(0)) : storedUserStream();
        own.flatMap(stored).ifPresent(p -> SseCursor.append(cursor, own.get(), p));
        for (StreamId s : rooms.streams()) {
            stored.apply(s).ifPresent(p -> SseCursor.append(cursor, s, p));
        }
        return cursor.length() == 0 ? Optional.empty() : Optional.of(cursor.toString());
    }

    /**
     * The position of the single stream the last welcome named, or, before any welcome, of the
     * single stream the store holds (v1 SSE serves exactly one stream without rooms).
     */
    Optional<Position> position(List<StreamId> streams) {
        if (streams.size() == 1) {
            return stored.apply(streams.get(0));
        }
        try {
            Map<StreamId, Position> all = positions.stored();
            return all.size() == 1 ? stored.apply(all.keySet().iterator().next()) : Optional.empty();
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.POSITION_STORE, "cannot read the position store; starting live", ex));
            return Optional.empty();
        }
    }

    private Optional<StreamId> storedUserStream() {
        try {
            List<StreamId> users = positions.stored().keySet().stream().filter(StreamId::isUser).toList();
            return users.size() == 1 ? Optional.of(users.get(0)) : Optional.empty();
        } catch (RuntimeException ex) {
            return Optional.empty();
        }
    }
}
