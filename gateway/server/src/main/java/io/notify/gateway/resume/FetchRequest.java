package io.notify.gateway.resume;

import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;

/**
 * Ask the inbox of {@code stream} for at most {@code limit} events after {@code after} ({@code
 * null}: from the oldest event it holds — a fresh start asks so, with limit 1, for the stream's head).
 */
public record FetchRequest(StreamId stream, Position after, int limit) {

    public FetchRequest {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit must be 1..1000, got " + limit);
        }
    }
}
