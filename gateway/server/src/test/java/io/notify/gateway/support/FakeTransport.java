package io.notify.gateway.support;

import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.transport.OutboundQueue;
import io.notify.gateway.transport.SseStart;
import io.notify.gateway.transport.SseTransport;
import io.notify.gateway.transport.Transport;
import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A transport in memory: "writes" each frame at once unless {@link #stall()}ed; records closes. Of
 * kind "sse" it does what {@code SseTransport} does for its session: reports its start
 * ({@link #startingAt}, none by default) when started, and ids positioned frames with the composite
 * cursor ({@link SseTransport#cursorId}); it writes no retry hint.
 */
public final class FakeTransport implements Transport {

    private final String kind;
    private final OutboundQueue queue;
    private final List<OutboundFrame> written = new ArrayList<>();
    private Listener listener;
    private boolean stalled;
    private CloseCode closedWith;
    private String closeReason;
    private SseStart start = SseStart.NONE;

    public FakeTransport(String kind, int maxFrames, long maxBytes) {
        this.kind = kind;
        this.queue = new OutboundQueue(maxFrames, maxBytes);
    }

    /** SSE: where the client's request says it stands, reported to the listener when started. */
    public FakeTransport startingAt(SseStart start) {
        this.start = start;
        return this;
    }

    @Override
    public void start() {
        if (!bidirectional()) {
            listener.resume(start.positions(), start.fresh());
        }
    }

    public synchronized void stall() {
        stalled = true;
    }

    @Override
    public String kind() {
        return kind;
    }

    @Override
    public boolean bidirectional() {
        return kind.equals("ws");
    }

    @Override
    public void listener(Listener listener) {
        this.listener = listener;
    }

    /** The socket takes frames again: writes what was queued meanwhile, and from now on each frame at once. */
    public synchronized void unstall() {
        stalled = false;
        drain();
    }

    @Override
    public synchronized OutboundQueue.Offer send(OutboundFrame frame) {
        OutboundQueue.Offer offer = queue.offer(frame);
        if (!stalled) {
            drain();
        }
        return offer;
    }

    @Override
    public OutboundQueue.Offer send(OutboundFrame frame, Positions streams, StreamId stream, Position position) {
        String cursor = bidirectional() ? null : SseTransport.cursorId(streams, stream, position);
        return send(cursor == null ? frame : frame.withSseId(cursor));
    }

    private void drain() {
        for (OutboundFrame f = queue.poll(); f != null; f = queue.poll()) {
            queue.written(f);
            written.add(f);
            listener.written(f);
        }
    }

    @Override
    public void close(CloseCode code) {
        close(code, code.reason());
    }

    @Override
    public void close(CloseCode code, String reason) {
        synchronized (this) {
            if (closedWith != null) {
                return;
            }
            closedWith = code;
            closeReason = reason;
            queue.close();
        }
        listener.closed(code.code());
    }

    @Override
    public synchronized boolean isOpen() {
        return closedWith == null;
    }

    public synchronized CloseCode closedWith() {
        return closedWith;
    }

    public synchronized String closeReason() {
        return closeReason;
    }

    public synchronized List<OutboundFrame> written() {
        return List.copyOf(written);
    }

    /** The frames written so far, decoded as a client would. */
    public synchronized List<ServerFrame> frames() {
        return written.stream().filter(f -> f.kind() != OutboundFrame.Kind.SSE_META)
                .map(f -> FrameCodec.v1().decodeServerFrame(new String(f.payload(), StandardCharsets.UTF_8))).toList();
    }
}
