package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One frame of the {@code notify.v1} client protocol: a JSON object whose {@code "t"} names its
 * type. The same JSON is a WebSocket text frame and an SSE {@code data:} payload. Frames are built
 * valid (each record checks its rules in its constructor) and read through {@link FrameCodec}.
 * The schema {@code protocol/frames-v1.schema.json} describes the same JSON; a test keeps them equal.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "t")
@JsonSubTypes({
        @JsonSubTypes.Type(value = WelcomeFrame.class, name = "welcome"),
        @JsonSubTypes.Type(value = EventFrame.class, name = "event"),
        @JsonSubTypes.Type(value = ResetFrame.class, name = "reset"),
        @JsonSubTypes.Type(value = PingFrame.class, name = "ping"),
        @JsonSubTypes.Type(value = PongFrame.class, name = "pong"),
        @JsonSubTypes.Type(value = ResumeFrame.class, name = "resume"),
        @JsonSubTypes.Type(value = AckFrame.class, name = "ack"),
        @JsonSubTypes.Type(value = SubscribeFrame.class, name = "subscribe"),
        @JsonSubTypes.Type(value = UnsubscribeFrame.class, name = "unsubscribe"),
        @JsonSubTypes.Type(value = SubscribedFrame.class, name = "subscribed"),
        @JsonSubTypes.Type(value = UnsubscribedFrame.class, name = "unsubscribed"),
        @JsonSubTypes.Type(value = SubscribeRefusedFrame.class, name = "subscribe_refused"),
        @JsonSubTypes.Type(value = PresenceFrame.class, name = "presence"),
        @JsonSubTypes.Type(value = PresenceResultFrame.class, name = "presence_result"),
        @JsonSubTypes.Type(value = StateFrame.class, name = "state"),
        @JsonSubTypes.Type(value = CollapsedFrame.class, name = "collapsed"),
        @JsonSubTypes.Type(value = RecalledFrame.class, name = "recalled")})
public sealed interface Frame permits ClientFrame, ServerFrame {

    @JsonIgnore
    FrameType frameType();
}
