package io.notify.cli.bench;

import io.notify.protocol.event.Fallback;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Events of the fan-out benchmark: valid v1 envelopes for {@code recipients} durable users each,
 * padded so that every serialized value is {@code size} bytes (as long as id and users fit), which
 * is also what the baseline relay copies. User ids are {@code user-<n>}; their stream is
 * {@code u:user-<n>}. With a {@link Fallback} every event also asks for an offline fallback
 * ({@code bench fallback}).
 */
final class FanoutEvents {

    private static final String HEAD = "{\"id\":\"";
    private static final String TO = "\",\"type\":\"bench.fanout\",\"to\":{\"users\":[\"";
    private static final String CLASS = "\"]},\"class\":\"durable\",";
    private static final String DATA = "\"data\":{\"pad\":\"";
    private static final String END = "\"}}";

    /** The envelope's bound on {@code to.users} (event-v1.schema.json). */
    static final int MAX_RECIPIENTS = 1000;

    private final int size;
    private final int recipients;
    private final String middle; // from the end of the users to the pad: class, fallback if any, data
    private final int fixed;

    FanoutEvents(int size) {
        this(size, 1);
    }

    FanoutEvents(int size, int recipients) {
        this(size, recipients, null);
    }

    /** Events of {@code size} bytes to {@code recipients} users each, asking for {@code fallback} (null: none). */
    FanoutEvents(int size, int recipients, Fallback fallback) {
        this.middle = CLASS + (fallback == null ? ""
                : "\"fallback\":{\"after\":\"" + fallback.after() + "\",\"channel\":\"" + fallback.channel() + "\"},") + DATA;
        this.fixed = HEAD.length() + TO.length() + middle.length() + END.length();
        if (size < fixed + 16) {
            throw new IllegalArgumentException("--event-bytes must be at least " + (fixed + 16) + ", was " + size);
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
        int pad = Math.max(0, size - fixed - id.length() - to.length());
        StringBuilder b = new StringBuilder(size);
        b.append(HEAD).append(id).append(TO).append(to).append(middle);
        b.append("x".repeat(pad)).append(END);
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
