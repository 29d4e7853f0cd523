package io.notify.cli.bench.plot;

import java.util.ArrayList;
import java.util.List;

/**
 * A value axis: a range rounded out to "nice" numbers, its tick values, and where a value lies on
 * it as a fraction 0..1. Linear, or log10 for data spanning orders of magnitude (positive values only).
 */
final class Axis {

    private final double min;
    private final double max;
    private final boolean log;
    private final double step;

    private Axis(double min, double max, boolean log, double step) {
        this.min = min;
        this.max = max;
        this.log = log;
        this.step = step;
    }

    /** A linear axis covering {@code lo..hi}, widened to whole ticks (about six of them). */
    static Axis linear(double lo, double hi) {
        if (!Double.isFinite(lo) || !Double.isFinite(hi)) {
            lo = 0;
            hi = 1;
        }
        if (hi <= lo) {
            hi = lo == 0 ? 1 : lo + Math.abs(lo) * 0.5;
        }
        double step = niceStep((hi - lo) / 6);
        return new Axis(Math.floor(lo / step) * step, Math.ceil(hi / step) * step, false, step);
    }

    /** A log10 axis covering {@code lo..hi} (both > 0), widened to whole decades. */
    static Axis log(double lo, double hi) {
        if (!(lo > 0) || !Double.isFinite(lo)) {
            lo = hi > 0 ? hi / 10 : 1;
        }
        if (!(hi > lo) || !Double.isFinite(hi)) {
            hi = lo * 10;
        }
        double a = Math.floor(Math.log10(lo));
        double b = Math.ceil(Math.log10(hi));
        return new Axis(Math.pow(10, a), Math.pow(10, b == a ? a + 1 : b), true, 0);
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double norm = raw / mag;
        return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
    }

    double min() {
        return min;
    }

    double max() {
        return max;
    }

    boolean isLog() {
        return log;
    }

    /** Where {@code v} lies between min (0) and max (1); values off the axis are clamped. */
    double fraction(double v) {
        double f = log ? (Math.log10(Math.max(v, min)) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))
                : (v - min) / (max - min);
        return Math.max(0, Math.min(1, f));
    }

    List<Double> ticks() {
        List<Double> ticks = new ArrayList<>();
        if (log) {
            for (double t = min; t <= max * 1.0001; t *= 10) {
                ticks.add(t);
            }
        } else {
            long n = Math.round((max - min) / step);
            for (long i = 0; i <= n; i++) {
                ticks.add(min + i * step);
            }
        }
        return ticks;
    }

    /** Compact labels: 1.5M, 45k, 12, 0.25. */
    static String format(double v) {
        double a = Math.abs(v);
        if (a >= 1e9) {
            return trim(v / 1e9) + "G";
        }
        if (a >= 1e6) {
            return trim(v / 1e6) + "M";
        }
        if (a >= 1e3) {
            return trim(v / 1e3) + "k";
        }
        return trim(v);
    }

    private static String trim(double v) {
        String s = Math.abs(v) >= 100 || v == Math.rint(v) ? String.format("%.0f", v)
                : Math.abs(v) >= 1 ? String.format("%.1f", v) : String.format("%.3g", v);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
