package io.notify.client.store;

import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.Map;
import java.util.Optional;

/**
 * Where a {@link io.notify.client.NotifyClient} keeps, per stream, the position of the last durable
 * event its listener processed. The client resumes from it on every (re)connect and drops every
 * event at or below it, so a store that survives restarts makes delivery exactly-once across
 * restarts too. One store belongs to one user (one client identity): the client resumes every
 * stream it holds that the gateway's {@code welcome} names.
 *
 * <p>Contract: {@link #save} returns only once the position is as durable as the store promises;
 * a failure is thrown (unchecked) and reported by the client, which keeps the position in memory
 * and carries on. The client writes from its event thread only; {@link
 * io.notify.client.NotifyClient#position} reads from the caller's thread, so implementations
 * should tolerate a concurrent read (the ones here are thread-safe).
 *
 * <p>A store that outlives the process may also keep the client's generated device id
 * ({@link #loadDevice}, {@link #saveDevice}), so a restarted client connects as the same device
 * (docs/protocol.md §1, {@code ?device=}); the defaults keep none.
 */
public interface PositionStore {

    /** The stored position of {@code stream}, if any. */
    Optional<Position> load(StreamId stream);

    /** Every stored position. */
    Map<StreamId, Position> loadAll();

    /** Stores {@code position} as the last processed position of {@code stream}. */
    void save(StreamId stream, Position position);

    /** Forgets {@code stream}'s position (after an {@code unknown_stream} reset). */
    void remove(StreamId stream);

    /** The device id kept by {@link #saveDevice}, if this store keeps one. Called once per client, when it is built. */
    default Optional<String> loadDevice() {
        return Optional.empty();
    }

    /**
     * Keeps the device id the client generated (it had none from {@link #loadDevice}), as durably as
     * positions; a store that cannot keep it ignores it (the default: every client is then a new device).
     */
    default void saveDevice(String device) {
    }
}
