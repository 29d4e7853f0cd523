package io.notify.protocol.frame;

/**
 * Liveness probe, either direction: {@code {"t":"ping"}}. The receiver answers {@link PongFrame}
 * promptly. Application-level because browsers cannot send or observe WebSocket control pings.
 */
public record PingFrame() implements ClientFrame, ServerFrame {

    public static final PingFrame INSTANCE = new PingFrame();

    @Override
    public FrameType frameType() {
        return FrameType.PING;
    }
}
