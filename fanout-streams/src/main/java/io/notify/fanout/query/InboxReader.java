package io.notify.fanout.query;

import io.notify.fanout.inbox.StreamHead;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import java.util.Optional;

/**
 * Turns a client's position into events or a reset, over one stream's head and inbox. The rule
 * of docs/query-api.md lives here, pure and unit-tested: a client is never handed a gap. If the
 * inbox does not hold exactly {@code after+1, after+2, ...}, the head is read again: when a trim
 * raced the read ({@code after+1} is now older than {@code firstSeq}) the answer is a
 * {@code position_too_old} reset, never a partial list; otherwise the inbox is only behind the
 * head (the two stores are separate, and under exactly_once_v2 each becomes visible at its own
 * commit), and the answer is the contiguous part it holds with {@code more: true}, so the reader
 * asks again instead of skipping events that are about to appear.
 */
public final class InboxReader {

    /** Read access to one stream's state (backed by the local stores, or a test map). */
    public interface StreamState {
        Optional<StreamHead> head(StreamId stream);

        List<SequencedEvent> range(StreamId stream, long afterSeq, int limit);

        /** Up to {@code limit} events with seq < {@code beforeSeq}, newest first. */
        List<SequencedEvent> newestFirst(StreamId stream, long beforeSeq, int limit);

        /** The read state of a user stream; empty when nothing was ever marked or acked. */
        Optional<InboxState> inboxState(StreamId stream);

        /** A user's push registrations; empty when none was ever registered. */
        Optional<PushRegistrations> pushRegistrations(StreamId stream);

        /** A user's preferences; empty when they never set any (or reset them). */
        Optional<UserPreferences> preferences(StreamId stream);
    }

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1000;

    private InboxReader() {
    }

    public static StreamAnswer head(StreamState state, StreamId stream) {
        return state.head(stream)
                .map(h -> StreamAnswer.head(stream.value(), h.position(), h.firstSeq()))
                .orElseGet(() -> StreamAnswer.head(stream.value(), null, null));
    }

    /**
     * @param epoch the epoch of {@code after}; null only with {@code after == 0} ("from the oldest held")
     * @throws IllegalArgumentException for a request that is malformed (answered 400)
     */
    public static StreamAnswer eventsAfter(StreamState state, StreamId stream, String epoch, long after, int limit) {
        if (after < 0) {
            throw new IllegalArgumentException("after must be >= 0, got " + after);
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_LIMIT + "], got " + limit);
        }
        if (epoch == null && after > 0) {
            throw new IllegalArgumentException("epoch is required when after > 0");
        }
        Optional<StreamHead> found = state.head(stream);
        if (found.isEmpty()) {
            return epoch == null
                    ? StreamAnswer.events(stream.value(), null, 1, List.of(), false)
                    : StreamAnswer.reset(stream.value(), "unknown_stream", null, null);
        }
        StreamHead head = found.get();
        if (epoch != null && (!epoch.equals(head.epoch()) || after > head.lastSeq())) {
            return StreamAnswer.reset(stream.value(), "epoch_mismatch", head.position(), head.firstSeq());
        }
        long from = epoch == null ? Math.max(after, head.firstSeq() - 1) : after;
        if (from + 1 < head.firstSeq()) {
            return StreamAnswer.reset(stream.value(), "position_too_old", head.position(), head.firstSeq());
        }
        if (from >= head.lastSeq()) {
            return StreamAnswer.events(stream.value(), head.position(), head.firstSeq(), List.of(), false);
        }
        List<SequencedEvent> events = state.range(stream, from, limit);
        int contiguous = 0;
        while (contiguous < events.size() && events.get(contiguous).seq() == from + 1 + contiguous) {
            contiguous++;
        }
        if (contiguous < Math.min(limit, head.lastSeq() - from)) {
            // The inbox does not continue from `from` as far as the head says: trimmed under us, or not visible yet.
            StreamHead now = state.head(stream).orElse(head);
            if (from + 1 < now.firstSeq() || !now.epoch().equals(head.epoch())) {
                return StreamAnswer.reset(stream.value(), "position_too_old", now.position(), now.firstSeq());
            }
        }
        List<SequencedEvent> page = events.subList(0, contiguous);
        return StreamAnswer.events(stream.value(), head.position(), head.firstSeq(), page, from + contiguous < head.lastSeq());
    }
}
