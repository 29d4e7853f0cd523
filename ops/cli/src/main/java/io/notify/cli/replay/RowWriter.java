package io.notify.cli.replay;

import java.io.IOException;
import java.util.Set;

/** Writes rows in one output format. Not thread-safe; the caller closes the underlying stream. */
interface RowWriter {

    void write(Row row) throws IOException;

    /** Pushes buffered lines to the sink (tail calls it after every batch). */
    void flush() throws IOException;

    /** The value paths this format reads, so the scanner picks them out. */
    Set<String> paths();
}
