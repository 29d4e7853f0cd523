package io.notify.cli.bench;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Events of the fan-out benchmark: valid v1 envelopes for {@code recipients} durable users each,
 * padded so that every serialized value is {@code size} bytes (as long as id and users fit), which
 * is also what the baseline relay copies. User ids are {@code user-<n>}; their stream is
 * {@code u:user-<n>}.
 */
final class FanoutEvents {

    private static final String HEAD = "{\"id\":\"";
    private static final String TO = "\",\"type\":\"bench.fanout\",\"to\":{\"users\":[\"";
    private static final String DATA = "\"]},\"class\":\"durable\",\"data\":{\"pad\":\"";
    private static final String END = "\"}}";
    private static final int FIXED = HEAD.length() + TO.length() + DATA.length() + END.length();

    /** The envelope's bound on {@code to.users} (event-v1.schema.json). */
    static final int MAX_RECIPIENTS = 1000;

    private final int size;
    private final int recipients;

    FanoutEvents(int size) {
        this(size, 1);
    }

    FanoutEvents(int size, int recipients) {
        if (size < FIXED + 16) {
            throw new IllegalArgumentException("--event-bytes must be at least " + (FIXED + 16) + ", was " + size);
        }
        if (recipients < 1 || recipients > MAX_RECIPIENTS) {
            throw new IllegalArgumentException("--recipients must be 1.." + MAX_RECIPIENTS + ", was " + recipients);
        }
        this.size = size;
        this.recipients = recipients;
    }

    int recipients() {
        return recipients;
    }

    static String user(int index) {
        return "user-" + index;
    }

    int size() {
        return size;
    }

    byte[] value(String id, String user) {
        return value(id, List.of(user));
    }

    byte[] value(String id, List<String> users) {
        String to = String.join("\",\"", users);
        int pad = Math.max(0, size - FIXED - id.length() - to.length());
        StringBuilder b = new StringBuilder(size);
        b.append(HEAD).append(id).append(TO).append(to).append(DATA);
        b.append("x".repeat(pad)).append(END);
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
