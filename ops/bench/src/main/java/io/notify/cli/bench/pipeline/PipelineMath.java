package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.report.Stats;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The pure parts of {@code bench pipeline}: pacing, the sweep and its ack modes, medians per step, the max sustained rate. */
final class PipelineMath {

    static final double SUSTAINED_FRACTION = 0.95;

    private PipelineMath() {
    }

    /** Events due after {@code elapsedNanos} at {@code rate}/s (open loop: independent of what was answered). */
    static long due(double rate, long elapsedNanos) {
        return (long) Math.floor(rate * elapsedNanos / 1e9);
    }

    /** Parses "200,500,1000": positive rates, strictly increasing. */
    static List<Double> rates(String csv) {
        List<Double> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            double r = Double.parseDouble(s.trim());
            if (!(r > 0) || (!out.isEmpty() && r <= out.get(out.size() - 1))) {
                throw new IllegalArgumentException("--rates: positive and increasing, got " + csv);
            }
            out.add(r);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--rates: at least one rate");
        }
        return out;
    }

    static double rate(long count, double seconds) {
        return seconds > 0 ? count / seconds : 0;
    }

    /**
     * Medians per offered rate and ack mode, by rate (in the order of {@code rates}), then by mode (in
     * the order of {@code modes}); pairs without any step are left out.
     */
    static List<StepMedian> medians(List<String> modes, List<Double> rates, List<StepResult> steps, double p99BoundMs) {
        List<StepMedian> out = new ArrayList<>();
        for (double rate : rates) {
            for (String mode : modes) {
                List<StepResult> at = steps.stream().filter(s -> s.offeredRate() == rate && s.acks().equals(mode)).toList();
                if (!at.isEmpty()) {
                    out.add(median(rate, mode, at, p99BoundMs));
                }
            }
        }
        return out;
    }

    private static StepMedian median(double rate, String mode, List<StepResult> at, double p99BoundMs) {
        double delivered = Stats.median(at, StepResult::deliveredPerSecond);
        double p99 = Stats.median(at, s -> s.latencyMs().p99());
        long failed = at.stream().mapToLong(StepResult::failed).sum();
        long lost = at.stream().mapToLong(StepResult::lost).sum();
        long duplicates = at.stream().mapToLong(StepResult::duplicates).sum();
        boolean keepsUp = delivered >= SUSTAINED_FRACTION * rate && failed == 0 && lost == 0 && duplicates == 0;
        long events = at.stream().mapToLong(StepResult::delivered).sum();
        ReceiptCounts r = ReceiptCounts.sum(at.stream().map(s -> s.receipts() == null ? ReceiptCounts.NONE : s.receipts()).toList());
        return new StepMedian(rate, mode, at.size(), Stats.median(at, StepResult::acceptedPerSecond), delivered,
                Stats.median(at, s -> s.latencyMs().p50()), Stats.median(at, s -> s.latencyMs().p95()), p99,
                Stats.median(at, s -> s.latencyMs().max()), failed, lost, at.stream().mapToLong(StepResult::extra).sum(), duplicates,
                at.stream().mapToLong(StepResult::closed).sum(), at.stream().mapToLong(StepResult::reconnects).sum(),
                keepsUp, keepsUp && p99 <= p99BoundMs, Stats.ratio(r.acks(), events), Stats.ratio(r.produced(), events),
                Stats.ratio(r.coalesced(), events), Stats.ratio(r.applied(), events),
                CpuPerEvent.median(at.stream().map(StepResult::cpuPerEvent).toList()));
    }

    /** The ack modes {@code --ack-modes} may name. */
    static final List<String> ACK_MODES = List.of("off", "on");

    /** Parses "off,on": each of {@link #ACK_MODES} at most once, in the order given. */
    static List<String> ackModes(String csv) {
        List<String> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            String m = s.trim();
            if (!ACK_MODES.contains(m) || out.contains(m)) {
                throw new IllegalArgumentException("--ack-modes: off, on or off,on, got " + csv);
            }
            out.add(m);
        }
        return out;
    }

    /**
     * The order of the modes at step {@code step} of the sweep (0, 1, ... over runs and rates): as
     * given at even steps, reversed at odd ones, so that neither mode always runs first (right after
     * the previous rate's backlog) and slow drift hits both alike.
     */
    static List<String> modeOrder(List<String> modes, int step) {
        if (step % 2 == 0) {
            return modes;
        }
        List<String> reversed = new ArrayList<>(modes);
        Collections.reverse(reversed);
        return reversed;
    }

    /** The highest sustained step (every lower one need not be); null when none is. */
    static StepMedian maxSustained(List<StepMedian> medians) {
        return highest(medians, StepMedian::sustained);
    }

    /** The highest step that kept up (delivered about the offered rate, nothing lost or duplicated), whatever its latency; null when none did. */
    static StepMedian maxKeepingUp(List<StepMedian> medians) {
        return highest(medians, StepMedian::keepsUp);
    }

    private static StepMedian highest(List<StepMedian> medians, java.util.function.Predicate<StepMedian> ok) {
        StepMedian best = null;
        for (StepMedian m : medians) {
            if (ok.test(m) && (best == null || m.offeredRate() > best.offeredRate())) {
                best = m;
            }
        }
        return best;
    }

    /** The step whose offered rate is the highest at or below half of {@code max}'s (the lowest step if none); null without max. */
    static StepMedian atHalf(List<StepMedian> medians, StepMedian max) {
        if (max == null) {
            return null;
        }
        StepMedian pick = null;
        for (StepMedian m : medians) {
            if (m.offeredRate() <= max.offeredRate() / 2 + 1e-9 && (pick == null || m.offeredRate() > pick.offeredRate())) {
                pick = m;
            }
        }
        if (pick == null) {
            pick = medians.stream().min((a, b) -> Double.compare(a.offeredRate(), b.offeredRate())).orElse(null);
        }
        return pick;
    }


    /** The services {@code --set} may name. */
    static final List<String> SERVICES = List.of("fanout", "gateway", "ingest");

    /**
     * {@code --set SERVICE:KEY=VALUE} values grouped per service (every service present, maybe
     * empty); a malformed value or an unknown service is an error naming it.
     */
    static Map<String, Map<String, String>> serviceSettings(List<String> values) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        SERVICES.forEach(s -> out.put(s, new LinkedHashMap<>()));
        for (String v : values) {
            int colon = v.indexOf(':');
            int eq = v.indexOf('=', Math.max(colon, 0));
            if (colon <= 0 || eq <= colon + 1 || !out.containsKey(v.substring(0, colon))) {
                throw new IllegalArgumentException("--set " + v + ": expected SERVICE:KEY=VALUE with SERVICE one of " + SERVICES);
            }
            out.get(v.substring(0, colon)).put(v.substring(colon + 1, eq), v.substring(eq + 1));
        }
        return out;
    }
}
