package io.notify.gateway.inbox;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * The answer of {@code GET /v1/inbox/unread}: the counts of the query API's {@code /state} answer,
 * without the read state itself. {@code head} is the stream's newest position as the query API gave
 * it ({@code {"epoch","seq"}}), or JSON {@code null} for a stream without durable events; the
 * counts are then 0.
 */
@JsonPropertyOrder({"unread", "unseen", "version", "head"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record InboxCounts(long unread, long unseen, long version, JsonNode head) {

    /** Whether {@code state} is a {@code /state} answer this class can read. */
    static boolean readable(JsonNode state) {
        return state != null && state.isObject() && state.path("unread").canConvertToExactIntegral()
                && state.path("unseen").canConvertToExactIntegral() && state.path("version").canConvertToExactIntegral()
                && (state.path("head").isMissingNode() || state.get("head").isNull() || state.get("head").isObject());
    }

    /** The counts of a readable {@code /state} answer. */
    static InboxCounts of(JsonNode state) {
        if (!readable(state)) {
            throw new IllegalArgumentException("not a state answer");
        }
        JsonNode head = state.get("head");
        return new InboxCounts(state.get("unread").asLong(), state.get("unseen").asLong(), state.get("version").asLong(),
                head == null ? NullNode.getInstance() : head);
    }
}
