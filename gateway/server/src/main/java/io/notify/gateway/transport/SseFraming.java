package io.notify.gateway.transport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The exact bytes of the SSE stream (docs/protocol.md §1): one frame is an optional
 * {@code id: <position>} line (a bare {@code id:} line when the id is "", which clears the
 * browser's Last-Event-ID), one {@code data: <json>} line and a blank line. The retry hint is
 * {@code retry: <ms>} and a keep-alive is the comment line {@code :}. Frames are single-line JSON
 * ({@code FrameCodec} guarantees it), so one data line always suffices.
 */
public final class SseFraming {

    private static final byte[] ID = "id: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY_ID = "id:\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);

    /** The keep-alive comment. */
    public static final String KEEP_ALIVE = ":\n\n";

    private SseFraming() {
    }

    public static String retry(long millis) {
        return "retry: " + millis + "\n\n";
    }

    /** The bytes of one frame on the SSE stream. */
    public static ByteBuffer encode(OutboundFrame frame) {
        if (frame.kind() == OutboundFrame.Kind.SSE_META) {
            return ByteBuffer.wrap(frame.payload());
        }
        String id = frame.sseId();
        byte[] idBytes = id == null ? null : id.getBytes(StandardCharsets.US_ASCII);
        int size = (id == null ? 0 : id.isEmpty() ? EMPTY_ID.length : ID.length + idBytes.length + 1)
                + DATA.length + frame.payload().length + END.length;
        ByteBuffer out = ByteBuffer.allocate(size);
        if (id != null && id.isEmpty()) {
            out.put(EMPTY_ID);
        } else if (id != null) {
            out.put(ID).put(idBytes).put((byte) '\n');
        }
        out.put(DATA).put(frame.payload()).put(END);
        return out.flip();
    }
}
