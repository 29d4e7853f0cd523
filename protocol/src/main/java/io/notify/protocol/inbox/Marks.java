package io.notify.protocol.inbox;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The seqs of one epoch that carry one mark (seen, read or archived): every seq up to {@code upTo},
 * and the seqs above it in {@code seqs} (ascending, distinct, each {@code > upTo}). A mark "up to n"
 * moves {@code upTo}; a mark by id adds seqs. At most {@link #MAX_SEQS} seqs are kept above
 * {@code upTo}: past that the oldest are dropped (their events read as unmarked), a bound counted
 * by the caller. Immutable.
 */
@JsonPropertyOrder({"upTo", "seqs"})
public record Marks(long upTo, List<Long> seqs) {

    /** More single marks than an inbox of the largest allowed size holds events. */
    public static final int MAX_SEQS = 10_000;
    public static final Marks NONE = new Marks(0, List.of());

    public Marks {
        if (upTo < 0) {
            throw new IllegalArgumentException("upTo must be >= 0, got " + upTo);
        }
        seqs = seqs == null ? List.of() : List.copyOf(seqs);
        long last = upTo;
        for (long s : seqs) {
            if (s <= last) {
                throw new IllegalArgumentException("seqs must be ascending, distinct and above upTo " + upTo + ", got " + seqs);
            }
            last = s;
        }
        if (seqs.size() > MAX_SEQS) {
            throw new IllegalArgumentException("at most " + MAX_SEQS + " seqs above upTo, got " + seqs.size());
        }
    }

    /** Whether {@code seq} carries the mark. */
    public boolean covers(long seq) {
        return seq <= upTo || java.util.Collections.binarySearch(seqs, seq) >= 0;
    }

    /** These marks and every seq up to {@code n}; unchanged when {@code n <= upTo}. */
    public Marks upTo(long n) {
        if (n <= upTo) {
            return this;
        }
        int from = 0;
        while (from < seqs.size() && seqs.get(from) <= n) {
            from++;
        }
        // seqs just above the new upTo join it: n+1, n+2, ... contiguous marks fold into upTo
        long newUpTo = n;
        while (from < seqs.size() && seqs.get(from) == newUpTo + 1) {
            newUpTo++;
            from++;
        }
        return new Marks(newUpTo, seqs.subList(from, seqs.size()));
    }

    /** These marks and {@code more}; the oldest single marks are dropped past {@link #MAX_SEQS}. */
    public Marks with(Collection<Long> more) {
        TreeSet<Long> all = new TreeSet<>(seqs);
        for (long s : more) {
            if (s > upTo) {
                all.add(s);
            }
        }
        long newUpTo = upTo;
        while (!all.isEmpty() && all.first() == newUpTo + 1) {
            newUpTo = all.pollFirst();
        }
        List<Long> kept = new ArrayList<>(all);
        if (kept.size() > MAX_SEQS) {
            kept = kept.subList(kept.size() - MAX_SEQS, kept.size());
        }
        return new Marks(newUpTo, kept);
    }

    /** Forgets single marks below {@code firstSeq} (events the inbox no longer holds). */
    public Marks pruneBelow(long firstSeq) {
        int from = 0;
        while (from < seqs.size() && seqs.get(from) < firstSeq) {
            from++;
        }
        return from == 0 ? this : new Marks(upTo, seqs.subList(from, seqs.size()));
    }

    /** How many of the seqs {@code from..to} (inclusive) carry at least one of {@code marks}: O(single marks), not O(range). */
    static long countAny(long from, long to, Marks... marks) {
        if (to < from) {
            return 0;
        }
        long prefix = 0;
        for (Marks m : marks) {
            prefix = Math.max(prefix, m.upTo);
        }
        long counted = Math.max(0, Math.min(prefix, to) - from + 1);
        long above = Math.max(prefix + 1, from);
        TreeSet<Long> singles = new TreeSet<>();
        for (Marks m : marks) {
            for (long s : m.seqs) {
                if (s >= above && s <= to) {
                    singles.add(s);
                }
            }
        }
        return counted + singles.size();
    }
}
