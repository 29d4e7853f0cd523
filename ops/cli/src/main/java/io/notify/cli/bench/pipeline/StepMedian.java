package io.notify.cli.bench.pipeline;

/**
 * The median over the runs of each number of one offered rate (each column on its own); failed,
 * lost, extra, duplicates, closed and reconnects are the sums over the runs. Sustained: delivered
 * at least {@value PipelineMath#SUSTAINED_FRACTION} of offered, nothing failed, lost or
 * duplicated (keeps up), and p99 within the bound.
 */
public record StepMedian(double offeredRate, int runs, double acceptedPerSecond, double deliveredPerSecond, double p50Ms,
                         double p95Ms, double p99Ms, double maxMs, long failed, long lost, long extra, long duplicates,
                         long closed, long reconnects, boolean keepsUp, boolean sustained) {
}
