package io.notify.cli.why;

import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.SequencedEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The receipts of a user's stream that cover one event, reduced to what a timeline shows: the first
 * {@code ack} of each device and the first mark of each kind. Receipts are offered in the order
 * fan-out applied them (one partition, offset order), so memory stays the size of the answer however
 * many receipts the stream has.
 *
 * <p>A receipt covers the event when it is for the same stream and history (its {@code epoch} equal
 * or absent, as fan-out applies it) and reaches it: {@code upTo >= seq}, or, for a mark, the event's
 * id among its {@code ids}.
 */
final class FirstReceipts {

    private final SequencedEvent event;
    private final Set<String> seen = new HashSet<>();
    private final List<Receipt> kept = new ArrayList<>();

    FirstReceipts(SequencedEvent event) {
        this.event = event;
    }

    static boolean covers(Receipt r, SequencedEvent e) {
        if (!r.stream().equals(e.stream()) || (r.epoch() != null && !r.epoch().equals(e.epoch()))) {
            return false;
        }
        return (r.upTo() != null && r.upTo() >= e.seq()) || (r.kind().isMark() && r.ids() != null && r.ids().contains(e.id()));
    }

    /** Keeps {@code r} when it covers the event and is the first of its device (acks) or kind (marks); true if kept. */
    boolean offer(Receipt r) {
        if (!covers(r, event) || !seen.add(r.kind() == ReceiptKind.ACK ? "ack:" + r.device() : r.kind().wireName())) {
            return false;
        }
        kept.add(r);
        return true;
    }

    /** The kept receipts, in the order offered. */
    List<Receipt> kept() {
        return List.copyOf(kept);
    }

    /** {@code receipts} reduced as if each had been offered in turn. */
    static List<Receipt> firsts(SequencedEvent event, List<Receipt> receipts) {
        FirstReceipts f = new FirstReceipts(event);
        receipts.forEach(f::offer);
        return f.kept();
    }
}
