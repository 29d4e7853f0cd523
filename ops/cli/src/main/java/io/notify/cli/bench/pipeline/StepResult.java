package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.LatencySummary;
import java.util.List;

/**
 * One measured step of one run at one offered rate: events offered by the generator, accepted by
 * ingest (202), failed at ingest, delivered to clients within the settle bound, lost (accepted,
 * not delivered), extra (delivered beyond accepted); rates per second; end-to-end latency
 * from {@code data.sentAtMs} to arrival at a client; the gateways' hop budget over the step and
 * how the events got there (live or through the safety net).
 */
public record StepResult(int run, double offeredRate, long offered, long accepted, long failed, long delivered, long lost,
                         long extra, double acceptedPerSecond, double deliveredPerSecond, LatencySummary latencyMs,
                         List<HopBudget.Hop> hops, DeliveryPaths paths) {

    /**
     * Builds a step from the raw counts: rates use the pacing seconds for ingest and, for delivery,
     * the longer of the pacing seconds and the span from the first to the last arrival (a pipeline
     * that falls behind stretches that span).
     */
    static StepResult of(int run, double offeredRate, PacedIngestLoad.Ran ran, long delivered, long firstArrivalMs, long lastArrivalMs,
                         LatencySummary latency, List<HopBudget.Hop> hops, DeliveryPaths paths) {
        double deliverySeconds = Math.max(ran.seconds(), (lastArrivalMs - firstArrivalMs) / 1000.0);
        return new StepResult(run, offeredRate, ran.offered(), ran.accepted(), ran.failed(), delivered,
                Math.max(0, ran.accepted() - delivered), Math.max(0, delivered - ran.accepted()),
                PipelineMath.rate(ran.accepted(), ran.seconds()), PipelineMath.rate(delivered, deliverySeconds), latency,
                List.copyOf(hops), paths);
    }
}
