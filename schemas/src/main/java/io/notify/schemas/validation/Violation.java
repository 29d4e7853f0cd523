package io.notify.schemas.validation;

/**
 * One reason an event is invalid: the JSON pointer of the offending field (RFC 6901, "" for the
 * whole document), a sentence saying why, and the rule that failed (a JSON Schema keyword such as
 * {@code required} or {@code pattern}, or {@link #MAX_BYTES} / {@link #SYNTAX}).
 */
public record Violation(String pointer, String message, String rule) {

    /** The serialized {@code data} object is over {@link io.notify.protocol.event.EventEnvelope#MAX_DATA_BYTES}. */
    public static final String MAX_BYTES = "maxBytes";
    /** The text is not JSON at all. */
    public static final String SYNTAX = "syntax";
    /** A number no JSON reader can hold as a finite double ({@code 1e999}): JSON has no Infinity. */
    public static final String NUMBER_RANGE = "numberRange";

    public Violation {
        if (pointer == null || message == null || rule == null) {
            throw new IllegalArgumentException("pointer, message and rule are required");
        }
    }

    public Violation(String pointer, String message) {
        this(pointer, message, "invalid");
    }

    public boolean isSizeLimit() {
        return MAX_BYTES.equals(rule);
    }

    @Override
    public String toString() {
        return (pointer.isEmpty() ? "/" : pointer) + ": " + message;
    }
}
