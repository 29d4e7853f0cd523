package io.notify.fanout.sequencing;

import io.notify.fanout.inbox.InboxKey;
import io.notify.fanout.inbox.StreamHead;
import io.notify.fanout.recipients.RecipientEvent;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A producer's recall applied to one stream's inbox (docs/protocol.md, "Recall"), in the task and the
 * transaction that own the stream: every held event of the recall's producer scope that it names (by
 * id or by cancellation key) and that is not recalled yet is replaced in its seq by
 * {@link SequencedEvent#asRecalled()} (no data), and for each one two records go downstream: the
 * recalled event itself (to {@code notify.stream-log}, and to the user's read state as an archive mark,
 * which lowers the unread count, sends devices a {@code state} frame and cancels a pending fallback) and
 * the ephemeral event that carries the {@link RecalledFrame} to the devices holding the stream. One scan
 * of the stream's inbox (at most its bound). Not thread-safe: one instance per task.
 */
final class Recalls {

    /** The {@code source} of the events that carry recalled frames. */
    static final String SOURCE = "notify-fanout";

    private final KeyValueStore<StreamId, StreamHead> heads;
    private final KeyValueStore<InboxKey, SequencedEvent> inbox;

    Recalls(KeyValueStore<StreamId, StreamHead> heads, KeyValueStore<InboxKey, SequencedEvent> inbox) {
        this.heads = heads;
        this.inbox = inbox;
    }

    /** What the recall {@code order} takes back from {@code stream}: for each event, its recalled entry and its frame's carrier. */
    List<StreamEvent> apply(StreamId stream, RecipientEvent order, long now) {
        StreamHead head = heads.get(stream);
        if (head == null) {
            return List.of();
        }
        List<SequencedEvent> found = new ArrayList<>();
        try (KeyValueIterator<InboxKey, SequencedEvent> it = inbox.range(new InboxKey(stream, head.firstSeq()),
                new InboxKey(stream, head.lastSeq()))) {
            while (it.hasNext()) {
                SequencedEvent e = it.next().value;
                if (!e.recalled() && Objects.equals(order.producer(), e.producer()) && order.recall().matches(e.id(), e.cancellationKey())) {
                    found.add(e);
                }
            }
        }
        List<StreamEvent> out = new ArrayList<>(found.size() * 2);
        for (SequencedEvent e : found) {
            SequencedEvent recalled = e.asRecalled();
            inbox.put(new InboxKey(stream, e.seq()), recalled);
            out.add(recalled);
            out.add(new RecalledFrame(stream, e.epoch(), e.seq(), e.id()).toLiveEvent(EventIds.generate(), SOURCE, now));
        }
        return out;
    }
}
