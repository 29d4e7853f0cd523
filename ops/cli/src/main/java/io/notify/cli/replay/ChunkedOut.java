package io.notify.cli.replay;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The output buffer of the row writers: lines are built straight into one growing byte buffer and
 * handed to the stream in chunks of about {@link #CHUNK} bytes, so each byte is copied once before
 * the system call and the stream needs no buffer of its own.
 */
final class ChunkedOut {

    static final int CHUNK = 1 << 16;

    private final OutputStream out;
    private final LineBuffer buf = new LineBuffer();

    ChunkedOut(OutputStream out) {
        this.out = out;
    }

    /** Where the current line is built; lines already complete sit before it. */
    LineBuffer buffer() {
        return buf;
    }

    /** Marks the end of a complete line; writes a chunk when enough has gathered. */
    void endLine() throws IOException {
        if (buf.length() >= CHUNK) {
            buf.writeTo(out);
            buf.reset();
        }
    }

    void flush() throws IOException {
        buf.writeTo(out);
        buf.reset();
        out.flush();
    }
}
