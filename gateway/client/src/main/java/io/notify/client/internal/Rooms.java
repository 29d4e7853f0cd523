package io.notify.client.internal;

import io.notify.client.RoomListener;
import io.notify.protocol.stream.StreamId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client's room and broadcast subscriptions (docs/protocol.md §8): the listener of each stream
 * the application subscribed to, in the order it did, and the ones it left whose
 * {@code unsubscribed} has not come back yet. Confined to the client's event thread, except
 * {@link #snapshot()}, which any thread may read.
 */
public final class Rooms {

    private final Map<StreamId, RoomListener> active = new LinkedHashMap<>();
    private final Map<StreamId, RoomListener> leaving = new LinkedHashMap<>();
    private volatile Set<StreamId> snapshot = Set.of();

    /** A room ({@code r:<room>}) or {@code b:all}; anything else is refused here, before the gateway does. */
    public static StreamId check(StreamId stream) {
        if (stream == null || stream.isUser()) {
            throw new IllegalArgumentException("only a room (r:<room>) or b:all can be subscribed to, got " + stream);
        }
        return stream;
    }

    /** Adds or replaces the stream's listener; true when it is new (a subscribe goes out). */
    public boolean add(StreamId stream, RoomListener listener) {
        leaving.remove(stream);
        boolean added = active.put(check(stream), listener) == null;
        publish();
        return added;
    }

    /** Removes the stream; its listener (to tell when {@code unsubscribed} comes), or null when it was not subscribed. */
    public RoomListener remove(StreamId stream) {
        RoomListener l = active.remove(stream);
        if (l != null) {
            leaving.put(stream, l);
            publish();
        }
        return l;
    }

    /** The listener of a stream the application holds; null when it does not (then its events are dropped). */
    public RoomListener listener(StreamId stream) {
        return active.get(stream);
    }

    /** A stream the gateway refused: dropped for good. */
    public RoomListener refused(StreamId stream) {
        RoomListener l = active.remove(stream);
        publish();
        return l;
    }

    /** The gateway confirmed an unsubscribe: the listener to tell, or null when there is none to tell. */
    public RoomListener unsubscribed(StreamId stream) {
        return leaving.remove(stream);
    }

    /** Every subscription still waiting for its {@code unsubscribed}: a lost connection ended them all. */
    public Map<StreamId, RoomListener> drainLeaving() {
        Map<StreamId, RoomListener> out = new LinkedHashMap<>(leaving);
        leaving.clear();
        return out;
    }

    public List<StreamId> streams() {
        return List.copyOf(active.keySet());
    }

    public boolean isEmpty() {
        return active.isEmpty();
    }

    /** The subscribed streams, for any thread. */
    public Set<StreamId> snapshot() {
        return snapshot;
    }

    private void publish() {
        snapshot = Set.copyOf(active.keySet());
    }
}
