package io.notify.ingest.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.common.http.Problem;
import io.notify.schemas.validation.EventValidator;
import io.notify.schemas.validation.InvalidEventException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a request body into candidate events according to its media type: one JSON object
 * (single), a JSON array (batch), or NDJSON, one object per line (batch). Size and count bounds
 * are enforced here; a malformed NDJSON line spoils only its own item.
 */
final class RequestBody {

    enum Format { JSON, NDJSON }

    /** One candidate: a parsed document, or the problem that stopped it from being one. */
    record Candidate(JsonNode document, Problem problem) {
    }

    /** The split body: whether it was a batch, and its candidates in order. */
    record Split(boolean batch, List<Candidate> candidates) {
    }

    /** The whole request is unacceptable (malformed JSON, too many items, too large a single event). */
    static final class Rejected extends Exception {
        final Problem problem;

        Rejected(Problem problem) {
            super(problem.detail(), null, false, false);
            this.problem = problem;
        }
    }

    private RequestBody() {
    }

    /** The format for a Content-Type header, or null when unsupported (answer 415). */
    static Format formatOf(String contentType) {
        if (contentType == null) {
            return null;
        }
        int semi = contentType.indexOf(';');
        String mediaType = (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
        return switch (mediaType) {
            case "application/json" -> Format.JSON;
            case "application/x-ndjson", "application/ndjson" -> Format.NDJSON;
            default -> null;
        };
    }

    static Split split(byte[] body, Format format, int maxEventBytes, int maxItems) throws Rejected {
        return format == Format.NDJSON ? splitNdjson(body, maxEventBytes, maxItems) : splitJson(body, maxEventBytes, maxItems);
    }

    private static Split splitJson(byte[] body, int maxEventBytes, int maxItems) throws Rejected {
        JsonNode root;
        try {
            root = EventValidator.readTree(body);
        } catch (InvalidEventException e) {
            throw new Rejected(Problems.invalid(e.violations()));
        }
        if (root.isObject()) {
            if (body.length > maxEventBytes) {
                throw new Rejected(Problems.eventTooLarge(body.length, maxEventBytes));
            }
            return new Split(false, List.of(new Candidate(root, null)));
        }
        if (!root.isArray()) {
            throw new Rejected(Problem.of(400, "invalid-body", "Invalid body",
                    "expected a JSON object (one event) or an array of objects (a batch)"));
        }
        checkCount(root.size(), maxItems);
        List<Candidate> out = new ArrayList<>(root.size());
        for (JsonNode item : root) {
            out.add(new Candidate(item, null));
        }
        return new Split(true, out);
    }

    private static Split splitNdjson(byte[] body, int maxEventBytes, int maxItems) throws Rejected {
        List<Candidate> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= body.length; i++) {
            if (i == body.length || body[i] == '\n') {
                int end = i > start && body[i - 1] == '\r' ? i - 1 : i;
                if (!isBlank(body, start, end)) {
                    checkCount(out.size() + 1, maxItems);
                    out.add(line(body, start, end, maxEventBytes));
                }
                start = i + 1;
            }
        }
        if (out.isEmpty()) {
            throw new Rejected(Problem.of(400, "invalid-body", "Invalid body", "the NDJSON body holds no events"));
        }
        return new Split(true, out);
    }

    private static Candidate line(byte[] body, int start, int end, int maxEventBytes) {
        int length = end - start;
        if (length > maxEventBytes) {
            return new Candidate(null, Problems.eventTooLarge(length, maxEventBytes));
        }
        byte[] bytes = new byte[length];
        System.arraycopy(body, start, bytes, 0, length);
        try {
            return new Candidate(EventValidator.readTree(bytes), null);
        } catch (InvalidEventException e) {
            return new Candidate(null, Problems.invalid(e.violations()));
        }
    }

    private static boolean isBlank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }

    private static void checkCount(int count, int maxItems) throws Rejected {
        if (count > maxItems) {
            throw new Rejected(Problem.of(413, "batch-too-large", "Batch too large",
                    "a batch may hold at most " + maxItems + " events"));
        }
    }
}
