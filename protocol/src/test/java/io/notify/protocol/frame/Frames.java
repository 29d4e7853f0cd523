package io.notify.protocol.frame;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.time.OffsetDateTime;
import java.util.List;

/** Sample frames of every kind, shared by the protocol and AsyncAPI tests; the docs show the same JSON. */
public final class Frames {

    static final StreamId U42 = StreamId.forUser("42");
    static final String EPOCH = "k3x9m2p8q7rdw5ta";

    static final WelcomeFrame WELCOME = WelcomeFrame.v1("gw-1", "c-7f3a", List.of(U42), 25_000, 1764410130123L);
    static final EventFrame DURABLE = new EventFrame(U42, EPOCH, 17L, "ord-1:shipped", "order.shipped", EventClass.DURABLE,
            JsonNodeFactory.instance.objectNode().put("orderId", "ord-1"),
            OffsetDateTime.parse("2026-11-29T10:15:30.123+01:00"));
    static final EventFrame EPHEMERAL = new EventFrame(U42, null, null, "typing-1", "chat.typing", EventClass.EPHEMERAL,
            JsonNodeFactory.instance.objectNode().put("room", "r1"), null);
    static final ResetFrame RESET_TOO_OLD = ResetFrame.positionTooOld(U42, Position.of(EPOCH, 1200), 201);
    static final ResetFrame RESET_EPOCH = ResetFrame.epochMismatch(U42, Position.of(EPOCH, 3), 1);
    static final ResetFrame RESET_UNKNOWN = ResetFrame.unknownStream(U42);
    static final ResumeFrame RESUME = ResumeFrame.of(ResumePoint.of(U42, Position.of(EPOCH, 17)));
    static final ResumeFrame RESUME_LIVE = ResumeFrame.live();
    static final AckFrame ACK = new AckFrame(U42, 17);
    static final StreamId ROOM = StreamId.forRoom("chat-1");
    static final SubscribeFrame SUBSCRIBE = SubscribeFrame.fresh("r:chat-1");
    static final SubscribeFrame SUBSCRIBE_FROM = SubscribeFrame.from("r:chat-1", Position.of(EPOCH, 9));
    static final UnsubscribeFrame UNSUBSCRIBE = new UnsubscribeFrame("b:all");
    static final SubscribedFrame SUBSCRIBED = new SubscribedFrame(ROOM, Position.of(EPOCH, 12));
    static final SubscribedFrame SUBSCRIBED_EMPTY = new SubscribedFrame(StreamId.BROADCAST, null);
    static final UnsubscribedFrame UNSUBSCRIBED = new UnsubscribedFrame(ROOM);
    static final PresenceFrame PRESENCE = new PresenceFrame("r:chat-1", null, null);
    static final PresenceFrame PRESENCE_PAGE = new PresenceFrame("r:chat-1", "bob", 50);
    static final PresenceResultFrame PRESENCE_RESULT = PresenceResultFrame.page("r:chat-1", 3, List.of("alice", "bob"), "bob");
    static final PresenceResultFrame PRESENCE_OFF = PresenceResultFrame.error("r:lobby", PresenceResultFrame.Error.OFF);
    static final StateFrame STATE_READ_UP_TO = new StateFrame(StreamId.forUser("42"), "k3x9m2p8q7rdw5ta", 20, 3, 1, 12,
            ReceiptKind.READ, 17L, null, "phone-1");
    static final StateFrame STATE_ARCHIVED = new StateFrame(StreamId.forUser("42"), "k3x9m2p8q7rdw5ta", 20, 2, 0, 13,
            ReceiptKind.ARCHIVE, null, List.of(18L, 19L), null);
    static final CollapsedFrame COLLAPSED = new CollapsedFrame(StreamId.forUser("42"), "k3x9m2p8q7rdw5ta", 3, 5);
    static final CollapsedFrame COLLAPSED_RECALLED = new CollapsedFrame(StreamId.forUser("42"), "k3x9m2p8q7rdw5ta", 7, 7,
            CollapsedFrame.Reason.RECALLED);
    static final RecalledFrame RECALLED = new RecalledFrame(StreamId.forUser("42"), "k3x9m2p8q7rdw5ta", 7, "ord-1:shipped");
    static final SubscribeRefusedFrame REFUSED = new SubscribeRefusedFrame("r:secret", SubscribeRefusedFrame.Reason.FORBIDDEN,
            "the token's rooms claim does not allow r:secret");

    public static final List<ServerFrame> SERVER = List.of(WELCOME, DURABLE, EPHEMERAL, RESET_TOO_OLD, RESET_EPOCH, RESET_UNKNOWN, SUBSCRIBED, SUBSCRIBED_EMPTY, UNSUBSCRIBED, REFUSED, PRESENCE_RESULT, PRESENCE_OFF,
            STATE_READ_UP_TO, STATE_ARCHIVED, COLLAPSED, COLLAPSED_RECALLED, RECALLED,
            PingFrame.INSTANCE, PongFrame.INSTANCE);
    public static final List<ClientFrame> CLIENT = List.of(RESUME, RESUME_LIVE, ACK, PingFrame.INSTANCE, PongFrame.INSTANCE, SUBSCRIBE,
            SUBSCRIBE_FROM, UNSUBSCRIBE, PRESENCE, PRESENCE_PAGE);

    private Frames() {
    }
}
