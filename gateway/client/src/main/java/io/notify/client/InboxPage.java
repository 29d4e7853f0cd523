package io.notify.client;

import io.notify.protocol.inbox.EventState;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A page of the user's inbox, newest first ({@link NotifyInbox#page}): each event with its state,
 * and the counts of the whole inbox when the page was read.
 *
 * @param stream   the user's stream ({@code u:<user>})
 * @param head     the stream's newest position; empty for a stream without durable events
 * @param firstSeq the oldest seq the inbox holds
 * @param version  the read state's version when the page was read
 * @param events   at most the page's limit, newest first
 * @param next     the {@code before} of the next (older) page; empty on the last page
 */
public record InboxPage(StreamId stream, Optional<Position> head, OptionalLong firstSeq, long unread, long unseen,
                        long version, List<Item> events, OptionalLong next) {

    /**
     * One event of the page. {@code event} is a durable {@link ClientEvent} (with its position), as
     * {@link NotifyListener#onEvent} would have received it.
     */
    public record Item(ClientEvent event, EventState state) {
        public Item {
            Objects.requireNonNull(event, "event");
            Objects.requireNonNull(state, "state");
        }
    }

    public InboxPage {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(head, "head");
        Objects.requireNonNull(firstSeq, "firstSeq");
        Objects.requireNonNull(next, "next");
        events = List.copyOf(events);
    }

    /** The page's counts. */
    public InboxCounts counts() {
        return new InboxCounts(unread, unseen, version, head);
    }
}
