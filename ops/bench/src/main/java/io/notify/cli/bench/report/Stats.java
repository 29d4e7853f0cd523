package io.notify.cli.bench.report;

import java.util.List;
import java.util.function.ToDoubleFunction;

/** The arithmetic bench reports share. Pure. */
public final class Stats {

    private Stats() {
    }

    /** The median of the non-NaN values (mean of the middle two for an even count); NaN for none. */
    public static double median(List<Double> values) {
        double[] v = values.stream().filter(d -> d != null && !Double.isNaN(d)).mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** The median of {@code f} over {@code of} (non-NaN values, as {@link #median(List)}): one column of rows. */
    public static <T> double median(List<T> of, ToDoubleFunction<? super T> f) {
        return median(of.stream().map(f::applyAsDouble).toList());
    }

    /**
     * The nearest-rank quantile of {@code sorted} (ascending): the smallest value with at least
     * {@code fraction} of all at or below it (0 gives the first); NaN for none.
     */
    public static double quantile(long[] sorted, double fraction) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(fraction * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /** {@code value / denominator} rounded to three decimals; NaN when the denominator is not positive. */
    public static double ratio(double value, double denominator) {
        return denominator > 0 && Double.isFinite(value) ? Math.round(value / denominator * 1000) / 1000.0 : Double.NaN;
    }
}
