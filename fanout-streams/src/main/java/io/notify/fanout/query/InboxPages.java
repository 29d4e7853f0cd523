package io.notify.fanout.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.fanout.inbox.StreamHead;
import io.notify.protocol.inbox.EventState;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The inbox as its owner sees it (docs/inbox.md): pages of events newest first, each with its
 * state; the unread and unseen counts; one event's delivery status. Pure over
 * {@link InboxReader.StreamState}, so it runs on the local stores and on test maps alike. Counts
 * come from the marks ({@link InboxState#unread}), never from reading events.
 */
public final class InboxPages {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    /** Which events a page shows: archived ones are left out by default. */
    public enum Archived {
        EXCLUDE, INCLUDE, ONLY;

        static Archived parse(String value) {
            if (value == null) {
                return EXCLUDE;
            }
            try {
                return valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("archived must be exclude, include or only, got '" + value + "'");
            }
        }

        boolean shows(EventState state) {
            return switch (this) {
                case EXCLUDE -> state != EventState.ARCHIVED;
                case INCLUDE -> true;
                case ONLY -> state == EventState.ARCHIVED;
            };
        }
    }

    /** The counts of a stream; {@code head} null (and all counts 0) for a stream without durable events. */
    @JsonPropertyOrder({"stream", "head", "firstSeq", "unread", "unseen", "version", "state"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Counts(String stream, Position head, Long firstSeq, long unread, long unseen, long version, InboxState state) {
    }

    /** One event of a page and its state. */
    public record Item(SequencedEvent event, EventState state) {
    }

    /** A page newest first; {@code next} is the {@code before} of the next page, absent on the last. */
    @JsonPropertyOrder({"stream", "head", "firstSeq", "unread", "unseen", "version", "events", "next"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Page(String stream, Position head, Long firstSeq, long unread, long unseen, long version, List<Item> events,
                       Long next) {
    }

    /** Who received one event and whether it was read. */
    public record Delivery(String device, long acked, long at) {
    }

    /** The status of the event at {@code seq}; {@code held} false when the inbox no longer (or never) held it. */
    @JsonPropertyOrder({"stream", "epoch", "seq", "held", "id", "state", "deliveredTo"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Status(String stream, String epoch, long seq, boolean held, String id, EventState state, List<Delivery> deliveredTo) {
    }

    private InboxPages() {
    }

    public static Counts counts(InboxReader.StreamState store, StreamId stream) {
        requireUser(stream);
        Optional<StreamHead> found = store.head(stream);
        if (found.isEmpty()) {
            return new Counts(stream.value(), null, null, 0, 0, 0, null);
        }
        StreamHead head = found.get();
        InboxState state = stateOf(store, stream, head);
        return new Counts(stream.value(), head.position(), head.firstSeq(), state.unread(head.firstSeq(), head.lastSeq()),
                state.unseen(head.firstSeq(), head.lastSeq()), state.version(), state);
    }

    /**
     * Up to {@code limit} events with seq below {@code before} (null: from the newest), newest first,
     * those {@code archived} shows; scans at most the events the inbox holds below {@code before}.
     */
    public static Page page(InboxReader.StreamState store, StreamId stream, Long before, int limit, Archived archived) {
        return page(store, stream, before, limit, archived, System.currentTimeMillis());
    }

    /**
     * As above, at {@code nowMs}: events expired by then are not listed (docs/protocol.md, "Expiry"), nor recalled ones
     * ("Recall").
     */
    public static Page page(InboxReader.StreamState store, StreamId stream, Long before, int limit, Archived archived, long nowMs) {
        requireUser(stream);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_LIMIT + "], got " + limit);
        }
        if (before != null && before < 1) {
            throw new IllegalArgumentException("before must be a seq >= 1, got " + before);
        }
        Optional<StreamHead> found = store.head(stream);
        if (found.isEmpty()) {
            return new Page(stream.value(), null, null, 0, 0, 0, List.of(), null);
        }
        StreamHead head = found.get();
        InboxState state = stateOf(store, stream, head);
        long below = before == null ? head.lastSeq() + 1 : Math.min(before, head.lastSeq() + 1);
        List<Item> items = new ArrayList<>();
        Long next = null;
        // read in chunks: a filter may skip many events
        long cursor = below;
        while (cursor > head.firstSeq() && next == null) {
            List<SequencedEvent> chunk = store.newestFirst(stream, cursor, limit + 1);
            if (chunk.isEmpty()) {
                break;
            }
            for (SequencedEvent e : chunk) {
                cursor = e.seq();
                EventState s = state.stateOf(e.seq());
                if (!archived.shows(s) || e.expiredAt(nowMs) || e.recalled()) {
                    continue;
                }
                if (items.size() == limit) {
                    next = items.get(limit - 1).event().seq();
                    break;
                }
                items.add(new Item(e, s));
            }
        }
        return new Page(stream.value(), head.position(), head.firstSeq(), state.unread(head.firstSeq(), head.lastSeq()),
                state.unseen(head.firstSeq(), head.lastSeq()), state.version(), items, next);
    }

    /** The delivery status of the event at {@code seq} of the stream's current epoch. */
    public static Status status(InboxReader.StreamState store, StreamId stream, long seq) {
        requireUser(stream);
        if (seq < 1) {
            throw new IllegalArgumentException("seq must be >= 1, got " + seq);
        }
        Optional<StreamHead> found = store.head(stream);
        if (found.isEmpty()) {
            return new Status(stream.value(), null, seq, false, null, null, List.of());
        }
        StreamHead head = found.get();
        InboxState state = stateOf(store, stream, head);
        boolean held = seq >= head.firstSeq() && seq <= head.lastSeq();
        String id = null;
        if (held) {
            List<SequencedEvent> one = store.range(stream, seq - 1, 1);
            id = one.isEmpty() || one.get(0).seq() != seq ? null : one.get(0).id();
        }
        List<Delivery> delivered = new ArrayList<>();
        state.devices().forEach((device, r) -> {
            if (r.acked() >= seq) {
                delivered.add(new Delivery(device, r.acked(), r.at()));
            }
        });
        return new Status(stream.value(), head.epoch(), seq, held, id, seq <= head.lastSeq() ? state.stateOf(seq) : null, delivered);
    }

    /** Rooms and broadcast have positions but no owner to read them: read state is a user's. */
    static void requireUser(StreamId stream) {
        if (!stream.isUser()) {
            throw new IllegalArgumentException("read state, pages and receipts exist for user streams (u:<user>) only, not "
                    + stream.value());
        }
    }

    private static InboxState stateOf(InboxReader.StreamState store, StreamId stream, StreamHead head) {
        return store.inboxState(stream).map(s -> s.forEpoch(head.epoch())).orElseGet(() -> InboxState.empty(stream, head.epoch()));
    }
}
