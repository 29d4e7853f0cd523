package io.notify.client;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Supplies the JWT sent at every handshake ({@code Authorization: Bearer}). Called before every
 * connection attempt, on a thread of the client's own (it may block, e.g. on a token endpoint),
 * never concurrently with itself.
 */
@FunctionalInterface
public interface TokenSupplier {

    /**
     * @param refresh true when the gateway rejected the previous token (HTTP 401) or closed the
     *                connection because it expired (close code 4001): return a fresh token, not a
     *                cached one
     * @return the token; an exception (or null/blank) counts as a failed attempt and is retried with
     *         backoff, reported through {@link NotifyListener#onError}
     */
    String token(boolean refresh) throws Exception;

    /** A fixed token (tests, short-lived tools). */
    static TokenSupplier of(String token) {
        Objects.requireNonNull(token, "token");
        return refresh -> token;
    }

    /** A supplier that ignores the refresh hint (it must return a valid token on every call). */
    static TokenSupplier of(Supplier<String> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return refresh -> supplier.get();
    }
}
