package io.notify.schemas.event;

/**
 * One reason an event is invalid: the JSON pointer of the offending field (RFC 6901, "" for the
 * whole document) and a sentence saying why.
 */
public record Violation(String pointer, String message) {

    public Violation {
        if (pointer == null || message == null) {
            throw new IllegalArgumentException("pointer and message are required");
        }
    }

    @Override
    public String toString() {
        return (pointer.isEmpty() ? "/" : pointer) + ": " + message;
    }
}
