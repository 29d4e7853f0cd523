package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.client.ClientEvent;
import io.notify.client.NotifyListener;
import io.notify.client.RoomListener;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.frame.SseCursor;
import io.notify.protocol.frame.SubscribeFrame;
import io.notify.protocol.frame.SubscribeRefusedFrame;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.frame.UnsubscribedFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Rooms and b:all in the protocol handler (docs/protocol.md §8), through the real frame codec. */
class FrameHandlerRoomsTest extends HandlerFixture {

    private static final StreamId CHAT = StreamId.forRoom("chat-1");

    private final NotifyListener user = event -> seen.add("user " + event.id());

    private final RoomListener room = new RoomListener() {
        @Override
        public void onEvent(ClientEvent event) {
            String stored = store.load(event.stream()).map(Position::format).orElse("none");
            seen.add(event.stream() + " " + event.id() + " stored=" + stored);
        }

        @Override
        public void onSubscribed(StreamId stream, Optional<Position> head) {
            seen.add("subscribed " + stream + " head=" + head.map(Position::format).orElse("none")
                    + " stored=" + store.load(stream).map(Position::format).orElse("none"));
        }

        @Override
        public void onRefused(StreamId stream, String reason) {
            seen.add("refused " + stream + " " + reason);
        }

        @Override
        public void onReset(StreamId stream, ResetReason reason, Optional<Position> head) {
            seen.add("reset " + stream + " " + reason.wireName());
        }

        @Override
        public void onUnsubscribed(StreamId stream) {
            seen.add("unsubscribed " + stream);
        }
    };

    private final FrameHandler handler = new FrameHandler(user, new StreamPositions(store), errors::add, counters, rooms);

    private FrameHandler.Outcome receive(Object frame) {
        String text = FrameCodec.v1().encode((io.notify.protocol.frame.Frame) frame);
        return handler.handle(FrameCodec.v1().decodeServerFrame(text), ws);
    }

    private static EventFrame event(StreamId stream, long seq) {
        return new EventFrame(stream, "ep", seq, stream.value() + "-" + seq, "chat.msg", EventClass.DURABLE, null, null);
    }

    @Test
    void subscribesGoOutFromStoredPositionsOrFreshAndTheHeadIsAdoptedOnlyWithoutOne() {
        StreamId lobby = StreamId.forRoom("lobby");
        rooms.add(CHAT, room);
        rooms.add(lobby, room);
        store.save(CHAT, Position.of("ep", 9));
        assertEquals(List.of(SubscribeFrame.from("r:chat-1", Position.of("ep", 9)), SubscribeFrame.fresh("r:lobby")),
                handler.subscribeFrames());

        receive(new SubscribedFrame(CHAT, Position.of("ep", 12)));
        receive(new SubscribedFrame(lobby, Position.of("lb", 4)));
        assertEquals(List.of("subscribed r:chat-1 head=ep:12 stored=ep:9", "subscribed r:lobby head=lb:4 stored=lb:4"), seen,
                "a stored position is kept (the replay follows); a room without one starts at the head");
    }

    @Test
    void roomEventsGoToTheirListenerDedupedByStreamAndSeqWithThePositionStoredAfterIt() {
        rooms.add(CHAT, room);
        receive(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 25_000, 1));
        receive(new SubscribedFrame(CHAT, Position.of("ep", 1)));
        receive(event(CHAT, 2));
        receive(event(CHAT, 2)); // the replay overlapping live
        receive(event(U42, 2)); // the same seq on another stream is another event
        receive(event(CHAT, 3));
        assertEquals(List.of("subscribed r:chat-1 head=ep:1 stored=ep:1", "r:chat-1 r:chat-1-2 stored=ep:1", "user u:42-2",
                "r:chat-1 r:chat-1-3 stored=ep:2"), seen);
        assertEquals(Optional.of(Position.of("ep", 3)), store.load(CHAT));
        assertEquals(1, counters.snapshot().duplicatesDropped());
        assertTrue(handler.takeAcks().stream().anyMatch(a -> a.stream().equals(CHAT) && a.seq() == 3), "room streams are acked too");
    }

    @Test
    void aGapInARoomResyncsLikeTheUserStream() {
        rooms.add(CHAT, room);
        receive(new SubscribedFrame(CHAT, Position.of("ep", 1)));
        FrameHandler.Outcome gap = receive(event(CHAT, 3));
        assertTrue(gap.resync(), "seq 2 is missing: the client reconnects and resumes the room from ep:1");
        assertEquals(Optional.of(Position.of("ep", 1)), store.load(CHAT));
    }

    @Test
    void aRefusedSubscriptionIsDroppedAndNotAskedForAgain() {
        rooms.add(CHAT, room);
        receive(new SubscribeRefusedFrame("r:chat-1", SubscribeRefusedFrame.Reason.FORBIDDEN, "not in the claim"));
        assertEquals(List.of("refused r:chat-1 forbidden"), seen);
        assertEquals(List.of(), handler.subscribeFrames());
        receive(event(CHAT, 1));
        assertEquals(1, counters.snapshot().unsubscribedDropped(), "an event of a room not held is dropped");
    }

    @Test
    void resetsOfARoomGoToItsListenerAndMoveItToTheHead() {
        rooms.add(CHAT, room);
        store.save(CHAT, Position.of("old", 5));
        receive(ResetFrame.epochMismatch(CHAT, Position.of("ep", 40), 1));
        assertEquals(List.of("reset r:chat-1 epoch_mismatch"), seen);
        assertEquals(Optional.of(Position.of("ep", 40)), store.load(CHAT));
    }

    @Test
    void anUnsubscribeIsConfirmedByTheGatewayAndLaterEventsOfTheRoomAreDropped() {
        rooms.add(CHAT, room);
        rooms.remove(CHAT);
        receive(event(CHAT, 1));
        receive(new UnsubscribedFrame(CHAT));
        assertEquals(List.of("unsubscribed r:chat-1"), seen);
        assertEquals(1, counters.snapshot().unsubscribedDropped());
        assertEquals(Optional.empty(), store.load(CHAT));
    }

    @Test
    void userStreamsCannotBeSubscribedAsRooms() {
        assertThrows(IllegalArgumentException.class, () -> rooms.add(U42, room));
        assertThrows(IllegalArgumentException.class, () -> StreamId.forRoom("bad name"));
    }

    @Test
    void overSseTheRoomsGoInTheUrlAndOneCompositeCursorResumesThemAll() {
        Endpoints gw = Endpoints.of(URI.create("http://gw:8080"));
        assertEquals(URI.create("http://gw:8080/v1/sse"), gw.sse(List.of()));
        assertEquals(URI.create("http://gw:8080/v1/sse?rooms=chat-1,lobby&broadcast=true"),
                gw.sse(List.of(CHAT, StreamId.BROADCAST, StreamId.forRoom("lobby"))));
        assertEquals(URI.create("http://gw:8080/v1/sse?broadcast=true"), gw.sse(List.of(StreamId.BROADCAST)));

        store.save(U42, Position.of("uu", 17));
        assertEquals(Optional.of("uu:17"), handler.sseLastEventId(), "no rooms: the plain position");
        rooms.add(CHAT, room);
        rooms.add(StreamId.BROADCAST, room);
        store.save(CHAT, Position.of("ep", 4));
        Map<String, Position> cursor = SseCursor.parse(handler.sseLastEventId().orElseThrow());
        assertEquals(Map.of(SseCursor.key(U42), Position.of("uu", 17), SseCursor.key(CHAT), Position.of("ep", 4)), cursor,
                "b:all has no position yet: it starts at its head");
    }
}
