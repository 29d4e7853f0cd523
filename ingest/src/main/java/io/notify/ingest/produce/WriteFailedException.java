package io.notify.ingest.produce;

/**
 * An event was not written. {@link Kind#OVERLOADED} and {@link Kind#UNAVAILABLE} are retriable
 * (the client gets 503 + Retry-After); {@link Kind#REJECTED} will fail again the same way.
 */
public final class WriteFailedException extends RuntimeException {

    public enum Kind { OVERLOADED, UNAVAILABLE, REJECTED }

    private final Kind kind;

    public WriteFailedException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    public boolean retriable() {
        return kind != Kind.REJECTED;
    }
}
