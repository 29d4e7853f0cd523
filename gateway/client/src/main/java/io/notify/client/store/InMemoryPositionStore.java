package io.notify.client.store;

import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The default store: positions live as long as the process. Reconnects resume without loss or
 * duplicates; a restarted process starts live (no replay of what it missed while down).
 */
public final class InMemoryPositionStore implements PositionStore {

    private final Map<StreamId, Position> positions = new ConcurrentHashMap<>();

    @Override
    public Optional<Position> load(StreamId stream) {
        return Optional.ofNullable(positions.get(stream));
    }

    @Override
    public Map<StreamId, Position> loadAll() {
        return Map.copyOf(positions);
    }

    @Override
    public void save(StreamId stream, Position position) {
        positions.put(stream, position);
    }

    @Override
    public void remove(StreamId stream) {
        positions.remove(stream);
    }
}
