package io.notify.gateway.auth;

import java.util.List;

/**
 * The verification keys in force. {@link #keys} is read by every handshake on an I/O thread, so
 * neither method may block: a key set that changes ({@link RemoteKeySet}) swaps an immutable list
 * in the background.
 */
public interface KeyRing extends AutoCloseable {

    /** The keys in force now; empty only while a remote key set has none (not fetched yet, or expired). */
    List<PinnedKey> keys();

    /** A correctly formed token named {@code kid}, which no key in force has: a hint to look again. */
    default void unknownKid(String kid) {
    }

    /** Loads the first keys, waiting a bounded time (GatewayServer.start, before the listener opens). */
    default void start() {
    }

    @Override
    default void close() {
    }

    /** Keys that never change: a JWKS file or the HMAC secret. */
    static KeyRing fixed(List<PinnedKey> keys) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("at least one key is required");
        }
        List<PinnedKey> copy = List.copyOf(keys);
        return () -> copy;
    }
}
