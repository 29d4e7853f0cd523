package io.notify.cli.bench;

import static io.notify.cli.bench.FallbackRules.DIGEST;
import static io.notify.cli.bench.FallbackRules.QUIET;

import io.notify.cli.bench.plot.BarChart;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.report.Stats;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The quiet and digest modes of {@code bench fallback} in its report: every run, then over runs the
 * counts that must be 0 summed and the rest as medians (each number on its own).
 *
 * @param quiet   over the quiet runs; null when there were none
 * @param digests over the digest runs; null when there were none
 */
record FallbackRulesReport(List<FallbackRules.Result> runs, Quiet quiet, Digests digests) {

    /** Quiet mode over runs: the counts summed, the rest medians (see {@link FallbackRulesCheck.Quiet}). */
    record Quiet(long runs, long missing, long duplicates, long early, long notHeld, long dueAfterEnd, long usersOff,
                 double pushesPerUser, double latenessP50Ms, double latenessP99Ms, double latenessMaxMs, double publishSeconds,
                 double marginSeconds, double metricP50Ms, double metricP99Ms) {
    }

    /**
     * Digest mode over runs: the counts summed, the rest medians, {@code maxPushesPerUser} the most (see
     * {@link FallbackRulesCheck.Digests}).
     */
    record Digests(long runs, long missing, long duplicates, long wrongCount, long wrongEnds, long notDigests, long dueMismatch,
                   long early, double pushesPerUser, long maxPushesPerUser, double latenessP50Ms, double latenessP99Ms,
                   double latenessMaxMs, double publishSeconds, double spanSeconds) {
    }

    /** Null when there are no quiet or digest runs. */
    static FallbackRulesReport of(List<FallbackRules.Result> runs) {
        if (runs.isEmpty()) {
            return null;
        }
        List<FallbackRules.Result> qr = mode(runs, QUIET);
        List<FallbackRulesCheck.Quiet> q = qr.stream().map(FallbackRules.Result::quiet).toList();
        List<FallbackRules.Result> dr = mode(runs, DIGEST);
        List<FallbackRulesCheck.Digests> d = dr.stream().map(FallbackRules.Result::digests).toList();
        Quiet quiet = q.isEmpty() ? null : new Quiet(q.size(), sum(q, FallbackRulesCheck.Quiet::missing),
                sum(q, FallbackRulesCheck.Quiet::duplicates), sum(q, FallbackRulesCheck.Quiet::early),
                sum(q, FallbackRulesCheck.Quiet::notHeld), sum(q, FallbackRulesCheck.Quiet::dueAfterEnd),
                sum(q, FallbackRulesCheck.Quiet::usersOff), Stats.median(q, FallbackRulesCheck.Quiet::pushesPerUser),
                Stats.median(q, FallbackRulesCheck.Quiet::latenessP50Ms), Stats.median(q, FallbackRulesCheck.Quiet::latenessP99Ms),
                Stats.median(q, FallbackRulesCheck.Quiet::latenessMaxMs), Stats.median(qr, FallbackRules.Result::publishSeconds),
                Stats.median(q, FallbackRulesCheck.Quiet::marginSeconds), Stats.median(qr, FallbackRules.Result::metricP50Ms),
                Stats.median(qr, FallbackRules.Result::metricP99Ms));
        Digests digests = d.isEmpty() ? null : new Digests(d.size(), sum(d, FallbackRulesCheck.Digests::missing),
                sum(d, FallbackRulesCheck.Digests::duplicates), sum(d, FallbackRulesCheck.Digests::wrongCount),
                sum(d, FallbackRulesCheck.Digests::wrongEnds), sum(d, FallbackRulesCheck.Digests::notDigests),
                sum(d, FallbackRulesCheck.Digests::dueMismatch), sum(d, FallbackRulesCheck.Digests::early),
                Stats.median(d, FallbackRulesCheck.Digests::pushesPerUser),
                d.stream().mapToLong(FallbackRulesCheck.Digests::maxPushesPerUser).max().orElse(0),
                Stats.median(d, FallbackRulesCheck.Digests::latenessP50Ms), Stats.median(d, FallbackRulesCheck.Digests::latenessP99Ms),
                Stats.median(d, FallbackRulesCheck.Digests::latenessMaxMs), Stats.median(dr, FallbackRules.Result::publishSeconds),
                Stats.median(d, FallbackRulesCheck.Digests::spanSeconds));
        return new FallbackRulesReport(runs, quiet, digests);
    }

    /** Whether every quiet and digest run met its goal (nothing missing, repeated, early or wrong). */
    boolean ok() {
        return runs.stream().allMatch(FallbackRules.Result::ok);
    }

