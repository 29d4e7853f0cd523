package io.notify.cli.bench.pipeline;

/**
 * The median over the runs of each number of one offered rate and ack mode (each column on its
 * own); failed, lost, extra, duplicates, closed and reconnects are the sums over the runs.
 * Sustained: delivered at least {@value PipelineMath#SUSTAINED_FRACTION} of offered, nothing
 * failed, lost or duplicated (keeps up), and p99 within the bound. Per delivered event, over all
 * the runs' steps: ack frames the gateways received, ack receipts they wrote to
 * {@code notify.receipts}, acks they coalesced, and ack receipts fanout-streams applied
 * ({@link ReceiptCounts}). CPU per delivered event, each column the median over the runs
 * ({@link CpuPerEvent#median}).
 */
public record StepMedian(double offeredRate, String acks, int runs, double acceptedPerSecond, double deliveredPerSecond,
                         double p50Ms, double p95Ms, double p99Ms, double maxMs, long failed, long lost, long extra,
                         long duplicates, long closed, long reconnects, boolean keepsUp, boolean sustained,
                         double acksPerEvent, double receiptsPerEvent, double coalescedPerEvent, double appliedPerEvent,
                         CpuPerEvent cpuPerEvent) {
}
