package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When the nodes count as even: the spread of one sample, and the first of a stable run of even samples. */
class RebalanceReportTest {

    private static RebalanceReport.Sample at(double seconds, long... perNode) {
        return new RebalanceReport.Sample(seconds, java.util.Arrays.stream(perNode).boxed().toList());
    }

    @Test
    void spreadIsTheLargestDeviationFromTheEvenShare() {
        assertEquals(1.0, at(0, 3000, 3000, 0).spread(), 1e-9); // the new node is a whole share short
        assertEquals(0.0, at(0, 2000, 2000, 2000).spread(), 1e-9);
        assertEquals(0.1, at(0, 2200, 1900, 1900).spread(), 1e-9);
        assertTrue(Double.isNaN(at(0, 0, 0, 0).spread()), "no connections: no share to deviate from");
    }

    @Test
    void evenAfterIsTheStartOfTheFirstStableRunWithinTolerance() {
        List<RebalanceReport.Sample> samples = List.of(at(0, 3000, 3000, 0), at(1, 2100, 2100, 1800), // even once, then not
                at(2, 2400, 2400, 1200), at(3, 2050, 2000, 1950), at(4, 2010, 2000, 1990), at(5, 2000, 2000, 2000));
        assertEquals(3.0, RebalanceReport.evenAfter(samples, 0.1, 3), 1e-9);
        assertEquals(1.0, RebalanceReport.evenAfter(samples, 0.1, 1), 1e-9);
        assertTrue(Double.isNaN(RebalanceReport.evenAfter(samples, 0.1, 4)), "never even for 4 samples in a row");
        assertEquals(5.0, RebalanceReport.evenAfter(samples, 0.001, 1), 1e-9, "only the perfectly even sample");
        assertTrue(Double.isNaN(RebalanceReport.evenAfter(samples.subList(0, 3), 0.01, 1)));
    }
}
