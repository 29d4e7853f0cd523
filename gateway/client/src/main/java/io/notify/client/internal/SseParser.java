package io.notify.client.internal;

/**
 * The SSE line grammar (WHATWG "event stream interpretation") for one stream: fed line by line
 * (terminators already stripped), it reports each complete message on the blank line that ends
 * it. Handles {@code data} joined by '\n' over several lines, {@code id} (ignored when it holds a
 * NUL), {@code retry} (digits only), comments and unknown fields, one optional space after the
 * colon. Not thread-safe.
 */
public final class SseParser {

    /** Receives parsed messages. */
    public interface Sink {
        /** A message with data; {@code id} is null when the message had no id line. */
        void message(String id, String data);

        /** A {@code retry:} field, in milliseconds. */
        void retry(long millis);
    }

    private final Sink sink;
    private final int maxDataChars;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String id;

    /** @param maxDataChars bound of one message's data; beyond it {@link #line} throws */
    public SseParser(Sink sink, int maxDataChars) {
        this.sink = sink;
        this.maxDataChars = maxDataChars;
    }

    /** @throws IllegalStateException when a message grows past the data bound */
    public void line(String line) {
        if (line.isEmpty()) {
            dispatch();
            return;
        }
        if (line.charAt(0) == ':') {
            return;
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (!value.isEmpty() && value.charAt(0) == ' ') {
            value = value.substring(1);
        }
        switch (field) {
            case "data" -> {
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
                if (data.length() > maxDataChars) {
                    throw new IllegalStateException("SSE message data over " + maxDataChars + " chars");
                }
            }
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    id = value;
                }
            }
            case "retry" -> {
                if (!value.isEmpty() && value.length() <= 9 && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    sink.retry(Long.parseLong(value));
                }
            }
            default -> {
                // "event" and unknown fields: notify.v1 dispatches on the frame's "t", not on SSE event names
            }
        }
    }

    private void dispatch() {
        if (hasData) {
            sink.message(id, data.toString());
        }
        data.setLength(0);
        hasData = false;
        id = null;
    }
}
