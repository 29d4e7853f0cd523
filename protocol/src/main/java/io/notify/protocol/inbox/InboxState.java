package io.notify.protocol.inbox;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The read state of one user's stream, the value of {@code notify.inbox-state} (compacted, keyed by
 * stream) and of fanout-streams' {@code inbox-state} store (docs/inbox.md). It holds marks, never
 * counts: the inbox holds exactly the seqs {@code firstSeq..lastSeq} of one epoch, so how many of
 * them are unread is arithmetic on the marks' {@code upTo} plus the single marks above it
 * ({@link #unread}), whatever the inbox's size — O(1) to read, and no count to drift when the
 * inbox trims.
 *
 * <ul>
 *   <li>{@code epoch}: the history the marks belong to; a stream whose epoch changes starts unmarked.</li>
 *   <li>{@code seen}, {@code read}, {@code archived}: the marks of each kind ({@link Marks}).</li>
 *   <li>{@code devices}: per device, the last seq it acknowledged and when ({@code ack} receipts);
 *       at most the configured number, the least recently heard dropped first.</li>
 *   <li>{@code version}: +1 per change, so a client orders two state frames; {@code updatedAt}: epoch ms.</li>
 * </ul>
 * Immutable.
 */
@JsonPropertyOrder({"stream", "epoch", "seen", "read", "archived", "devices", "version", "updatedAt"})
public record InboxState(StreamId stream, String epoch, Marks seen, Marks read, Marks archived,
                         Map<String, DeviceReceipt> devices, long version, long updatedAt) {

    /** The last delivery receipt of one device. */
    @JsonPropertyOrder({"acked", "at"})
    public record DeviceReceipt(long acked, long at) {
    }

    public InboxState {
        if (stream == null || !stream.isUser()) {
            throw new IllegalArgumentException("inbox state belongs to a user's stream, got " + stream);
        }
        Position.of(epoch, 1); // validates the epoch
        seen = seen == null ? Marks.NONE : seen;
        read = read == null ? Marks.NONE : read;
        archived = archived == null ? Marks.NONE : archived;
        devices = devices == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(devices));
        if (version < 0 || updatedAt < 0) {
            throw new IllegalArgumentException("version and updatedAt must be >= 0");
        }
    }

    /** A stream with nothing marked in {@code epoch}. */
    public static InboxState empty(StreamId stream, String epoch) {
        return new InboxState(stream, epoch, Marks.NONE, Marks.NONE, Marks.NONE, Map.of(), 0, 0);
    }

    /** This state if it is of {@code currentEpoch}; else nothing marked in it (the version goes on). */
    public InboxState forEpoch(String currentEpoch) {
        return currentEpoch.equals(epoch) ? this
                : new InboxState(stream, currentEpoch, Marks.NONE, Marks.NONE, Marks.NONE, devices, version, updatedAt);
    }

    /** The state of the event at {@code seq}, the strongest mark first. */
    public EventState stateOf(long seq) {
        if (archived.covers(seq)) {
            return EventState.ARCHIVED;
        }
        if (read.covers(seq)) {
            return EventState.READ;
        }
        return seen.covers(seq) ? EventState.SEEN : EventState.UNSEEN;
    }

    /** Of the events {@code firstSeq..lastSeq} the inbox holds, how many are neither read nor archived. */
    public long unread(long firstSeq, long lastSeq) {
        return Math.max(0, lastSeq - firstSeq + 1) - Marks.countAny(firstSeq, lastSeq, read, archived);
    }

    /** Of the events {@code firstSeq..lastSeq} the inbox holds, how many are not seen, read nor archived. */
    public long unseen(long firstSeq, long lastSeq) {
        return Math.max(0, lastSeq - firstSeq + 1) - Marks.countAny(firstSeq, lastSeq, seen, read, archived);
    }

    /** {@code kind} applied to every seq up to {@code upTo}. */
    public InboxState markUpTo(ReceiptKind kind, long upTo, long at) {
        return withMarks(kind, marksOf(kind).upTo(upTo), at);
    }

    /** {@code kind} applied to exactly {@code seqs}. */
    public InboxState markSeqs(ReceiptKind kind, Collection<Long> seqs, long at) {
        return withMarks(kind, marksOf(kind).with(seqs), at);
    }

    /**
     * {@code device} acknowledged every event up to {@code seq} (a lower seq than it acknowledged
     * before keeps the higher one); past {@code maxDevices} the least recently heard device is dropped.
     */
    public InboxState acked(String device, long seq, long at, int maxDevices) {
        TreeMap<String, DeviceReceipt> next = new TreeMap<>(devices);
        DeviceReceipt before = next.get(device);
        next.put(device, new DeviceReceipt(before == null ? seq : Math.max(before.acked(), seq), at));
        while (next.size() > maxDevices) {
            String oldest = next.entrySet().stream().min(Comparator.comparingLong(e -> e.getValue().at())).orElseThrow().getKey();
            next.remove(oldest);
        }
        return new InboxState(stream, epoch, seen, read, archived, next, version + 1, at);
    }

    /** Forgets single marks of events below {@code firstSeq}, which the inbox no longer holds. */
    public InboxState pruned(long firstSeq) {
        return new InboxState(stream, epoch, seen.pruneBelow(firstSeq), read.pruneBelow(firstSeq),
                archived.pruneBelow(firstSeq), devices, version, updatedAt);
    }

    /** The marks of {@code kind}; {@code ack} has none. */
    public Marks marksOf(ReceiptKind kind) {
        return switch (kind) {
            case SEEN -> seen;
            case READ -> read;
            case ARCHIVE -> archived;
            case ACK -> throw new IllegalArgumentException("an ack is not a mark");
        };
    }

    private InboxState withMarks(ReceiptKind kind, Marks marks, long at) {
        return new InboxState(stream, epoch, kind == ReceiptKind.SEEN ? marks : seen, kind == ReceiptKind.READ ? marks : read,
                kind == ReceiptKind.ARCHIVE ? marks : archived, devices, version + 1, at);
    }
}
