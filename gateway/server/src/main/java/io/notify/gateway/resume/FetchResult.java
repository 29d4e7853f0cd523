package io.notify.gateway.resume;

import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.util.List;

/** The answer of the inbox for one stream: a page of events, a reset, or a failure to retry. */
public sealed interface FetchResult {

    StreamId stream();

    /**
     * Events after the requested position, in seq order; {@code more}: ask again after the last one;
     * {@code head}: the stream's head when the answer was made (null: no history, or not given).
     */
    record Page(StreamId stream, List<SequencedEvent> events, boolean more, Position head) implements FetchResult {
        public Page {
            events = List.copyOf(events);
        }

        public Page(StreamId stream, List<SequencedEvent> events, boolean more) {
            this(stream, events, more, null);
        }
    }

    /** The position cannot be continued without a gap; the frame goes to the client as is. */
    record Reset(ResetFrame frame) implements FetchResult {
        @Override
        public StreamId stream() {
            return frame.stream();
        }
    }

    /** No answer (query API down, 503, timeout, unreadable): retried with backoff by the session. */
    record Failed(StreamId stream, String detail) implements FetchResult {
    }
}
