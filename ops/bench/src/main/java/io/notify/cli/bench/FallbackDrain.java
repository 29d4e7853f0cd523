package io.notify.cli.bench;

import io.notify.cli.bench.gateway.ProcessCpu;
import io.notify.cli.bench.gateway.ProcessMemory;
import io.notify.cli.bench.pipeline.HopBudget;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The second half of a {@code bench fallback} run: the backlog is routed, so every fallback is
 * pending in the instance's {@code fallback-pending} store. Polls the instance's {@code /metrics}
 * every 100 ms until every scheduled fallback is decided, meanwhile sampling its CPU ticks and RSS
 * from {@code /proc}, then reads the records back ({@link FallbackRecords}).
 */
final class FallbackDrain {

    static final String OUTCOMES = "notify_fanout_fallback_total";
    private static final String LATENESS = "notify_fanout_fallback_lateness_seconds";
    /** Outcomes that end a pending fallback (a quiet-hours hold and a fold do not). */
    private static final List<String> DECIDED = List.of("emitted_no_ack", "emitted_no_device", "cancelled_ack", "cancelled_read",
            "cancelled_expired");
    private static final List<String> ALL = List.of("scheduled", "emitted_no_ack", "emitted_no_device", "cancelled_ack",
            "cancelled_read", "cancelled_expired", "dropped_full", "held_quiet", "folded", "muted");
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration READ_BOUND = Duration.ofSeconds(60);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    /**
     * One run's fallback numbers.
     *
     * @param outcomes            {@code notify_fanout_fallback_total} by outcome at the end
     * @param peakPending         scheduled minus decided, most seen from the end of routing on (= --pending
     *                            when every fallback was pending at once)
     * @param timing              what the records say ({@link FallbackRecords.Timing})
     * @param pendingCpuPerSecond the instance's CPU seconds per second while everything was pending and nothing
     *                            due (the timer's idle checks, commits, and this bench's 10 scrapes/s); NaN if too short
     * @param burstCpuSeconds     the instance's CPU seconds from the last poll before the first decision to the
     *                            poll that saw the last one
     * @param burstSeconds        that window's length
     * @param pendingRssBytes     the instance's RSS with every fallback pending (end of routing)
     * @param burstRssPeakBytes   its RSS, most seen during the burst
     * @param metricP50Ms         p50 of the app's own {@code notify_fanout_fallback_lateness_seconds}, interpolated in
     *                            its histogram's buckets (the instance's whole life: this run): a cross-check of the
     *                            records' (it times the decision, the records their write); p99 likewise
     */
    record Drain(Map<String, Long> outcomes, long peakPending, FallbackRecords.Timing timing, double pendingCpuPerSecond,
                 double burstCpuSeconds, double burstSeconds, long pendingRssBytes, long burstRssPeakBytes,
                 double metricP50Ms, double metricP99Ms) {
    }

    private FallbackDrain() {
    }

    /** Waits up to {@code bound} for {@code expected} fallbacks to be decided and measures them (see the class). */
    static Drain await(FanoutInstance app, String bootstrap, String topic, long expected, Duration bound,
                       Consumer<String> progress) throws IOException, InterruptedException {
        List<Long> pid = List.of(app.pid());
        long start = System.nanoTime();
        ProcessCpu.Ticks routed = ProcessCpu.sample(pid);
        long pendingRss = ProcessMemory.rssBytes(pid.get(0));
        ProcessCpu.Ticks before = routed;
        long beforeNanos = start;
        ProcessCpu.Ticks burstStart = null;
        long burstStartNanos = 0;
        long peak = 0;
        long rssPeak = 0;
        long nextProgress = start + PROGRESS_EVERY.toNanos();
        PrometheusText last;
        while (true) {
            PrometheusText m = app.metrics();
            last = m;
            long scheduled = count(m, "scheduled");
            long decided = DECIDED.stream().mapToLong(o -> count(m, o)).sum();
            peak = Math.max(peak, scheduled - decided);
            if (decided > 0 && burstStart == null) {
                burstStart = before; // the last sample with nothing decided: the whole burst is inside the window
                burstStartNanos = beforeNanos;
            }
            if (burstStart != null) {
                rssPeak = Math.max(rssPeak, ProcessMemory.rssBytes(pid.get(0)));
            }
            long now = System.nanoTime();
            if (decided >= expected - count(m, "dropped_full")) {
                break;
            }
            if (now - start - bound.toNanos() > 0) {
                progress.accept(String.format("only %,d of %,d fallbacks decided within %s; reading what was written",
                        decided, expected, bound));
                break;
            }
            if (now - nextProgress > 0) {
                progress.accept(String.format("fallbacks: %,d pending, %,d of %,d decided", scheduled - decided, decided, expected));
                nextProgress = now + PROGRESS_EVERY.toNanos();
            }
            before = ProcessCpu.sample(pid);
            beforeNanos = System.nanoTime();
            TimeUnit.MILLISECONDS.sleep(POLL.toMillis()); // poll interval of a bounded wait on the app's counters
        }
        ProcessCpu.Ticks done = ProcessCpu.sample(pid);
        long doneNanos = System.nanoTime();
        if (burstStart == null) {
            burstStart = done;
            burstStartNanos = doneNanos;
        }
        progress.accept("reading " + topic + " (read_committed)");
        FallbackRecords.Timing timing = FallbackRecords.Timing.of(FallbackRecords.read(bootstrap, topic, expected, READ_BOUND),
                expected);
        double waited = (burstStartNanos - start) / 1e9;
        double[] metric = HopBudget.quantiles(List.of(), List.of(last), LATENESS);
        Map<String, Long> outcomes = new LinkedHashMap<>();
        for (String o : ALL) {
            outcomes.put(o, count(last, o));
        }
        return new Drain(outcomes, peak, timing,
                waited >= 1 ? burstStart.since(routed).processSeconds() / waited : Double.NaN,
                done.since(burstStart).processSeconds(), (doneNanos - burstStartNanos) / 1e9, pendingRss, rssPeak,
                metric[0] * 1000, metric[1] * 1000);
    }

    private static long count(PrometheusText m, String outcome) {
        return (long) m.sum(OUTCOMES, "outcome", outcome);
    }
}
