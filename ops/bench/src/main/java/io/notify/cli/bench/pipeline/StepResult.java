package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.LatencySummary;
import io.notify.cli.bench.gateway.ClientFleet;
import io.notify.cli.bench.gateway.IdCheck;
import java.util.List;

/**
 * One measured step of one run at one offered rate, with the clients' acks off or on: events
 * offered by the generator, accepted by ingest (202), failed at ingest, delivered to the clients'
 * apps within the settle bound (each event once, by id), lost (accepted, not delivered to its
 * recipient, by id), extra (delivered, never accepted), duplicates (an id delivered to the app
 * twice, or to a client that is not its recipient); rates per second; end-to-end latency from
 * {@code data.sentAtMs} to arrival at a client; the gateways' hop budget over the step, how the
 * events got there (live or through the safety net) and what the clients' acks became
 * ({@link ReceiptCounts}, counted until the receipts settled after the step); the CPU each
 * process used per delivered event ({@link CpuPerEvent}, from the start of the load to the count
 * of deliveries); fanout-streams' transaction commits over the same window ({@link CommitCost}); connections a gateway closed during the step and how many the clients
 * reconnected; up to {@link IdCheck#SAMPLES} lost event numbers and where each stopped
 * ({@link LostEvents}).
 */
public record StepResult(int run, double offeredRate, String acks, long offered, long accepted, long failed, long delivered, long lost,
                         long extra, long duplicates, double acceptedPerSecond, double deliveredPerSecond,
                         LatencySummary latencyMs, List<HopBudget.Hop> hops, DeliveryPaths paths, ReceiptCounts receipts,
                         CpuPerEvent cpuPerEvent, CommitCost commits, long closed, long reconnects, List<Long> lostSamples, List<String> lostWhere) {

    /**
     * Builds a step from the generator's run, the clients' counts and their by-id check: rates use
     * the pacing seconds for ingest and, for delivery, the longer of the pacing seconds and the span
     * from the first to the last arrival (a pipeline that falls behind stretches that span).
     */
    static StepResult of(int run, double offeredRate, String acks, PacedIngestLoad.Ran ran, ClientFleet.Delivered d, IdCheck ids,
                         List<HopBudget.Hop> hops, DeliveryPaths paths, ReceiptCounts receipts, CpuPerEvent cpuPerEvent,
                         CommitCost commits, List<String> lostWhere) {
        double deliverySeconds = Math.max(ran.seconds(), (d.lastMs() - d.firstMs()) / 1000.0);
        return new StepResult(run, offeredRate, acks, ran.offered(), ran.accepted(), ran.failed(), d.events(), ids.lost(),
                ids.unexpected(), ids.duplicates() + ids.misaddressed(), PipelineMath.rate(ran.accepted(), ran.seconds()),
                PipelineMath.rate(d.events(), deliverySeconds), d.latencyMs(), List.copyOf(hops), paths, receipts, cpuPerEvent,
                commits, d.closed(), d.reconnects(), ids.lostSamples(), List.copyOf(lostWhere));
    }
}
