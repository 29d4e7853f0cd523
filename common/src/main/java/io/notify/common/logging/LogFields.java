package io.notify.common.logging;

import java.util.Arrays;
import org.slf4j.MDC;

/**
 * Ids put into the MDC around one log statement, so a JSON log line carries them as fields
 * ({@code "mdc": {"node": ..., "connection": ..., "stream": ...}}) and operators can filter by them:
 *
 * <pre>{@code
 * try (LogFields f = LogFields.of(LogFields.CONNECTION, id, LogFields.STREAM, stream)) {
 *     LOG.warn("connection {}: ...", id);
 * }
 * }</pre>
 *
 * Set and cleared on the thread that logs (the MDC is per thread), and only around a log call,
 * never on a per-frame path; closing restores what the keys held before, so they nest.
 */
public final class LogFields implements AutoCloseable {

    /** The gateway node id ({@code notify.gateway.node-id}). */
    public static final String NODE = "node";
    /** A gateway connection's id (the one in its {@code welcome} frame). */
    public static final String CONNECTION = "connection";
    /** A stream id ({@code u:<user>}, {@code r:<room>}, {@code b:all}). */
    public static final String STREAM = "stream";

    private final String[] keyValues;
    private final String[] previous;

    private LogFields(String[] keyValues) {
        this.keyValues = keyValues;
        this.previous = new String[keyValues.length / 2];
        for (int i = 0; i < keyValues.length; i += 2) {
            previous[i / 2] = MDC.get(keyValues[i]);
            if (keyValues[i + 1] != null) {
                MDC.put(keyValues[i], keyValues[i + 1]);
            }
        }
    }

    /**
     * Puts {@code key, value, key, value, ...} into this thread's MDC until {@link #close}; a null
     * value leaves its key as it was.
     *
     * @throws IllegalArgumentException on an odd number of arguments
     */
    public static LogFields of(String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("LogFields.of takes key, value pairs, got " + Arrays.toString(keyValues));
        }
        return new LogFields(keyValues);
    }

    /** Restores what each key held before (removes the keys that were absent). */
    @Override
    public void close() {
        for (int i = 0; i < keyValues.length; i += 2) {
            String before = previous[i / 2];
            if (before == null) {
                MDC.remove(keyValues[i]);
            } else {
                MDC.put(keyValues[i], before);
            }
        }
    }
}
