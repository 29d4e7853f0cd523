package io.notify.protocol.frame;

/**
 * The WebSocket frame opcodes Notify uses (RFC 6455 §5.2), shared by the gateway's server-side
 * framing and the load generator's client side. notify.v1 carries text frames only; binary is
 * named so that it can be refused (close 1003).
 */
public final class WsOpcode {

    public static final int CONTINUATION = 0x0;
    public static final int TEXT = 0x1;
    public static final int BINARY = 0x2;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;

    private WsOpcode() {
    }
}
