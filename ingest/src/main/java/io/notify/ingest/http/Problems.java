package io.notify.ingest.http;

import io.notify.common.http.Problem;
import io.notify.ingest.produce.WriteFailedException;
import io.notify.schemas.validation.Violation;
import java.util.List;
import java.util.concurrent.CompletionException;

/** The ingest API's problem answers, one factory per documented case (see docs/openapi.yaml). */
final class Problems {

    private Problems() {
    }

    /** 400 naming every bad field; 413 when the only fault is the size of {@code data}. */
    static Problem invalid(List<Violation> violations) {
        if (!violations.isEmpty() && violations.stream().allMatch(Violation::isSizeLimit)) {
            return Problem.of(413, "event-too-large", "Event too large", violations.get(0).toString()).withErrors(fields(violations));
        }
        return invalid("invalid-event", "Invalid event", violations);
    }

    /** 400 naming every bad field of a recall (docs/protocol.md, "Recall"). */
    static Problem invalidRecall(List<Violation> violations) {
        return invalid("invalid-recall", "Invalid recall", violations);
    }

    private static Problem invalid(String slug, String title, List<Violation> violations) {
        String detail = violations.isEmpty() ? title.toLowerCase(java.util.Locale.ROOT) : violations.get(0).toString();
        if (violations.size() > 1) {
            detail += " (and " + (violations.size() - 1) + " more)";
        }
        return Problem.of(400, slug, title, detail).withErrors(fields(violations));
    }

    private static List<Problem.FieldError> fields(List<Violation> violations) {
        return violations.stream().map(v -> new Problem.FieldError(v.pointer(), v.message())).toList();
    }

    static Problem expired(String id, String expiresAt) {
        return Problem.of(400, "expired", "Event expired", "event '" + id + "' expired at " + expiresAt
                + ", before it was accepted: nothing is delivered (docs/protocol.md, \"Expiry\")");
    }

    static Problem eventTooLarge(int size, int max) {
        return Problem.of(413, "event-too-large", "Event too large",
                "the event is " + size + " bytes; at most " + max + " bytes are accepted");
    }

    static Problem bodyTooLarge(long max) {
        return Problem.of(413, "body-too-large", "Body too large", "request bodies may be at most " + max + " bytes");
    }

    static Problem unauthorized() {
        return Problem.of(401, "unauthorized", "Unauthorized",
                "send a producer API key as 'Authorization: Bearer <key>'");
    }

    static Problem unsupportedMediaType(String got) {
        return unsupportedMediaType("application/json or application/x-ndjson", got);
    }

    /** 415 for a request that takes {@code accepted} only. */
    static Problem unsupportedMediaType(String accepted, String got) {
        return Problem.of(415, "unsupported-media-type", "Unsupported media type", "Content-Type must be " + accepted + ", got '" + got + "'");
    }

    static Problem conflict(String id) {
        return Problem.of(409, "idempotency-conflict", "Conflict",
                "event id '" + id + "' was already used with a different body");
    }

    /** The answer to a failed Kafka write: overloaded, unavailable, or a write Kafka refused ({@code cause} unwrapped). */
    static Problem ofWriteFailure(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof WriteFailedException w) {
            return switch (w.kind()) {
                case OVERLOADED -> overloaded(w.getMessage());
                case UNAVAILABLE -> unavailable(w.getMessage());
                case REJECTED -> writeFailed(w.getMessage());
            };
        }
        return writeFailed(cause.toString());
    }

    static Problem unavailable(String detail) {
        return Problem.of(503, "unavailable", "Service unavailable", detail);
    }

    static Problem overloaded(String detail) {
        return Problem.of(503, "overloaded", "Overloaded", detail);
    }

    /** A fault of ours in one item (a bug): that item alone fails, logged and counted; the others are answered. */
    static Problem internal(RuntimeException e) {
        return Problem.of(500, "internal", "Internal error",
                "the event could not be processed (" + e.getClass().getSimpleName() + "); it was not written, its id is not claimed");
    }

    static Problem writeFailed(String detail) {
        return Problem.of(500, "write-failed", "Write failed", detail);
    }
}
