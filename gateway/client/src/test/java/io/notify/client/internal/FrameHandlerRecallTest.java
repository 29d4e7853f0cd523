package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.notify.client.ClientEvent;
import io.notify.client.NotifyClientException;
import io.notify.client.NotifyListener;
import io.notify.client.RoomListener;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.frame.AckFrame;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.Frame;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Recall through the real codec (docs/protocol.md, "Recall"): a {@code recalled} frame tells
 * {@code onRecalled} with the event's id and moves no position (no ack, no resync); a {@code collapsed}
 * frame with reason {@code recalled} tells {@code onRecalled} without id (whose default passes it on to
 * {@code onCollapsed}), and moves the position like any collapsed range; rooms hear of theirs through
 * their {@link RoomListener}.
 */
class FrameHandlerRecallTest extends HandlerFixture {

    private static final StreamId CHAT = StreamId.forRoom("chat-1");

    private final NotifyListener listener = new NotifyListener() {
        @Override
        public void onEvent(ClientEvent event) {
            seen.add(event.stream() + " " + event.id());
        }

        @Override
        public void onCollapsed(StreamId stream, long from, long to) {
            seen.add(stream + " collapsed " + from + ".." + to);
        }

        @Override
        public void onRecalled(StreamId stream, long seq, Optional<String> id) {
            seen.add(stream + " recalled " + seq + " " + id.orElse("-") + " stored=" + stored(stream));
        }
    };

    private final FrameHandler handler = handlerOf(listener);

    private FrameHandler.Outcome receive(Frame frame) {
        return receive(handler, frame);
    }

    private static EventFrame event(StreamId stream, long seq) {
        return new EventFrame(stream, "ep", seq, "ev-" + seq, "demo.hello", EventClass.DURABLE, null, null);
    }

    private void welcome() {
        receive(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 5_000, 1));
        handler.takeAcks();
    }

    @Test
    void aRecalledFrameTellsTheListenerWithTheIdAndMovesNothing() {
        welcome();
        receive(event(U42, 1));
        receive(event(U42, 2));
        handler.takeAcks();
        assertFalse(receive(new RecalledFrame(U42, "ep", 1, "ev-1")).resync());
        assertEquals(List.of(), handler.takeAcks(), "nothing to ack: no position moved");
        assertEquals(Optional.of(Position.of("ep", 2)), store.load(U42));
        assertFalse(receive(event(U42, 3)).resync(), "3 follows 2");
        assertEquals(List.of("u:42 ev-1", "u:42 ev-2", "u:42 recalled 1 ev-1 stored=ep:2", "u:42 ev-3"), seen);
        assertEquals(3, counters.snapshot().delivered(), "a recall is not an event");
        assertEquals(0, counters.snapshot().collapsedSkipped());
        assertEquals(List.of(), errors);
    }

    @Test
    void aCollapsedFrameWithReasonRecalledIsToldAsRecalledWithoutIdAndIsAPosition() {
        welcome();
        for (Frame f : List.of(event(U42, 1), new CollapsedFrame(U42, "ep", 2, 2, CollapsedFrame.Reason.RECALLED), event(U42, 3))) {
            assertFalse(receive(f).resync(), "no gap at " + f);
        }
        assertEquals(List.of("u:42 ev-1", "u:42 recalled 2 - stored=ep:1", "u:42 ev-3"), seen,
                "told before the position moves, instead of onCollapsed");
        assertEquals(Optional.of(Position.of("ep", 3)), store.load(U42));
        assertEquals(List.of(new AckFrame(U42, 3)), handler.takeAcks());
        assertEquals(1, counters.snapshot().collapsedSkipped());
    }

    @Test
    void aRoomsRecallsGoToItsListener_oneOfAStreamNotHeldIsDropped() {
        List<String> chat = new ArrayList<>();
        rooms.add(CHAT, new RoomListener() {
            @Override
            public void onEvent(ClientEvent event) {
                chat.add(event.id());
            }

            @Override
            public void onRecalled(StreamId stream, long seq, Optional<String> id) {
                chat.add("recalled " + seq + " " + id.orElse("-"));
            }
        });
        welcome();
        receive(new SubscribedFrame(CHAT, Position.of("ep", 10)));
        receive(event(CHAT, 11));
        receive(new RecalledFrame(CHAT, "ep", 11, "ev-11"));
        receive(new CollapsedFrame(CHAT, "ep", 12, 12, CollapsedFrame.Reason.RECALLED));
        receive(new RecalledFrame(StreamId.forRoom("left"), "ep", 1, "ev-1"));
        assertEquals(List.of("ev-11", "recalled 11 ev-11", "recalled 12 -"), chat);
        assertEquals(Optional.of(Position.of("ep", 12)), store.load(CHAT));
        assertEquals(1, counters.snapshot().unsubscribedDropped());
        assertEquals(List.of(), seen, "the user's listener hears nothing of a room");
    }

    @Test
    void anApplicationThatOverridesOnlyOnCollapsedHearsOfTheCollapsedSeqThereAsNotifyJsReportsIt() {
        FrameHandler onlyCollapsed = handlerOf(new NotifyListener() {
            @Override
            public void onEvent(ClientEvent event) {
                seen.add(event.id());
            }

            @Override
            public void onCollapsed(StreamId stream, long from, long to) {
                seen.add(stream + " collapsed " + from + ".." + to);
            }
        });
        List<String> chat = new ArrayList<>();
        rooms.add(CHAT, collapsedRecorder(chat));
        onlyCollapsed.handle(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 5_000, 1), ws);
        for (ServerFrame f : List.<ServerFrame>of(event(U42, 1), new RecalledFrame(U42, "ep", 1, "ev-1"),
                new CollapsedFrame(U42, "ep", 2, 2, CollapsedFrame.Reason.RECALLED), event(U42, 3),
                new SubscribedFrame(CHAT, Position.of("ep", 10)), new CollapsedFrame(CHAT, "ep", 11, 11, CollapsedFrame.Reason.RECALLED))) {
            onlyCollapsed.handle(f, ws);
        }
        assertEquals(List.of("ev-1", "u:42 collapsed 2..2", "ev-3"), seen, "the recalled frame (an event it was sent) is not a collapse");
        assertEquals(List.of("collapsed 11..11"), chat);
        assertEquals(Optional.of(Position.of("ep", 3)), store.load(U42));
        assertEquals(List.of(), errors);
    }

    @Test
    void aThrowingOnRecalledIsReportedAndTheClientGoesOn() {
        FrameHandler throwing = handlerOf(new NotifyListener() {
            @Override
            public void onEvent(ClientEvent event) {
                seen.add(event.id());
            }

            @Override
            public void onRecalled(StreamId stream, long seq, Optional<String> id) {
                throw new IllegalStateException("boom");
            }
        });
        throwing.handle(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 5_000, 1), ws);
        throwing.handle(event(U42, 1), ws);
        throwing.handle(new RecalledFrame(U42, "ep", 1, "ev-1"), ws);
        throwing.handle(new CollapsedFrame(U42, "ep", 2, 2, CollapsedFrame.Reason.RECALLED), ws);
        throwing.handle(event(U42, 3), ws);
        assertEquals(2, errors.size());
        assertEquals(NotifyClientException.Kind.LISTENER, errors.get(0).kind());
        assertEquals(List.of("ev-1", "ev-3"), seen);
        assertEquals(Optional.of(Position.of("ep", 3)), store.load(U42));
    }
}
