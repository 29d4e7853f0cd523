package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.Endpoints;
import io.notify.protocol.stream.StreamId;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * First frame on every connection, server to client: which protocol is spoken, where the
 * connection lives (for support and logs), which streams it serves (so a client learns its stream
 * ids before it has a position), how often to expect {@code ping}, and the server clock in epoch ms
 * (clients may estimate skew from it).
 */
@JsonPropertyOrder({"protocol", "nodeId", "connectionId", "streams", "pingIntervalMs", "serverTime"})
public record WelcomeFrame(String protocol, String nodeId, String connectionId, List<StreamId> streams,
                           long pingIntervalMs, long serverTime) implements ServerFrame {

    public static final String PROTOCOL_V1 = "notify.v1";
    public static final Pattern PROTOCOL = Pattern.compile("^notify\\.v[1-9][0-9]{0,2}$");
    public static final long MIN_PING_INTERVAL_MS = 1_000;
    public static final long MAX_PING_INTERVAL_MS = 300_000;
    /** The least slack a client allows a ping beyond its interval (docs/protocol.md §4). */
    public static final long MIN_SILENCE_SLACK_MS = 3_000;

    /**
     * Protocol §4: a client treats its connection as dead when no frame of any kind arrived for
     * {@code pingIntervalMs + max(3 s, pingIntervalMs / 2)}: one ping interval plus slack for a late
     * ping (8 s at the default 5 s interval, so clients of a frozen node move within 10 s).
     */
    public static long clientSilenceMs(long pingIntervalMs) {
        return pingIntervalMs + Math.max(MIN_SILENCE_SLACK_MS, pingIntervalMs / 2);
    }

    public WelcomeFrame {
        if (protocol == null || !PROTOCOL.matcher(protocol).matches()) {
            throw new IllegalArgumentException("protocol must look like 'notify.v1', got '" + FrameTexts.clip(protocol) + "'");
        }
        if (nodeId == null || !Endpoints.NODE_ID.matcher(nodeId).matches()) {
            throw new IllegalArgumentException("nodeId must be 1..64 chars of [A-Za-z0-9._-], got '" + FrameTexts.clip(nodeId) + "'");
        }
        if (connectionId == null || !Endpoints.CONNECTION_ID.matcher(connectionId).matches()) {
            throw new IllegalArgumentException("connectionId must be 1..64 chars of [A-Za-z0-9._-], got '"
                    + FrameTexts.clip(connectionId) + "'");
        }
        if (streams == null || streams.isEmpty() || streams.size() > ResumeFrame.MAX_STREAMS) {
            throw new IllegalArgumentException("streams must name 1.." + ResumeFrame.MAX_STREAMS + " streams");
        }
        streams = List.copyOf(streams);
        if (new HashSet<>(streams).size() != streams.size()) {
            throw new IllegalArgumentException("streams holds a duplicate stream");
        }
        if (pingIntervalMs < MIN_PING_INTERVAL_MS || pingIntervalMs > MAX_PING_INTERVAL_MS) {
            throw new IllegalArgumentException("pingIntervalMs must be " + MIN_PING_INTERVAL_MS + ".."
                    + MAX_PING_INTERVAL_MS + ", got " + pingIntervalMs);
        }
        if (serverTime < 0) {
            throw new IllegalArgumentException("serverTime must be epoch ms >= 0, got " + serverTime);
        }
    }

    /** A {@code notify.v1} welcome. */
    public static WelcomeFrame v1(String nodeId, String connectionId, List<StreamId> streams, long pingIntervalMs,
                                  long serverTime) {
        return new WelcomeFrame(PROTOCOL_V1, nodeId, connectionId, streams, pingIntervalMs, serverTime);
    }

    @Override
    public FrameType frameType() {
        return FrameType.WELCOME;
    }
}
