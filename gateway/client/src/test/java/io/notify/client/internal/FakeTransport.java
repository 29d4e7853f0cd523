package io.notify.client.internal;

import io.notify.client.TransportMode;
import io.notify.protocol.frame.ClientFrame;
import java.util.ArrayList;
import java.util.List;

/** Records what the client would send. */
final class FakeTransport implements Transport {

    final List<ClientFrame> sent = new ArrayList<>();
    private final TransportMode mode;
    boolean closed;

    FakeTransport(TransportMode mode) {
        this.mode = mode;
    }

    @Override
    public TransportMode mode() {
        return mode;
    }

    @Override
    public boolean canSend() {
        return mode == TransportMode.WEBSOCKET;
    }

    @Override
    public void send(ClientFrame frame) {
        if (canSend()) {
            sent.add(frame);
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
