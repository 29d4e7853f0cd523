package io.notify.protocol.frame;

/** A frame a client may send to the gateway. */
public sealed interface ClientFrame extends Frame permits ResumeFrame, AckFrame, PingFrame, PongFrame, SubscribeFrame, UnsubscribeFrame,
        PresenceFrame {
}
