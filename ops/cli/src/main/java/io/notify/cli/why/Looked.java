package io.notify.cli.why;

import java.time.Instant;
import java.util.List;

/**
 * What one look at one topic found: the records that matched, and where and over which time span it
 * looked, so a step without a record can say so precisely ("not found in notify.stream-log between
 * … and …"). A topic that does not exist, or that was not read because an earlier step made it
 * pointless, is said apart from a read that found nothing.
 */
record Looked<T>(String topic, Instant from, Instant to, State state, List<T> records) {

    /** Whether the topic was read. */
    enum State { READ, MISSING, SKIPPED }

    Looked {
        records = List.copyOf(records);
    }

    static <T> Looked<T> read(String topic, Instant from, Instant to, List<T> records) {
        return new Looked<>(topic, from, to, State.READ, records);
    }

    static <T> Looked<T> missing(String topic) {
        return new Looked<>(topic, null, null, State.MISSING, List.of());
    }

    static <T> Looked<T> skipped(String topic) {
        return new Looked<>(topic, null, null, State.SKIPPED, List.of());
    }

    boolean isEmpty() {
        return records.isEmpty();
    }

    T first() {
        return records.get(0);
    }
}
