package io.notify.gateway.inbox;

import io.notify.gateway.config.InboxSettings;
import io.notify.protocol.stream.Position;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * The parameters of {@code GET /v1/inbox}, checked at the gateway before the query API is asked:
 * {@code before} a seq (1..2^53-1; absent: from the newest event), {@code limit} 1..{@value InboxSettings#MAX_PAGE}
 * (default {@value InboxSettings#DEFAULT_PAGE}), {@code archived} one of {@code exclude} (the default),
 * {@code include}, {@code only}. Other parameters are ignored. Each value is canonical decimal or one
 * of the words; anything else is an {@link IllegalArgumentException} whose message names the parameter.
 */
public record InboxQuery(Long before, int limit, String archived) {

    public static final List<String> ARCHIVED = List.of("exclude", "include", "only");

    public InboxQuery {
        if (before != null && (before < 1 || before > Position.MAX_SEQ)) {
            throw new IllegalArgumentException("before must be a seq from 1 to " + Position.MAX_SEQ + ", got " + before);
        }
        if (limit < 1 || limit > InboxSettings.MAX_PAGE) {
            throw new IllegalArgumentException("limit must be from 1 to " + InboxSettings.MAX_PAGE + ", got " + limit);
        }
        if (!ARCHIVED.contains(archived)) {
            throw new IllegalArgumentException("archived must be exclude, include or only");
        }
    }

    /** The query of a request's parameters. */
    public static InboxQuery parse(Map<String, Deque<String>> params) {
        String before = first(params, "before");
        String limit = first(params, "limit");
        String archived = first(params, "archived");
        return new InboxQuery(before == null ? null : number("before", before),
                limit == null ? InboxSettings.DEFAULT_PAGE : (int) Math.min(Integer.MAX_VALUE, number("limit", limit)),
                archived == null ? "exclude" : archived);
    }

    /** The query string of the query API's {@code /inbox} request. */
    public String queryString() {
        return "limit=" + limit + (before == null ? "" : "&before=" + before) + "&archived=" + archived;
    }

    private static String first(Map<String, Deque<String>> params, String name) {
        Deque<String> values = params.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    private static long number(String name, String value) {
        if (value.isEmpty() || value.length() > 16 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException(name + " must be a whole number, got '"
                    + (value.length() > 20 ? value.substring(0, 20) + "…" : value) + "'");
        }
        return Long.parseLong(value);
    }
}
