package io.notify.cli.bench;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Benchmark events of a fixed serialized size: the same JSON envelope is sent to ingest and, as
 * raw bytes, by the baseline producer, so both move the same number of bytes per event. Bodies
 * are stamped from a pre-built template (only the id changes) so the load generator spends its
 * CPU on sending, not on building strings.
 */
final class BenchEvents {

    private static final byte[] HEAD = "{\"id\":\"".getBytes(StandardCharsets.US_ASCII);
    private final byte[] tailTemplate;
    private final int size;

    BenchEvents(int size) {
        this.size = size;
        String mid = "\",\"type\":\"bench.event\",\"to\":{\"users\":[\"u42\"]},\"class\":\"durable\",\"data\":{\"pad\":\"";
        String end = "\"}}";
        // ids are ~24 bytes; the pad makes the whole event `size` bytes.
        int pad = Math.max(0, size - HEAD.length - 24 - mid.length() - end.length());
        this.tailTemplate = (mid + "x".repeat(pad) + end).getBytes(StandardCharsets.US_ASCII);
    }

    int size() {
        return size;
    }

    byte[] value(String id) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + 16);
        write(out, id);
        return out.toByteArray();
    }

    byte[] ndjson(String idPrefix, int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(count * (size + 17));
        for (int i = 0; i < count; i++) {
            write(out, idPrefix + i);
            out.write('\n');
        }
        return out.toByteArray();
    }

    private void write(ByteArrayOutputStream out, String id) {
        out.writeBytes(HEAD);
        out.writeBytes(id.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(tailTemplate);
    }
}
