package io.notify.cli.bench;

import java.nio.charset.StandardCharsets;

/**
 * Benchmark events of a fixed serialized size: the same JSON envelope is sent to ingest and, as
 * raw bytes, by the baseline producer, so both move the same number of bytes per event.
 */
final class BenchEvents {

    private final int size;
    private final int users;

    BenchEvents(int size, int users) {
        this.size = size;
        this.users = users;
    }

    /** The event as ingest stores it (with the default class spelled out), padded to {@code size} bytes. */
    String json(String id) {
        String head = "{\"id\":\"" + id + "\",\"type\":\"bench.event\",\"to\":{\"users\":[\"u"
                + Math.floorMod(id.hashCode(), users) + "\"]},\"class\":\"durable\",\"data\":{\"pad\":\"";
        String tail = "\"}}";
        int pad = Math.max(0, size - head.length() - tail.length());
        return head + "x".repeat(pad) + tail;
    }

    byte[] value(String id) {
        return json(id).getBytes(StandardCharsets.UTF_8);
    }

    String ndjson(String idPrefix, int count) {
        StringBuilder sb = new StringBuilder(count * (size + 1));
        for (int i = 0; i < count; i++) {
            sb.append(json(idPrefix + i)).append('\n');
        }
        return sb.toString();
    }
}
