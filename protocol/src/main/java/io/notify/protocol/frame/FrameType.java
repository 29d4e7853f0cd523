package io.notify.protocol.frame;

import java.util.Optional;

/** The value of {@code "t"}, with the record it binds to and who may send it. */
public enum FrameType {
    WELCOME("welcome", WelcomeFrame.class, true, false),
    EVENT("event", EventFrame.class, true, false),
    RESET("reset", ResetFrame.class, true, false),
    PING("ping", PingFrame.class, true, true),
    PONG("pong", PongFrame.class, true, true),
    RESUME("resume", ResumeFrame.class, false, true),
    ACK("ack", AckFrame.class, false, true),
    SUBSCRIBE("subscribe", SubscribeFrame.class, false, true),
    UNSUBSCRIBE("unsubscribe", UnsubscribeFrame.class, false, true),
    SUBSCRIBED("subscribed", SubscribedFrame.class, true, false),
    UNSUBSCRIBED("unsubscribed", UnsubscribedFrame.class, true, false),
    SUBSCRIBE_REFUSED("subscribe_refused", SubscribeRefusedFrame.class, true, false),
    PRESENCE("presence", PresenceFrame.class, false, true),
    PRESENCE_RESULT("presence_result", PresenceResultFrame.class, true, false),
    STATE("state", StateFrame.class, true, false),
    COLLAPSED("collapsed", CollapsedFrame.class, true, false),
    RECALLED("recalled", RecalledFrame.class, true, false);

    private final String wireName;
    private final Class<? extends Frame> recordClass;
    private final boolean sentByServer;
    private final boolean sentByClient;

    FrameType(String wireName, Class<? extends Frame> recordClass, boolean sentByServer, boolean sentByClient) {
        this.wireName = wireName;
        this.recordClass = recordClass;
        this.sentByServer = sentByServer;
        this.sentByClient = sentByClient;
    }

    public String wireName() {
        return wireName;
    }

    public Class<? extends Frame> recordClass() {
        return recordClass;
    }

    public boolean sentByServer() {
        return sentByServer;
    }

    public boolean sentByClient() {
        return sentByClient;
    }

    public static Optional<FrameType> fromWire(String t) {
        for (FrameType f : values()) {
            if (f.wireName.equals(t)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
