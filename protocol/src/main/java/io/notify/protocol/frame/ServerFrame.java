package io.notify.protocol.frame;

/** A frame the gateway may send to a client. */
public sealed interface ServerFrame extends Frame permits WelcomeFrame, EventFrame, ResetFrame, PingFrame, PongFrame, SubscribedFrame,
        UnsubscribedFrame, SubscribeRefusedFrame, PresenceResultFrame,
        StateFrame, CollapsedFrame, RecalledFrame {
}
