package io.notify.client;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * A problem a {@link NotifyClient} reports through {@link NotifyListener#onError}, or with which a
 * {@link NotifyInbox} call ({@link Kind#INBOX}), a push registration call ({@link Kind#PUSH}) or a preferences
 * call ({@link Kind#PREFERENCES}) fails.
 * {@link #kind()} says where it came from; {@link #terminal()} says whether the client stopped because of it.
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
        POSITION_STORE,
        /**
         * An inbox request failed: the gateway answered an error ({@link #httpStatus()}, with the
         * problem's {@link #problemType()} and {@link #problemDetail()} when it sent
         * {@code application/problem+json}), or it could not be reached (no status; see the cause).
         */
        INBOX,
        /**
         * A push registration request ({@link NotifyClient#registerPush}, {@link NotifyClient#listPushRegistrations},
         * {@link NotifyClient#unregisterPush}, {@link NotifyClient#pushConfig}) failed, as {@link #INBOX}: the
         * gateway's status and problem (e.g. 400 {@code urn:notify:problem:invalid-body}, 404
         * {@code urn:notify:problem:not-found}), or no status when it could not be reached.
         */
        PUSH,
        /**
         * A preferences request ({@link NotifyClient#preferences}, {@link NotifyClient#putPreferences},
         * {@link NotifyClient#resetPreferences}) failed, as {@link #INBOX}: the gateway's status and problem
         * (e.g. 400 {@code urn:notify:problem:invalid-body} naming the field at fault), or no status when it
         * could not be reached.
         */
        PREFERENCES
    }

    private final Kind kind;
    private final boolean terminal;
    private final int closeCode;
    private final int httpStatus;
    private final String problemType;
    private final String problemDetail;

    private NotifyClientException(Kind kind, String message, boolean terminal, int closeCode, int httpStatus, Throwable cause) {
        this(kind, message, terminal, closeCode, httpStatus, null, null, cause);
    }

    private NotifyClientException(Kind kind, String message, boolean terminal, int closeCode, int httpStatus,
                                  String problemType, String problemDetail, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.terminal = terminal;
        this.closeCode = closeCode;
        this.httpStatus = httpStatus;
        this.problemType = problemType;
        this.problemDetail = problemDetail;
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

    /**
     * An inbox request answered {@code status}; {@code type} and {@code detail} are the
     * problem+json's (null when the answer was not one).
     */
    public static NotifyClientException inbox(String request, int status, String type, String detail) {
        return answered(Kind.INBOX, request, status, type, detail);
    }

    /** An inbox request that got no answer (connect failure, timeout, unreadable answer). */
    public static NotifyClientException inboxFailed(String request, String message, Throwable cause) {
        return failed(Kind.INBOX, request, message, cause);
    }

    /** A push registration request answered {@code status}; {@code type} and {@code detail} as for {@link #inbox}. */
    public static NotifyClientException push(String request, int status, String type, String detail) {
        return answered(Kind.PUSH, request, status, type, detail);
    }

    /** A push registration request that got no answer (connect failure, timeout, unreadable answer). */
    public static NotifyClientException pushFailed(String request, String message, Throwable cause) {
        return failed(Kind.PUSH, request, message, cause);
    }

    /** A request of the gateway's user API ({@link Kind#INBOX}, {@link Kind#PUSH}, {@link Kind#PREFERENCES}) answered {@code status}. */
    public static NotifyClientException answered(Kind kind, String request, int status, String type, String detail) {
        return new NotifyClientException(kind, request + " answered HTTP " + status
                + (type == null ? "" : " " + type) + (detail == null || detail.isEmpty() ? "" : ": " + detail),
                false, -1, status, type, detail, null);
    }

    /** A request of the gateway's user API ({@link Kind#INBOX}, {@link Kind#PUSH}, {@link Kind#PREFERENCES}) that got no answer. */
    public static NotifyClientException failed(Kind kind, String request, String message, Throwable cause) {
        return new NotifyClientException(kind, request + " failed: " + message, false, -1, -1, cause);
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

    /** The HTTP status, for {@link Kind#HANDSHAKE_REFUSED} and an answered {@link Kind#INBOX}, {@link Kind#PUSH} or {@link Kind#PREFERENCES} request. */
    public OptionalInt httpStatus() {
        return httpStatus < 0 ? OptionalInt.empty() : OptionalInt.of(httpStatus);
    }

    /** The problem+json {@code type} of an {@link Kind#INBOX}, {@link Kind#PUSH} or {@link Kind#PREFERENCES} error, e.g. {@code urn:notify:problem:invalid-body}. */
    public Optional<String> problemType() {
        return Optional.ofNullable(problemType);
    }

    /** The problem+json {@code detail} of an {@link Kind#INBOX}, {@link Kind#PUSH} or {@link Kind#PREFERENCES} error: why, for people. */
    public Optional<String> problemDetail() {
        return Optional.ofNullable(problemDetail);
    }
}
