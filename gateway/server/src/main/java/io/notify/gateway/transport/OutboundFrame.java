package io.notify.gateway.transport;

import io.notify.gateway.metrics.HopStamps;
import io.notify.protocol.event.Channel;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import java.nio.charset.StandardCharsets;

/**
 * One server frame encoded once (UTF-8 JSON, one line) and shared by every connection it goes to.
 *
 * @param kind        decides what happens when a connection's queue is full
 * @param payload     the frame's JSON; for {@link Kind#SSE_META} the raw SSE bytes (a comment or a
 *                    {@code retry:} line) that only the SSE transport writes
 * @param sseId       the SSE {@code id:} value: a position, "" (clears Last-Event-ID), or null (no id line)
 * @param collapseKey droppable frames with the same key may replace each other in a full queue (the newer in the
 *                    older's place): for events and state frames a key scoped to their stream
 *                    ({@link #eventCoalescingKey}, {@link #stateCoalescingKey}), so one stream's frame never
 *                    displaces another stream's, and no event displaces a state frame
 * @param ingestedAt  epoch ms the event entered Notify, for the latency metric; -1 when not a live event
 * @param hops        the live event's per-hop stamps (node-topic path), for the hop latency metric; null otherwise
 */
public record OutboundFrame(Kind kind, byte[] payload, String sseId, String collapseKey, long ingestedAt, HopStamps hops) {

    public OutboundFrame(Kind kind, byte[] payload, String sseId, String collapseKey, long ingestedAt) {
        this(kind, payload, sseId, collapseKey, ingestedAt, null);
    }

    /** This frame with another SSE id (the payload is shared, not copied). */
    public OutboundFrame withSseId(String id) {
        return new OutboundFrame(kind, payload, id, collapseKey, ingestedAt, hops);
    }

    /** How a frame is treated by a full queue. */
    public enum Kind {
        /** welcome, reset, ping, pong: never dropped; overflow closes the connection. */
        CONTROL,
        /** A durable event (or a collapsed frame): never dropped; overflow closes with 4008 (the client resumes, nothing lost). */
        DURABLE,
        /** An ephemeral event: coalesced by collapse key or dropped on overflow. */
        EPHEMERAL,
        /** SSE keep-alive comment or retry hint: written by SSE only, dropped on overflow. */
        SSE_META,
        /** A WebSocket pong answering a client's ping (payload: the ping's data): written by WebSocket only, dropped on overflow. */
        WS_PONG
    }

    private static final FrameCodec CODEC = FrameCodec.v1();

    public int size() {
        return payload.length;
    }

    /** A control frame (welcome, reset, ping, pong) with its SSE id as {@link FrameCodec#sseId} defines it. */
    public static OutboundFrame control(ServerFrame frame) {
        return new OutboundFrame(Kind.CONTROL, CODEC.encode(frame).getBytes(StandardCharsets.UTF_8),
                CODEC.sseId(frame).orElse(null), null, -1);
    }

    /** The client's view of an event; {@code live} events feed the latency metric when written. */
    public static OutboundFrame event(StreamEvent event, boolean live) {
        return event(event, live, null);
    }

