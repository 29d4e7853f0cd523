package io.notify.client;

/**
 * Where a {@link NotifyClient} stands, reported through {@link NotifyListener#onState}. Only changes
 * are reported, in the order they happen.
 */
public enum ConnectionState {
    /** A connection attempt is under way (token, TCP, handshake, waiting for {@code welcome}). */
    CONNECTING,
    /** The gateway sent {@code welcome}: events flow. Not reported on a bare TCP or HTTP success. */
    CONNECTED,
    /**
     * No connection: a reconnect is scheduled, or the client stopped after a terminal close code
     * or refusal (then {@link NotifyListener#onError} got a {@link NotifyClientException#terminal()}
     * error and only {@link NotifyClient#reconnect()} starts it again).
     */
    DISCONNECTED,
    /** {@link NotifyClient#close()} was called: final. */
    CLOSED
}
