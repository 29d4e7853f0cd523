package io.notify.cli.bench.gateway;

import java.util.ArrayList;
import java.util.List;

/**
 * The by-id check of one tracked run ({@link IdLedger}) over some clients: events accepted for
 * them, delivered to their app, lost (accepted, never delivered), duplicates (delivered to the app
 * twice), unexpected (delivered, never accepted), misaddressed (delivered to a client that is not
 * the recipient), events of other runs, lost ones whose frame did arrive but after a later seq (so
 * the client, as an SDK does, dropped it as already processed), and up to {@value #SAMPLES} lost
 * event numbers with the position ("epoch:seq", or "none") their recipient's client had processed
 * when checked.
 */
public record IdCheck(long expected, long delivered, long lost, long duplicates, long unexpected, long misaddressed,
                      long otherRuns, long lostLate, List<Long> lostSamples, List<String> lostPositions) {

    /** Lost numbers kept as samples for the report. */
    public static final int SAMPLES = 20;

    public static final IdCheck NONE = new IdCheck(0, 0, 0, 0, 0, 0, 0, 0, List.of(), List.of());

    /** The sum of two checks (samples concatenated, bounded). */
    public IdCheck plus(IdCheck o) {
        List<Long> samples = new ArrayList<>(lostSamples);
        List<String> positions = new ArrayList<>(lostPositions);
        int room = Math.max(0, SAMPLES - samples.size());
        o.lostSamples.stream().limit(room).forEach(samples::add);
        o.lostPositions.stream().limit(room).forEach(positions::add);
        return new IdCheck(expected + o.expected, delivered + o.delivered, lost + o.lost, duplicates + o.duplicates,
                unexpected + o.unexpected, misaddressed + o.misaddressed, otherRuns + o.otherRuns, lostLate + o.lostLate,
                List.copyOf(samples), List.copyOf(positions));
    }

    /** This check with the positions of the lost samples' clients. */
    IdCheck withLostPositions(List<String> positions) {
        return new IdCheck(expected, delivered, lost, duplicates, unexpected, misaddressed, otherRuns, lostLate, lostSamples,
                List.copyOf(positions));
    }
}
