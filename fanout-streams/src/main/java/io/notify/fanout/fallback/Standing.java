package io.notify.fanout.fallback;

import io.notify.protocol.inbox.EventState;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.stream.SequencedEvent;
import java.util.List;
import java.util.function.LongFunction;

/**
 * What a due fallback still stands for (docs/inbox.md, "Offline fallback", "Digests"): of its events (one, or a digest's),
 * those no device acknowledged, the user neither read nor archived, the producer did not recall and that have not
 * expired; how many ({@code count}, a digest's events beyond the seqs it remembers counted as standing), the first and
 * the last of them with their content ({@code first}, {@code last}; null when none has content to show), and, when
 * none stands, why ({@link #cancelled()}). Pure: the caller passes the read state and a view of the inbox.
 */
record Standing(long count, SequencedEvent first, SequencedEvent last, String cancelled) {

    /**
     * @param event   the fallback's event (a digest's first)
     * @param digest  the digest it opened, or null
     * @param state   the stream's read state when it is of the event's history, else null (nothing acknowledged or read)
     * @param held    the inbox entry at a seq of the event's history, or null when the inbox is of another history
     * @param now     the decision's time, for expiry
     */
    static Standing of(SequencedEvent event, OpenDigest digest, InboxState state, LongFunction<SequencedEvent> held, long now) {
        List<Long> seqs = digest == null ? List.of(event.seq()) : digest.seqs();
        long overflow = digest == null ? 0 : digest.count() - seqs.size(); // folded beyond what is remembered: standing
        long maxAcked = state == null ? 0 : state.devices().values().stream().mapToLong(d -> d.acked()).max().orElse(0);
        boolean read = false;
        boolean recalled = false;
        boolean expired = false;
        long count = overflow;
        SequencedEvent first = null;
        SequencedEvent last = null;
        for (long seq : seqs) {
            EventState s = state == null ? EventState.UNSEEN : state.stateOf(seq);
            if (s == EventState.READ || s == EventState.ARCHIVED) {
                // a recall archives the user's entry by a system mark: counted as the recall's, not as a read
                SequencedEvent archived = s == EventState.ARCHIVED ? content(seq, event, digest, held) : null;
                if (archived != null && archived.recalled()) {
                    recalled = true;
                } else {
                    read = true;
                }
                continue;
            }
            if (maxAcked >= seq) {
                continue;
            }
            SequencedEvent e = content(seq, event, digest, held);
            if (e != null && e.recalled()) {
                recalled = true;
                continue;
            }
            if (e != null && e.expiredAt(now)) {
                expired = true;
                continue;
            }
            count++;
            if (e != null) {
                first = first == null ? e : first;
                last = e;
            }
        }
        if (count > 0 && last == null) { // only events past what the digest remembers stand: show the last it folded
            SequencedEvent remembered = digest == null ? event : digest.last();
            first = remembered;
            last = remembered;
        }
        String why = count > 0 ? null : recalled ? "cancelled_recalled" : expired ? "cancelled_expired"
                : read ? "cancelled_read" : "cancelled_ack";
        return new Standing(count, first, last, why);
    }

    /** The event at {@code seq}: the inbox's entry (recalled ones included), else the copy the fallback or digest remembers. */
    private static SequencedEvent content(long seq, SequencedEvent event, OpenDigest digest, LongFunction<SequencedEvent> held) {
        SequencedEvent inInbox = held == null ? null : held.apply(seq);
        if (inInbox != null) {
            return inInbox;
        }
        if (seq == event.seq()) {
            return event;
        }
        return digest != null && seq == digest.last().seq() ? digest.last() : null;
    }

    /** Whether nothing stands: the fallback is cancelled ({@link #cancelled()} says why). */
    boolean none() {
        return count == 0;
    }
}
