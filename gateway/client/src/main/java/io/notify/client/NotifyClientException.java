package io.notify.client;

import java.util.OptionalInt;

/**
 * A problem a {@link NotifyClient} reports through {@link NotifyListener#onError}. {@link #kind()}
 * says where it came from; {@link #terminal()} says whether the client stopped because of it.
 */
public final class NotifyClientException extends RuntimeException {

    /** Where a problem came from. */
    public enum Kind {
        /** The gateway closed the WebSocket with a close code ({@link #closeCode()}). */
        CLOSED_BY_SERVER,
        /** A handshake was refused with an HTTP status ({@link #httpStatus()}). */
        HANDSHAKE_REFUSED,
        /** The token supplier failed or returned nothing. */
        TOKEN,
        /** The gateway sent a frame the client cannot read. */
        PROTOCOL,
        /** A listener callback threw. */
        LISTENER,
        /** The position store failed to load or save. */
        POSITION_STORE
    }

    private final Kind kind;
    private final boolean terminal;
    private final int closeCode;
    private final int httpStatus;

    private NotifyClientException(Kind kind, String message, boolean terminal, int closeCode, int httpStatus, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.terminal = terminal;
        this.closeCode = closeCode;
        this.httpStatus = httpStatus;
    }

    public static NotifyClientException of(Kind kind, String message, Throwable cause) {
        return new NotifyClientException(kind, message, false, -1, -1, cause);
    }

    public static NotifyClientException closed(int code, String reason, boolean terminal) {
        return new NotifyClientException(Kind.CLOSED_BY_SERVER, "gateway closed the connection with " + code
                + (reason == null || reason.isEmpty() ? "" : " (" + reason + ")"), terminal, code, -1, null);
    }

    public static NotifyClientException refused(int status, String detail, boolean terminal) {
        return new NotifyClientException(Kind.HANDSHAKE_REFUSED, "handshake refused with HTTP " + status
                + (detail == null || detail.isEmpty() ? "" : ": " + detail), terminal, -1, status, null);
    }

    public Kind kind() {
        return kind;
    }

    /** True when the client stopped because of this problem (it will not reconnect by itself). */
    public boolean terminal() {
        return terminal;
    }

    /** The WebSocket close code, for {@link Kind#CLOSED_BY_SERVER}. */
    public OptionalInt closeCode() {
        return closeCode < 0 ? OptionalInt.empty() : OptionalInt.of(closeCode);
    }

    /** The HTTP status, for {@link Kind#HANDSHAKE_REFUSED}. */
    public OptionalInt httpStatus() {
        return httpStatus < 0 ? OptionalInt.empty() : OptionalInt.of(httpStatus);
    }
}
