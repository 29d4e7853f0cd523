package io.notify.cli.bench.gateway;

/**
 * The verifier of one client: its stored position (epoch, last seq processed, as in
 * docs/protocol.md §3.2) and what it saw in the current round. A round expects exactly the seqs
 * {@code position+1 .. target}; every durable event is classified as in order, duplicate
 * ({@code seq <= position}), a gap (seqs skipped: counted lost), beyond the target, or of another
 * epoch. Missing seqs at the end of the round are lost too. Pure and single-threaded.
 */
final class ResumeTally {

    private String epoch;
    private long position;
    private long target;
    private long inOrder;
    private long duplicates;
    private long skipped;
    private long outOfOrder;
    private long beyond;
    private long otherEpoch;
    private long resets;

    ResumeTally(String epoch, long position) {
        this.epoch = epoch;
        this.position = position;
        this.target = position;
    }

    /** Starts a round expecting {@code count} events after the current position; clears the round's counts. */
    void expect(long count) {
        target = position + count;
        inOrder = 0;
        duplicates = 0;
        skipped = 0;
        outOfOrder = 0;
        beyond = 0;
        otherEpoch = 0;
        resets = 0;
    }

    /**
     * One durable event as received; false when the client already processed its seq (a duplicate
     * frame, which an SDK drops before the app sees it, docs/protocol.md §3.2).
     */
    boolean onEvent(String eventEpoch, long seq) {
        if (epoch == null) {
            epoch = eventEpoch; // a client with no position takes the first event it sees as its start
            position = seq - 1;
            target = Math.max(target, position);
        }
        if (!epoch.equals(eventEpoch)) {
            otherEpoch++;
            return true;
        }
        if (seq <= position) {
            duplicates++;
            return false;
        }
        if (seq > position + 1) {
            outOfOrder++;
            skipped += seq - position - 1;
        }
        if (seq > target) {
            beyond++;
        } else {
            inOrder++;
        }
        position = seq;
        return true;
    }

    void onReset() {
        resets++;
    }

    /** Every expected seq has arrived (in order or not). */
    boolean complete() {
        return position >= target;
    }

    String epoch() {
        return epoch;
    }

    long position() {
        return position;
    }

    /** Seqs skipped by a gap (never delivered in this round, whatever came after). */
    long skipped() {
        return skipped;
    }

    long received() {
        return inOrder + beyond;
    }

    long duplicates() {
        return duplicates;
    }

    /** Seqs that never arrived: skipped by a gap, or still missing now. */
    long lost() {
        return skipped + Math.max(0, target - position);
    }

    long outOfOrder() {
        return outOfOrder;
    }

    long beyond() {
        return beyond;
    }

    long otherEpoch() {
        return otherEpoch;
    }

    long resets() {
        return resets;
    }
}
