package io.notify.cli.bench.gateway;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The by-id account of one load agent for one tracked run: the pipeline generator numbers the
 * events of a run {@code 0, 1, 2, …} ({@code data.run}, {@code data.n}) and addresses event n to
 * user {@code n % users}; this ledger records which numbers reached the application of which
 * client, once. Checked against the generator's set of accepted numbers, it gives what was lost
 * (accepted, never delivered), duplicated (delivered to the app twice), unexpected (delivered but
 * never accepted, e.g. a batch that failed after its write) and misaddressed (delivered to a client
 * that is not its recipient). Events of another run are counted apart and otherwise ignored.
 * Pure and single-threaded (the agent's selector thread).
 */
final class IdLedger {

    private String run;
    private int users = 1;
    private final BitSet seen = new BitSet();
    private final BitSet late = new BitSet();
    private long duplicates;
    private long misaddressed;
    private long otherRuns;

    /** Starts tracking {@code run}, whose events go to user {@code n % users}; forgets the previous run. */
    void track(String run, int users) {
        if (users < 1) {
            throw new IllegalArgumentException("users must be >= 1, got " + users);
        }
        this.run = run;
        this.users = users;
        seen.clear();
        late.clear();
        duplicates = 0;
        misaddressed = 0;
        otherRuns = 0;
    }

    /** Whether a run is tracked. */
    boolean tracking() {
        return run != null;
    }

    /**
     * One event that reached the application of client {@code clientIndex}; true when it is the
     * first delivery of a number of the tracked run (the one that counts, and whose latency counts).
     */
    boolean record(int clientIndex, String eventRun, long n) {
        if (run == null || !run.equals(eventRun) || n < 0 || n > Integer.MAX_VALUE) {
            otherRuns++;
            return false;
        }
        if (n % users != clientIndex) {
            misaddressed++;
            return false;
        }
        if (seen.get((int) n)) {
            duplicates++;
            return false;
        }
        seen.set((int) n);
        return true;
    }

    /**
     * A frame of the tracked run that reached client {@code clientIndex} after a later seq of its
     * stream, and that the client therefore dropped as already processed: if it never reached the
     * app otherwise, the check counts it lost and late.
     */
    void late(int clientIndex, String eventRun, long n) {
        if (run != null && run.equals(eventRun) && n >= 0 && n <= Integer.MAX_VALUE && n % users == clientIndex) {
            late.set((int) n);
        }
    }

    /** Whether event {@code n} of the tracked run arrived only after a later seq (see {@link #late}). */
    boolean arrivedLate(long n) {
        return n >= 0 && n <= Integer.MAX_VALUE && late.get((int) n);
    }

    /** Checks the tracked run against the numbers the generator saw accepted, for clients {@code first .. first+count-1}. */
    IdCheck check(BitSet accepted, int first, int count) {
        long expected = 0;
        long delivered = 0;
        long lost = 0;
        long lostLate = 0;
        List<Long> samples = new ArrayList<>();
        for (int n = accepted.nextSetBit(0); n >= 0; n = accepted.nextSetBit(n + 1)) {
            int client = n % users;
            if (client < first || client >= first + count) {
                continue;
            }
            expected++;
            if (seen.get(n)) {
                delivered++;
            } else {
                lost++;
                lostLate += late.get(n) ? 1 : 0;
                if (samples.size() < IdCheck.SAMPLES) {
                    samples.add((long) n);
                }
            }
        }
        BitSet extra = (BitSet) seen.clone();
        extra.andNot(accepted);
        return new IdCheck(expected, delivered, lost, duplicates, extra.cardinality(), misaddressed, otherRuns, lostLate,
                List.copyOf(samples), List.of());
    }
}
