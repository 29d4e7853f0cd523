package io.notify.client.internal;

import io.notify.client.TransportMode;
import io.notify.protocol.frame.ClientFrame;

/**
 * One connection attempt over one transport, as the client's event loop sees it; the same loop
 * drives WebSocket and SSE. A transport reports everything through its {@link TransportEvents},
 * and reports its end exactly once.
 */
public interface Transport {

    TransportMode mode();

    /** Whether frames can go to the gateway (WebSocket); SSE is one way. */
    boolean canSend();

    /** Queues a frame for the gateway; dropped when {@link #canSend()} is false or the connection is gone. */
    void send(ClientFrame frame);

    /**
     * Ends the connection from the client side (a graceful close where the transport has one,
     * bounded in time). No {@link TransportEvents#ended} follows for a close the client asked for.
     */
    void close();
}