    /**
     * A live event from the node topic, with the stamps its record carried. A durable event the user's
     * preferences muted for live delivery (docs/inbox.md, "Preferences") goes as a {@code collapsed} frame
     * of its one seq with reason {@code muted}: the client's position moves past it, its content stays in
     * the inbox. One that expired before it is sent (docs/protocol.md, "Expiry") goes the same way with
     * reason {@code expired}, and one its producer recalled (docs/protocol.md, "Recall": the inbox keeps its
     * seq without content) with reason {@code recalled}.
     */
    public static OutboundFrame event(StreamEvent event, boolean live, HopStamps hops) {
        if (event instanceof SequencedEvent s) {
            CollapsedFrame.Reason withheld = s.recalled() ? CollapsedFrame.Reason.RECALLED
                    : s.isMuted(Channel.LIVE) ? CollapsedFrame.Reason.MUTED
                    : s.expiredAt(System.currentTimeMillis()) ? CollapsedFrame.Reason.EXPIRED : null;
            if (withheld != null) {
                CollapsedFrame frame = new CollapsedFrame(s.stream(), s.epoch(), s.seq(), s.seq(), withheld);
                return new OutboundFrame(Kind.DURABLE, CODEC.encode(frame).getBytes(StandardCharsets.UTF_8), frame.position().format(),
                        null, -1, hops);
            }
        }
        EventFrame frame = EventFrame.of(event);
        byte[] json = CODEC.encode(frame).getBytes(StandardCharsets.UTF_8);
        long ingested = live ? event.ingestedAt() : -1;
        if (event.isDurable()) {
            return new OutboundFrame(Kind.DURABLE, json, CODEC.sseId(frame).orElse(null), null, ingested, hops);
        }
        return new OutboundFrame(Kind.EPHEMERAL, json, null, eventCoalescingKey(event.stream(), ((LiveEvent) event).collapseKey()),
                ingested, hops);
    }

    /** The coalescing key of an ephemeral event: its stream and its producer's collapse key; null (never coalesced) without one. */
    static String eventCoalescingKey(StreamId stream, String collapseKey) {
        // '|' never occurs in a stream id, so "<stream>|event|<key>" cannot equal another stream's key or a state key
        return collapseKey == null ? null : stream.value() + "|event|" + collapseKey;
    }

    /** The coalescing key of a stream's {@code state} frames: a full queue keeps only the newest per stream. */
    public static String stateCoalescingKey(StreamId stream) {
        return stream.value() + "|state";
    }

    /**
     * A {@code collapsed} frame (seqs a catching-up client gets as one marker): durable like the events it
     * stands in for (never dropped; overflow closes with 4008), its SSE id the position it moves the
     * client to, {@code to} (a connection with rooms replaces it with its composite cursor).
     */
    public static OutboundFrame collapsed(CollapsedFrame frame) {
        return new OutboundFrame(Kind.DURABLE, CODEC.encode(frame).getBytes(StandardCharsets.UTF_8),
                frame.position().format(), null, -1);
    }

    /**
     * An inbox {@code state} frame: not an event but ephemeral like one, no SSE id (it is no position),
     * and a full queue replaces a queued state frame of the same stream with it (the newer wins,
     * {@link #stateCoalescingKey}) or drops it.
     */
    public static OutboundFrame state(StateFrame frame) {
        return ephemeral(frame, stateCoalescingKey(frame.stream()));
    }

    /**
     * A {@code recalled} frame: ephemeral like a state frame, no SSE id (it is no position); a full queue drops it
     * or puts it in the place of a queued copy of the same recall, never of another seq's, an event or a state frame.
     */
    public static OutboundFrame recalled(RecalledFrame frame) {
        return ephemeral(frame, frame.stream().value() + "|recalled|" + frame.epoch() + ":" + frame.seq());
    }

    /**
     * A server frame that is ephemeral like an event: no SSE id, and a full queue replaces a queued
     * frame of the same {@code collapseKey} with it (the newer wins) or drops it.
     */
    static OutboundFrame ephemeral(ServerFrame frame, String collapseKey) {
        return new OutboundFrame(Kind.EPHEMERAL, CODEC.encode(frame).getBytes(StandardCharsets.UTF_8), null, collapseKey, -1);
    }

    public static OutboundFrame sseMeta(String rawSse, String collapseKey) {
        return new OutboundFrame(Kind.SSE_META, rawSse.getBytes(StandardCharsets.US_ASCII), null, collapseKey, -1);
    }

    /** The pong answering a WebSocket client's ping with {@code data}. */
    public static OutboundFrame wsPong(byte[] data) {
        return new OutboundFrame(Kind.WS_PONG, data, null, null, -1);
    }

    public boolean droppable() {
        return kind == Kind.EPHEMERAL || kind == Kind.SSE_META || kind == Kind.WS_PONG;
    }
}
