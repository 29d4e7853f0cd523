package io.notify.protocol.frame;

import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SSE {@code id:} (and so the browser's {@code Last-Event-ID}) of a connection that serves
 * rooms besides the user's stream: one cursor for all of them (docs/protocol.md §8, "SSE").
 *
 * <p>Format: entries {@code <key>=<epoch>:<seq>} joined by {@code ,}, one per stream the connection
 * holds a position in, where {@code <key>} is {@link #key(StreamId)}: the stream id's 32-bit
 * {@code String.hashCode} with the sign bit cleared, in base 36 (1–6 characters). A stream is found
 * again by its key, so a reconnect whose {@code ?rooms=} list changed keeps the positions of the rooms
 * still in it. Example: {@code 1x0qk3=k3x9m2p8q7rdw5ta:17,hbd9c=q1w2e3r4t5y6u7i8:4}. A plain
 * {@link Position} ({@code <epoch>:<seq>}, no {@code =}) is the id of a connection without rooms, as
 * before rooms existed. Worst case at 100 streams with 64-character epochs: 8,900 characters, under
 * the gateway's 16 KiB request-header cap; with the usual 16-character epochs about 2,700. Every
 * character is visible ASCII: safe in an SSE id line and an HTTP header.
 */
public final class SseCursor {

    /** Longest cursor accepted: 100 entries of the longest form. */
    public static final int MAX_CHARS = ResumeFrame.MAX_STREAMS * (6 + 1 + Position.MAX_FORMATTED_LENGTH + 1);

    private SseCursor() {
    }

    /** The key of a stream inside a cursor. */
    public static String key(StreamId stream) {
        return Integer.toString(stream.value().hashCode() & 0x7fffffff, 36);
    }

    /** Whether {@code lastEventId} is a cursor (else a plain position, or empty). */
    public static boolean isCursor(String lastEventId) {
        return lastEventId != null && lastEventId.indexOf('=') >= 0;
    }

    /** Appends the entry of {@code stream} at {@code position} to {@code out} (with a separating comma when needed). */
    public static void append(StringBuilder out, StreamId stream, Position position) {
        if (out.length() > 0) {
            out.append(',');
        }
        out.append(key(stream)).append('=').append(position.epoch()).append(':').append(position.seq());
    }

    /** Parses a cursor: key → position, in the cursor's order; every error names what is wrong. */
    public static Map<String, Position> parse(String text) {
        if (text.length() > MAX_CHARS) {
            throw new IllegalArgumentException("cursor is " + text.length() + " chars; at most " + MAX_CHARS);
        }
        Map<String, Position> out = new LinkedHashMap<>();
        for (String entry : text.split(",", -1)) {
            int eq = entry.indexOf('=');
            String key = eq < 0 ? "" : entry.substring(0, eq);
            if (key.isEmpty() || key.length() > 6 || !key.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'z')) {
                throw new IllegalArgumentException("cursor entry '" + FrameTexts.clip(entry) + "' is not <key>=<epoch>:<seq>");
            }
            if (out.put(key, Position.parse(entry.substring(eq + 1))) != null) {
                throw new IllegalArgumentException("cursor names key " + key + " twice");
            }
        }
        if (out.size() > ResumeFrame.MAX_STREAMS) {
            throw new IllegalArgumentException("cursor holds " + out.size() + " entries; at most " + ResumeFrame.MAX_STREAMS);
        }
        return out;
    }
}
