package io.notify.cli.bench;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Benchmark events of a fixed serialized size: the same JSON envelope is sent to ingest and, as
 * raw bytes, by the baseline producer, so both move the same number of bytes per event. Bodies
 * are stamped from pre-built parts (only the id and the pad's slice change) so the load generator
 * spends its CPU on sending, not on building strings. The pad is a random slice of a 16 MiB block
 * of base64 characters, different for every event, so a batch does not compress much (about
 * 1.3:1, like real payloads with ids and text) where a repeated pad would compress 100:1 and
 * flatter every producer that compresses.
 */
final class BenchEvents {

    private static final byte[] HEAD = "{\"id\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MID = "\",\"type\":\"bench.event\",\"to\":{\"users\":[\"u42\"]},\"class\":\"durable\",\"data\":{\"pad\":\""
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\"}}".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NOISE = noise(16 << 20);
    private final int size;
    private final int pad;

    BenchEvents(int size) {
        this.size = size;
        // ids are ~24 bytes; the pad makes the whole event `size` bytes.
        this.pad = Math.min(NOISE.length, Math.max(0, size - HEAD.length - 24 - MID.length - END.length));
    }

    /** Base64 characters from a fixed seed (JSON-safe, about 6 bits of entropy per byte). */
    private static byte[] noise(int n) {
        byte[] alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".getBytes(StandardCharsets.US_ASCII);
        SplittableRandom random = new SplittableRandom(20261201);
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return out;
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
        out.writeBytes(MID);
        out.write(NOISE, ThreadLocalRandom.current().nextInt(NOISE.length - pad + 1), pad);
        out.writeBytes(END);
    }
}
