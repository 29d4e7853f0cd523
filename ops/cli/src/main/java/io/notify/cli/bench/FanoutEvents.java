package io.notify.cli.bench;

import java.nio.charset.StandardCharsets;

/**
 * Events of the fan-out benchmark: valid v1 envelopes for one durable recipient each, padded so
 * that every serialized value is {@code size} bytes (as long as id and user fit), which is also
 * what the baseline relay copies. User ids are {@code user-<n>}; their stream is {@code u:user-<n>}.
 */
final class FanoutEvents {

    private static final String HEAD = "{\"id\":\"";
    private static final String TO = "\",\"type\":\"bench.fanout\",\"to\":{\"users\":[\"";
    private static final String DATA = "\"]},\"class\":\"durable\",\"data\":{\"pad\":\"";
    private static final String END = "\"}}";
    private static final int FIXED = HEAD.length() + TO.length() + DATA.length() + END.length();

    private final int size;

    FanoutEvents(int size) {
        if (size < FIXED + 16) {
            throw new IllegalArgumentException("--event-bytes must be at least " + (FIXED + 16) + ", was " + size);
        }
        this.size = size;
    }

    static String user(int index) {
        return "user-" + index;
    }

    int size() {
        return size;
    }

    byte[] value(String id, String user) {
        int pad = Math.max(0, size - FIXED - id.length() - user.length());
        StringBuilder b = new StringBuilder(size);
        b.append(HEAD).append(id).append(TO).append(user).append(DATA);
        b.append("x".repeat(pad)).append(END);
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
