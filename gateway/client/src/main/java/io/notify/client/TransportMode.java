package io.notify.client;

/** Which transport a {@link NotifyClient} uses. Both carry the same {@code notify.v1} frames. */
public enum TransportMode {
    /**
     * WebSocket ({@code /v1/ws}, subprotocol {@code notify.v1}): resume frame, acks, pongs. Unless
     * disabled with {@link NotifyClientBuilder#sseFallback(boolean)}, the client switches to SSE
     * for the rest of its life when a WebSocket handshake fails in a way that says WebSocket cannot
     * work on that path (e.g. a proxy answering the upgrade with 200, 400, 404 or 426, or a 101
     * without the subprotocol); auth, admission and unreachable-node failures do not switch.
     */
    WEBSOCKET,
    /**
     * Server-Sent Events only ({@code /v1/sse}): one stream per connection (the user's own), resume
     * through {@code Last-Event-ID}; no acks and no pongs (SSE is one way).
     */
    SSE
}
