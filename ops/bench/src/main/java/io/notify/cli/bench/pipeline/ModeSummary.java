package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.report.Stats;
import java.util.List;

/**
 * One ack mode's sweep: its summary (max sustained rate, peak, ratios to the baseline, goals) and,
 * summed over all its measured steps, what the clients' acks became per delivered event — ack
 * frames the gateways received, ack receipts they wrote to {@code notify.receipts}, acks coalesced
 * into a waiting receipt, ack receipts fanout-streams applied — and the receipts the gateways
 * dropped (pending bound full) or failed to write. All per-event figures are 0 with acks off.
 */
public record ModeSummary(String acks, PipelineReport.Summary summary, double acksPerEvent, double receiptsPerEvent,
                          double coalescedPerEvent, double appliedPerEvent, long receiptsDropped, long receiptsFailed) {

    static ModeSummary of(String acks, PipelineReport.Summary summary, List<StepResult> steps) {
        List<StepResult> of = steps.stream().filter(s -> s.acks().equals(acks)).toList();
        long events = of.stream().mapToLong(StepResult::delivered).sum();
        ReceiptCounts r = ReceiptCounts.sum(of.stream().map(s -> s.receipts() == null ? ReceiptCounts.NONE : s.receipts()).toList());
        return new ModeSummary(acks, summary, Stats.ratio(r.acks(), events), Stats.ratio(r.produced(), events),
                Stats.ratio(r.coalesced(), events), Stats.ratio(r.applied(), events), r.dropped(), r.failed());
    }
}
