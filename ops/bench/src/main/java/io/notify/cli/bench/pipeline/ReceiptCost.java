package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.report.Stats;
import java.util.List;

/**
 * The cost of delivery receipts: the sweep with every client acking against the same sweep without
 * acks, in the same invocation. The ratio on/off of the max sustained offered rate is the measure
 * (goal: receipts cost at most 10% of throughput, a ratio of at least {@value #GOAL}); it can only
 * move by the sweep's steps, so the ratio of the peak delivered rates (past saturation, where the
 * stack runs flat out) is given beside it. NaN without a sustained step with acks off; 0 when only
 * the acks-off sweep has one.
 */
public record ReceiptCost(Double offMaxSustainedRate, Double onMaxSustainedRate, double sustainedRatio,
                          double offPeakDeliveredPerSecond, double onPeakDeliveredPerSecond, double peakRatio,
                          double goal, boolean goalMet) {

    static final double GOAL = 0.90;

    /** The cost between the modes "on" and "off"; null unless both were measured. */
    static ReceiptCost of(List<ModeSummary> modes) {
        PipelineReport.Summary off = summaryOf(modes, "off");
        PipelineReport.Summary on = summaryOf(modes, "on");
        if (off == null || on == null) {
            return null;
        }
        double sustained = off.maxSustainedRate() == null ? Double.NaN
                : on.maxSustainedRate() == null ? 0 : Stats.ratio(on.maxSustainedRate(), off.maxSustainedRate());
        return new ReceiptCost(off.maxSustainedRate(), on.maxSustainedRate(), sustained, off.peakDeliveredPerSecond(),
                on.peakDeliveredPerSecond(), Stats.ratio(on.peakDeliveredPerSecond(), off.peakDeliveredPerSecond()), GOAL,
                sustained >= GOAL);
    }

    private static PipelineReport.Summary summaryOf(List<ModeSummary> modes, String acks) {
        return modes.stream().filter(m -> m.acks().equals(acks)).map(ModeSummary::summary).findFirst().orElse(null);
    }
}
