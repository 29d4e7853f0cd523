package io.notify.cli.bench.report;

import java.util.List;

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

    /** {@code value / denominator} rounded to three decimals; NaN when the denominator is not positive. */
    public static double ratio(double value, double denominator) {
        return denominator > 0 && Double.isFinite(value) ? Math.round(value / denominator * 1000) / 1000.0 : Double.NaN;
    }
}