    void print(PrintStream out) {
        if (quiet != null) {
            FallbackRules.Result first = mode(runs, QUIET).get(0);
            out.printf("%nquiet hours: %,d events to %,d users, each fallback due inside the users' quiet hours"
                    + " (the window's end at a whole minute of %s); lateness = at - the window's end%n", first.events(),
                    first.users(), first.window().timeZone());
            out.printf("%-7s %-11s %7s %7s %4s %5s %8s %8s %9s %8s %8s %6s %6s %7s %6s %10s%n", "run", "window", "records",
                    "missing", "dup", "early", "not held", "due>end", "users off", "push/usr", "late p50", "p99", "max ms",
                    "pub s", "margin", "held_quiet");
            for (FallbackRules.Result r : mode(runs, QUIET)) {
                FallbackRulesCheck.Quiet c = r.quiet();
                out.printf("%-7s %-11s %,7d %7d %4d %5d %8d %8d %9d %8.2f %8.0f %6.0f %6.0f %7.1f %6.1f %,10d%n", "run " + r.run(),
                        r.window().start() + "-" + r.window().end(), c.records(), c.missing(), c.duplicates(), c.early(),
                        c.notHeld(), c.dueAfterEnd(), c.usersOff(), c.pushesPerUser(), c.latenessP50Ms(), c.latenessP99Ms(),
                        c.latenessMaxMs(), r.publishSeconds(), c.marginSeconds(), r.outcomes().getOrDefault("held_quiet", 0L));
            }
            Quiet q = quiet;
            out.printf("%-7s %-11s %7s %7d %4d %5d %8d %8d %9d %8.2f %8.0f %6.0f %6.0f %7.1f %6.1f%n", "median", "", "",
                    q.missing(), q.duplicates(), q.early(), q.notHeld(), q.dueAfterEnd(), q.usersOff(), q.pushesPerUser(),
                    q.latenessP50Ms(), q.latenessP99Ms(), q.latenessMaxMs(), q.publishSeconds(), q.marginSeconds());
            out.printf("counts summed over runs (goal 0 each); due>end: events whose own due time was not inside the window (then"
                    + " raise --quiet-ends-in); margin: the window's end minus the last own due time, s; the app's lateness"
                    + " histogram p50 %.0f ms, p99 %.0f ms%n", q.metricP50Ms(), q.metricP99Ms());
        }
        if (digests != null) {
            FallbackRules.Result first = mode(runs, DIGEST).get(0);
            FallbackRulesCheck.Digests c0 = first.digests();
            out.printf("%ndigests: %,d users, %d events each with one digest key; lateness = at - (the first event's sequencedAt"
                    + " + the later of fallback.after and digest.window)%n", c0.users(), c0.perUser());
            out.printf("%-7s %7s %7s %4s %9s %9s %10s %9s %5s %8s %7s %8s %6s %6s %7s %6s %7s%n", "run", "records", "missing", "dup",
                    "bad count", "bad ends", "not digest", "bad dueAt", "early", "push/usr", "max/usr", "late p50", "p99",
                    "max ms", "pub s", "span s", "folded");
            for (FallbackRules.Result r : mode(runs, DIGEST)) {
                FallbackRulesCheck.Digests c = r.digests();
                out.printf("%-7s %,7d %7d %4d %9d %9d %10d %9d %5d %8.2f %7d %8.0f %6.0f %6.0f %7.1f %6.1f %,7d%n", "run " + r.run(),
                        c.records(), c.missing(), c.duplicates(), c.wrongCount(), c.wrongEnds(), c.notDigests(), c.dueMismatch(),
                        c.early(), c.pushesPerUser(), c.maxPushesPerUser(), c.latenessP50Ms(), c.latenessP99Ms(), c.latenessMaxMs(),
                        r.publishSeconds(), c.spanSeconds(), r.outcomes().getOrDefault("folded", 0L));
            }
            Digests d = digests;
            out.printf("%-7s %7s %7d %4d %9d %9d %10d %9d %5d %8.2f %7d %8.0f %6.0f %6.0f %7.1f %6.1f%n", "median", "", d.missing(),
                    d.duplicates(), d.wrongCount(), d.wrongEnds(), d.notDigests(), d.dueMismatch(), d.early(), d.pushesPerUser(),
                    d.maxPushesPerUser(), d.latenessP50Ms(), d.latenessP99Ms(), d.latenessMaxMs(), d.publishSeconds(),
                    d.spanSeconds());
            out.println("counts summed over runs (goal 0 each; push/usr goal 1); span: the longest first-to-last sequencing of"
                    + " one digest's events");
        }
        for (FallbackRules.Result r : runs) {
            if (!r.ok()) {
                out.printf("note: %s run %d missed its goal; outcomes %s%n", r.mode(), r.run(), r.outcomes());
            }
        }
    }

    /** The PNG's part: lateness per run of each mode (quiet: past the window's end; digests: past the digest's due time). */
    List<Chart> charts() {
        List<Chart> charts = new ArrayList<>();
        for (String mode : List.of(QUIET, DIGEST)) {
            List<FallbackRules.Result> of = mode(runs, mode);
            if (of.isEmpty()) {
                continue;
            }
            List<String> labels = of.stream().map(r -> "run " + r.run()).toList();
            charts.add(new BarChart(mode.equals(QUIET) ? "quiet hours: lateness past the window's end"
                    : "digests: lateness past the digest's due time", "run", "ms", labels)
                    .add("p50", of.stream().mapToDouble(r -> lateness(r)[0]).toArray())
                    .add("p99", of.stream().mapToDouble(r -> lateness(r)[1]).toArray())
                    .add("max", of.stream().mapToDouble(r -> lateness(r)[2]).toArray()));
        }
        return charts;
    }

    /** A run's lateness p50, p99 and max, ms. */
    private static double[] lateness(FallbackRules.Result r) {
        return r.quiet() != null ? new double[] {r.quiet().latenessP50Ms(), r.quiet().latenessP99Ms(), r.quiet().latenessMaxMs()}
                : new double[] {r.digests().latenessP50Ms(), r.digests().latenessP99Ms(), r.digests().latenessMaxMs()};
    }

    private static List<FallbackRules.Result> mode(List<FallbackRules.Result> runs, String mode) {
        return runs.stream().filter(r -> r.mode().equals(mode)).toList();
    }

    private static <T> long sum(List<T> of, ToLongFunction<T> f) {
        return of.stream().mapToLong(f).sum();
    }
}
