package io.notify.gateway.resume;

import io.notify.schemas.stream.Position;
import io.notify.schemas.stream.StreamId;

/** Ask the inbox of {@code stream} for at most {@code limit} events after {@code after}. */
public record FetchRequest(StreamId stream, Position after, int limit) {

    public FetchRequest {
        if (stream == null || after == null) {
            throw new IllegalArgumentException("stream and after are required");
        }
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit must be 1..1000, got " + limit);
        }
    }
}
