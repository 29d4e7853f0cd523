package io.notify.schemas.validation;

import java.util.List;

/** Thrown when a document is not a valid v1 event; carries every violation found. */
public final class InvalidEventException extends RuntimeException {

    private final transient List<Violation> violations;

    public InvalidEventException(List<Violation> violations) {
        super(summary(violations));
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }

    private static String summary(List<Violation> violations) {
        if (violations.isEmpty()) {
            return "invalid event";
        }
        StringBuilder sb = new StringBuilder("invalid event: ");
        for (int i = 0; i < violations.size(); i++) {
            if (i > 0) {
                sb.append("; ");
            }
            sb.append(violations.get(i));
        }
        return sb.toString();
    }
}
