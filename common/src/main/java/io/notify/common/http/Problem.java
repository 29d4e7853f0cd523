package io.notify.common.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * An RFC 9457 problem detail ({@code application/problem+json}). {@code type} is a stable URN
 * ({@code urn:notify:problem:<slug>}) that clients may switch on; {@code errors} lists field-level
 * faults, each naming the JSON pointer of the bad field.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

    public static final String CONTENT_TYPE = "application/problem+json";

    public Problem {
        if (type == null || title == null || status < 400 || status > 599) {
            throw new IllegalArgumentException("a problem needs a type, a title and a 4xx/5xx status");
        }
        errors = errors == null ? List.of() : List.copyOf(errors);
    }

    public static Problem of(int status, String slug, String title, String detail) {
        return new Problem("urn:notify:problem:" + slug, title, status, detail, List.of());
    }

    public Problem withErrors(List<FieldError> fieldErrors) {
        return new Problem(type, title, status, detail, fieldErrors);
    }

    /** One bad field: its JSON pointer and why it is wrong. */
    public record FieldError(String pointer, String detail) {
    }
}
