package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.event.Recipients;

/**
 * Client to server: who is in a room the connection is subscribed to (docs/protocol.md §8,
 * "Presence"). Pages through the members in user-id order: {@code after} is the last user of the
 * previous page ({@code presence_result.next}), {@code limit} the page size wanted (the server caps
 * it). Answered by {@code presence_result}.
 */
@JsonPropertyOrder({"stream", "after", "limit"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PresenceFrame(String stream, String after, Integer limit) implements ClientFrame {

    public static final int MAX_LIMIT = 1000;

    public PresenceFrame {
        SubscribeFrame.requireStreamText(stream);
        if (after != null && !Recipients.isUserId(after)) {
            throw new IllegalArgumentException("after must be a user id (1..128 chars of [A-Za-z0-9._:@-])");
        }
        if (limit != null && (limit < 1 || limit > MAX_LIMIT)) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", got " + limit);
        }
    }

    @Override
    public FrameType frameType() {
        return FrameType.PRESENCE;
    }
}
