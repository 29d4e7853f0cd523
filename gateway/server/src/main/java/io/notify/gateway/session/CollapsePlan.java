package io.notify.gateway.session;

import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.stream.SequencedEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Collapsed catch-up (docs/protocol.md, "Collapsed catch-up"): what a client is sent of one fetched
 * page of a stream. An event of a collapsing type ({@code collapses}) with a collapse key is left out
 * when a later event of the same page has the same type and the same key, which supersedes it; the
 * seqs left out go as {@code collapsed} frames, consecutive ones merged into one {@code from..to}, each
 * in its seq's place among the events. So every seq of the page is in exactly one entry, in seq order.
 * The last event of a type and key in the page is always sent; an event without a key, or of a type
 * that does not collapse, or one its producer recalled (sent as its position, reason {@code recalled}), is
 * never left out and never supersedes another. Pure: no I/O, no state.
 *
 * @param entries   the page's events and collapsed runs, in seq order
 * @param collapsed how many events the collapsed runs stand in for
 */
record CollapsePlan(List<Entry> entries, int collapsed) {

    /** One entry of a plan. */
    sealed interface Entry permits Send, Skip {
    }

    /** An event sent as it is. */
    record Send(SequencedEvent event) implements Entry {
    }

    /** Seqs left out, sent as one {@code collapsed} frame. */
    record Skip(CollapsedFrame frame) implements Entry {
    }

    private record TypeKey(String type, String key) {
    }

    CollapsePlan {
        entries = List.copyOf(entries);
    }

    /**
     * The plan of {@code page} (a fetched page's events in seq order); null when nothing of it
     * collapses, so the caller sends the page as it is (and builds nothing).
     */
    static CollapsePlan of(List<SequencedEvent> page, Predicate<String> collapses) {
        int n = page.size();
        boolean[] leftOut = null;
        int count = 0;
        Set<TypeKey> later = null;
        for (int i = n - 1; i >= 0; i--) {
            SequencedEvent e = page.get(i);
            if (e.collapseKey() == null || e.recalled() || !collapses.test(e.type())) { // a recalled event is its position only
                continue;
            }
            if (later == null) {
                later = new HashSet<>();
            }
            if (!later.add(new TypeKey(e.type(), e.collapseKey()))) {
                if (leftOut == null) {
                    leftOut = new boolean[n];
                }
                leftOut[i] = true;
                count++;
            }
        }
        return leftOut == null ? null : new CollapsePlan(entries(page, leftOut, count), count);
    }

    private static List<Entry> entries(List<SequencedEvent> page, boolean[] leftOut, int count) {
        List<Entry> out = new ArrayList<>(page.size() - count + 1);
        SequencedEvent runFirst = null;
        SequencedEvent runLast = null;
        for (int i = 0; i < page.size(); i++) {
            SequencedEvent e = page.get(i);
            boolean continues = runLast != null && e.epoch().equals(runLast.epoch()) && e.seq() == runLast.seq() + 1;
            if (runLast != null && !(leftOut[i] && continues)) {
                out.add(skip(runFirst, runLast));
                runFirst = null;
                runLast = null;
            }
            if (!leftOut[i]) {
                out.add(new Send(e));
            } else {
                runFirst = runFirst == null ? e : runFirst;
                runLast = e;
            }
        }
        if (runLast != null) {
            out.add(skip(runFirst, runLast));
        }
        return out;
    }

    private static Skip skip(SequencedEvent first, SequencedEvent last) {
        return new Skip(new CollapsedFrame(first.stream(), first.epoch(), first.seq(), last.seq()));
    }
}
