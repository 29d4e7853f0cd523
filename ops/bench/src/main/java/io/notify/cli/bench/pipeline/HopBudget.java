package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.PrometheusText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Where an event's time goes, hop by hop, over one step: the difference of the gateways'
 * {@code notify_gateway_hop_latency_seconds{hop}} histograms between two scrapes (every gateway
 * summed), as count, mean and interpolated p50/p99 per hop. Means add up (the hops tile the path
 * from ingest's accept to the socket write, {@code total}); percentiles do not. Also used by
 * {@code notifyctl chaos} over each scenario.
 */
public final class HopBudget {

    static final String METRIC = "notify_gateway_hop_latency_seconds";
    /** The hops in path order, then the whole path; names as the gateway tags them. */
    static final List<String> HOPS = List.of("ingest", "events_topic", "repartition", "route", "node_topic", "dispatch", "total");

    /** One hop's figures over a step. */
    public record Hop(String hop, long count, double meanMs, double p50Ms, double p99Ms) {
    }

    private HopBudget() {
    }

    public static List<Hop> between(List<PrometheusText> before, List<PrometheusText> after) {
        List<Hop> out = new ArrayList<>();
        for (String hop : HOPS) {
            double count = total(after, METRIC + "_count", hop) - total(before, METRIC + "_count", hop);
            if (count <= 0) {
                continue;
            }
            double sumSeconds = total(after, METRIC + "_sum", hop) - total(before, METRIC + "_sum", hop);
            NavigableMap<Double, Double> delta = delta(before, after, METRIC, "hop", hop);
            out.add(new Hop(hop, (long) count, sumSeconds / count * 1000, quantile(delta, 0.5) * 1000, quantile(delta, 0.99) * 1000));
        }
        return out;
    }

    /** p50 and p99 (seconds) of histogram {@code metric} between two scrapes of every node, summed over the nodes. */
    public static double[] quantiles(List<PrometheusText> before, List<PrometheusText> after, String metric) {
        NavigableMap<Double, Double> delta = delta(before, after, metric);
        return new double[] {quantile(delta, 0.5), quantile(delta, 0.99)};
    }

    private static NavigableMap<Double, Double> delta(List<PrometheusText> before, List<PrometheusText> after, String metric,
                                                      String... labels) {
        NavigableMap<Double, Double> delta = new TreeMap<>();
        after.forEach(m -> m.buckets(metric, labels).forEach((le, c) -> delta.merge(le, c, Double::sum)));
        before.forEach(m -> m.buckets(metric, labels).forEach((le, c) -> delta.merge(le, -c, Double::sum)));
        return delta;
    }

    /** One line: count, then mean / p50 / p99 ms per hop. */
    public static String line(List<Hop> hops) {
        StringBuilder b = new StringBuilder();
        for (Hop h : hops) {
            b.append(b.isEmpty() ? "" : ", ").append(String.format("%s %.0f/%.0f/%.0f", h.hop(), h.meanMs(), h.p50Ms(), h.p99Ms()));
        }
        return (hops.isEmpty() ? "none" : hops.get(hops.size() - 1).count() + " events") + " — ms mean/p50/p99: " + b;
    }

    private static double total(List<PrometheusText> scrapes, String name, String hop) {
        return PrometheusText.sum(scrapes, name, "hop", hop);
    }

    /**
     * The {@code q} quantile of cumulative bucket counts, interpolated linearly inside the bucket
     * that holds it (as Prometheus' histogram_quantile does); the highest finite bound when it
     * falls in the +Inf bucket; NaN without observations.
     */
    static double quantile(NavigableMap<Double, Double> cumulative, double q) {
        if (cumulative.isEmpty() || cumulative.lastEntry().getValue() <= 0) {
            return Double.NaN;
        }
        double target = q * cumulative.lastEntry().getValue();
        double lowerBound = 0;
        double lowerCount = 0;
        for (Map.Entry<Double, Double> b : cumulative.entrySet()) {
            if (b.getValue() >= target) {
                if (b.getKey().isInfinite()) {
                    return lowerBound;
                }
                double inBucket = b.getValue() - lowerCount;
                return inBucket <= 0 ? b.getKey() : lowerBound + (b.getKey() - lowerBound) * (target - lowerCount) / inBucket;
            }
            lowerBound = b.getKey();
            lowerCount = b.getValue();
        }
        return lowerBound;
    }
}
