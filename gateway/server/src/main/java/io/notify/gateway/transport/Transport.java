package io.notify.gateway.transport;

import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * One client connection as the session sees it, whatever carries it (WebSocket or SSE), so session
 * logic never knows which: what differs (SSE's start from {@code Last-Event-ID}, its retry hint, its
 * composite cursor as the {@code id:} of positioned frames) is the transport's. Guarantees:
 * {@link #send} never blocks and writes frames in the order they were accepted, through a queue
 * bounded in frames and bytes; {@link #close} is idempotent, discards frames not yet written and ends
 * the connection (WebSocket: close frame with the code; SSE: the stream ends); the listener's
 * {@code closed} runs exactly once, whoever closed.
 */
public interface Transport {

    /**
     * Everything a connection reports to its session, the same for both transports; callbacks run on
     * the connection's I/O thread ({@link #resume} within {@link #start}). A transport reports only
     * what it carries: SSE has no client frames, WebSocket no start of its own.
     */
    interface Listener {
        /**
         * Where the client stands, said by the transport rather than by a {@code resume} frame (SSE: its
         * {@code Last-Event-ID} and {@code ?rooms=}): a resume with {@code positions}, then a subscribe
         * at the head of each stream of {@code fresh}.
         */
        default void resume(List<ResumePoint> positions, List<String> fresh) {
        }

        /** A client message (WebSocket); its frames took their inbound-rate tokens in the transport. */
        default void text(String text) {
        }

        /** A WebSocket-level pong (browsers' automatic answers count as liveness too). */
        default void pong() {
        }

        /** A frame reached the socket (for the latency metric). */
        void written(OutboundFrame frame);

        /** The connection is gone; {@code code} is the close code sent or received, 1006 when it just dropped. */
        void closed(int code);
    }

    /**
     * Where the client stands in each stream its connection follows, for a transport whose frames say
     * so (SSE's composite {@code id:}, {@code SseCursor}).
     */
    interface Positions {
        /** How many streams the connection follows, its own included. */
        int streams();

        /** Each stream with its position (null: none yet), the connection's own first, then in subscribe order. */
        void forEach(BiConsumer<StreamId, Position> each);
    }

    /** "ws" or "sse": a metric tag. */
    String kind();

    /** False for SSE: the client cannot send frames, so it never answers a ping. */
    boolean bidirectional();

    void listener(Listener listener);

    /**
     * Starts the connection's inbound side, once its listener is set: WebSocket reads client frames;
     * SSE writes its retry hint and reports where its request said the client stands
     * ({@link Listener#resume}).
     */
    default void start() {
    }

    OutboundQueue.Offer send(OutboundFrame frame);

    /**
     * Enqueues a frame that moves the client to {@code position} in {@code stream} (an event, a
     * {@code collapsed} run, a reset, a {@code subscribed} with a head; null: a reset to no history);
     * {@code streams} says where it stands in the others. Without a cursor of its own (WebSocket) the
     * transport sends the frame as it is.
     */
    default OutboundQueue.Offer send(OutboundFrame frame, Positions streams, StreamId stream, Position position) {
        return send(frame);
    }

    void close(CloseCode code);

    /** As {@link #close(CloseCode)} with a specific reason text (WebSocket only; clipped to 123 bytes). */
    void close(CloseCode code, String reason);

    boolean isOpen();

    /**
     * The node's sweeper pass ({@code session.LivenessSweeper}, under the session's lock) for the
     * transport's own timers, such as SSE keep-alives; never blocks.
     */
    default void tick(long nowNanos) {
    }
}
