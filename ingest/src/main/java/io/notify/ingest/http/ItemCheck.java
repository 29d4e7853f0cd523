package io.notify.ingest.http;

import io.notify.common.http.Problem;
import io.notify.ingest.idempotency.EventDigest;
import io.notify.protocol.event.EventEnvelope;
import io.notify.schemas.validation.EventValidator;
import io.notify.schemas.validation.InvalidEventException;

/**
 * What one item of a request becomes before it touches any shared state: an event validated, bound
 * and written to its record bytes (with the digest its id is claimed by, when the producer chose the
 * id), or the answer that refuses it. Pure: the fuzz test drives it with arbitrary bodies and
 * requires that every refusal is a planned 4xx and that nothing else escapes.
 */
final class ItemCheck {

    /** The result of {@link #check}. */
    sealed interface Outcome permits Ready, Refused {
    }

    /** Ready to claim and write; {@code digest} is null when the id was generated (nothing to claim). */
    record Ready(EventEnvelope event, byte[] value, byte[] digest) implements Outcome {
    }

    /** Refused with {@code problem}; {@code id} as the producer sent it, when it sent one as text. */
    record Refused(String id, Problem problem) implements Outcome {
    }

    private ItemCheck() {
    }

    static Outcome check(RequestBody.Candidate candidate) {
        return check(candidate, System.currentTimeMillis());
    }

    /** As above at {@code nowMs}: an event whose {@code expiresAt} has passed is refused ({@code 400 expired}). */
    static Outcome check(RequestBody.Candidate candidate, long nowMs) {
        if (candidate.problem() != null) {
            return new Refused(null, candidate.problem());
        }
        EventValidator.Encoded encoded;
        try {
            encoded = EventValidator.v1().encode(candidate.document());
        } catch (InvalidEventException e) {
            String id = candidate.document().path("id").isTextual() ? candidate.document().get("id").asText() : null;
            return new Refused(id, Problems.invalid(e.violations()));
        }
        Long expiry = encoded.event().expiryMillis(nowMs);
        if (expiry != null && expiry <= nowMs) {
            return new Refused(encoded.event().id(), Problems.expired(encoded.event().id(), encoded.event().expiresAt().toString()));
        }
        boolean clientChoseId = candidate.document().has("id");
        return new Ready(encoded.event(), encoded.json(), clientChoseId ? EventDigest.of(encoded.event()) : null);
    }
}
