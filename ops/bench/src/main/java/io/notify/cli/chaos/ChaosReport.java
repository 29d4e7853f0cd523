package io.notify.cli.chaos;

import io.notify.cli.bench.plot.BarChart;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.cli.bench.report.Stats;
import io.notify.cli.bench.pipeline.HopBudget;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a chaos run: per scenario the verdict (acked, delivered, lost, duplicates, out of
 * order, gaps, latency; how many of the acknowledged events and deliveries were room events; the
 * events given a ttl or recalled, which are neither lost nor expected) and the medians of each
 * per-fault figure, as a table and as JSON.
 */
record ChaosReport(Instant at, long seed, boolean quick, int users, int devicesPerUser, int rooms, double rate,
                   Withheld.Shares withheld, Map<String, Object> machine, List<ChaosRun.ScenarioResult> scenarios) {

    static ChaosReport of(ChaosOptions o, long seed, Instant at, List<ChaosRun.ScenarioResult> results) {
        return new ChaosReport(at, seed, o.quick(), o.users(), o.devicesPerUser(), o.rooms(), o.rate(), o.withheld(),
                ResultFiles.machine(), results);
    }

    /** The verdict's events given a ttl or recalled, and the seqs told without content, in one line. */
    static String withheldLine(Verifier.Verdict v) {
        Withheld.Expiry e = v.expiry();
        Withheld.Recalls r = v.recalls();
        return String.format("expired: %d sent, %d of %d deliveries arrived before expiry (%d after, by this clock), %d not; "
                        + "recalled: %d events, %d recalls sent, %d recalled frames, %d collapsed, %d arrived before the recall, "
                        + "%d after it, %d unexpected recalled frames; collapsed seqs %s", e.sent(), e.arrived(), e.due(), e.late(),
                e.notArrived(), r.events(), r.sent(), r.frames(), r.collapsed(), r.arrivedBefore(), r.afterRecall(), r.unexpected(),
                v.collapsed());
    }

    /**
     * Median of each numeric per-fault figure of a scenario, in the faults' column order; -1 (not
     * observed) is left out, and a column observed in no fault is NaN.
     */
    static Map<String, Double> medians(List<Map<String, Object>> faults) {
        Map<String, List<Double>> columns = new LinkedHashMap<>();
        for (Map<String, Object> f : faults) {
            f.forEach((k, v) -> {
                if (v instanceof Number n) {
                    List<Double> column = columns.computeIfAbsent(k, x -> new ArrayList<>());
                    if (n.doubleValue() >= 0) {
                        column.add(n.doubleValue());
                    }
                }
            });
        }
        Map<String, Double> m = new LinkedHashMap<>();
        columns.forEach((k, values) -> m.put(k, values.isEmpty() ? Double.NaN : Stats.median(values)));
        return m;
    }

    String table() {
        StringBuilder b = new StringBuilder();
        b.append(String.format("%n%-15s %6s %8s %9s %8s %9s %5s %5s %5s %5s %8s %8s  %s%n", "scenario", "faults", "acked",
                "delivered", "room ev", "room dlv", "lost", "dup", "ooo", "gaps", "p50 ms", "p99 ms", "verdict"));
        for (ChaosRun.ScenarioResult r : scenarios) {
            Verifier.Verdict v = r.verdict();
            if (v == null) {
                b.append(String.format("%-15s %6d  FAIL: could not finish: %s%n", r.scenario(), r.faults().size(), r.error()));
                continue;
            }
            b.append(String.format("%-15s %6d %8d %9d %8d %9d %5d %5d %5d %5d %8.1f %8.1f  %s%n", r.scenario(),
                    r.faults().size(), v.acked(), v.delivered(), v.roomAcked(), v.roomDelivered(), v.lost(), v.duplicates(), v.outOfOrder(), v.gaps(), v.latencyMs().p50(),
                    v.latencyMs().p99(), r.passed() ? "PASS" : "FAIL" + (r.servicesDownAtEnd().isEmpty() ? ""
                            : " (down: " + r.servicesDownAtEnd() + ")")));
        }
        b.append(String.format("%nper-fault medians:%n"));
        for (ChaosRun.ScenarioResult r : scenarios) {
            StringBuilder cols = new StringBuilder();
            medians(r.faults()).forEach((k, v) -> cols.append(String.format(" %s=%.0f", k, v)));
            b.append(String.format("  %-15s%s%n", r.scenario(), cols));
            if (r.hops() != null) {
                b.append("    hops ").append(HopBudget.line(r.hops())).append('\n');
            }
            if (r.verdict() == null) {
                continue;
            }
            b.append("    ").append(withheldLine(r.verdict())).append('\n');
            if (!r.verdict().lostSamples().isEmpty()) {
                b.append("    lost e.g. ").append(r.verdict().lostSamples()).append('\n');
            }
            for (String a : r.verdict().anomalies()) {
                b.append("    ").append(a).append('\n');
            }
        }
        return b.toString();
    }

    /** JSON, and a PNG with one chart per scenario: its timings (the figures in ms) per fault. */
    ResultFiles.Written write(Path out, String name) throws IOException {
        List<Chart> charts = new ArrayList<>();
        for (ChaosRun.ScenarioResult r : scenarios) {
            List<String> faults = new ArrayList<>();
            for (int i = 1; i <= r.faults().size(); i++) {
                faults.add(Integer.toString(i));
            }
            BarChart chart = new BarChart(r.scenario() + " (" + (r.passed() ? "PASS" : "FAIL") + "): timings per fault",
                    "fault", "ms", faults);
            for (String column : medians(r.faults()).keySet()) {
                if (column.endsWith("Ms")) {
                    chart.add(column, r.faults().stream().mapToDouble(f -> f.get(column) instanceof Number n
                            && n.doubleValue() >= 0 ? n.doubleValue() : Double.NaN).toArray());
                }
            }
            if (!faults.isEmpty()) {
                charts.add(chart);
            }
        }
        return ResultFiles.write(out, "chaos", name, at, this, charts.toArray(Chart[]::new));
    }
}
