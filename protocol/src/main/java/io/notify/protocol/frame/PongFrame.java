package io.notify.protocol.frame;

/** Answer to {@link PingFrame}, either direction: {@code {"t":"pong"}}. */
public record PongFrame() implements ClientFrame, ServerFrame {

    public static final PongFrame INSTANCE = new PongFrame();

    @Override
    public FrameType frameType() {
        return FrameType.PONG;
    }
}
