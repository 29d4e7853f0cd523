package io.notify.client.internal;

import io.notify.client.ClientEvent;
import io.notify.client.NotifyClientException;
import io.notify.client.NotifyListener;
import io.notify.client.RoomListener;
import io.notify.client.TransportMode;
import io.notify.client.store.InMemoryPositionStore;
import io.notify.protocol.frame.Frame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;

/**
 * What the protocol handler's tests share: a position store, what the listeners were told, the
 * errors reported, the counters, the subscriptions, and a WebSocket that records what the client sent.
 */
abstract class HandlerFixture {

    static final StreamId U42 = StreamId.forUser("42");

    final InMemoryPositionStore store = new InMemoryPositionStore();
    final List<String> seen = new ArrayList<>();
    final List<NotifyClientException> errors = new ArrayList<>();
    final ClientCounters counters = new ClientCounters();
    final Rooms rooms = new Rooms();
    final FakeTransport ws = new FakeTransport(TransportMode.WEBSOCKET);

    /** {@code frame} handed to {@code handler} through the real codec, as the loop decodes it. */
    FrameHandler.Outcome receive(FrameHandler handler, Frame frame) {
        return handler.handle(FrameCodec.v1().decodeServerFrame(FrameCodec.v1().encode(frame)), ws);
    }

    /** A handler telling {@code listener}, over this fixture's store, errors, counters and rooms. */
    FrameHandler handlerOf(NotifyListener listener) {
        return new FrameHandler(listener, new StreamPositions(store), errors::add, counters, rooms);
    }

    /** A room's listener that writes its events' ids and its collapsed ranges ("collapsed from..to") to {@code into}. */
    static RoomListener collapsedRecorder(List<String> into) {
        return new RoomListener() {
            @Override
            public void onEvent(ClientEvent event) {
                into.add(event.id());
            }

            @Override
            public void onCollapsed(StreamId stream, long from, long to) {
                into.add("collapsed " + from + ".." + to);
            }
        };
    }

    /** The stored position of {@code stream}, formatted, or "none". */
    String stored(StreamId stream) {
        return store.load(stream).map(Position::format).orElse("none");
    }
}
