package io.notify.gateway.transport;

import io.notify.protocol.frame.CloseCode;

/**
 * One client connection as the session sees it, whatever carries it (WebSocket or SSE), so session
 * logic never knows which. Guarantees: {@link #send} never blocks and writes frames in the order
 * they were accepted, through a queue bounded in frames and bytes; {@link #close} is idempotent,
 * discards frames not yet written and ends the connection (WebSocket: close frame with the code;
 * SSE: the stream ends); the listener's {@code closed} runs exactly once, whoever closed.
 */
public interface Transport {

    /** Receives what happens on the connection; callbacks run on the connection's I/O thread. */
    interface Listener {
        /** A frame reached the socket (for the latency metric). */
        void written(OutboundFrame frame);

        /** The connection is gone; {@code code} is the close code sent or received, 1006 when it just dropped. */
        void closed(int code);
    }

    /** "ws" or "sse": a metric tag. */
    String kind();

    /** False for SSE: the client cannot send frames, so there is no resume frame and no pong. */
    boolean bidirectional();

    void listener(Listener listener);

    OutboundQueue.Offer send(OutboundFrame frame);

    void close(CloseCode code);

    /** As {@link #close(CloseCode)} with a specific reason text (WebSocket only; clipped to 123 bytes). */
    void close(CloseCode code, String reason);

    boolean isOpen();

    /**
     * The node's sweeper pass ({@code session.LivenessSweeper}, under the session's lock) for the
     * transport's own timers, such as SSE keep-alives; never blocks.
     */
    default void tick(long nowNanos) {
    }
}
