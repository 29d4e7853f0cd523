package io.notify.cli.bench.plot;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.ValueAxisPlot;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.Range;

/**
 * A chart of a {@code notifyctl bench} or {@code notifyctl chaos} report. This package is a thin
 * adapter from a report's numbers (series of points, bars per category) to JFreeChart, which draws
 * them; {@link PngCharts} writes them, stacked, to the report's PNG. Every chart has a title, axis
 * titles, a legend, and a linear (from zero) or log10 y axis; numbers read compactly (1.5M, 45K).
 */
public abstract sealed class Chart permits LineChart, BarChart {

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    final String title;
    final String xLabel;
    private final String yLabel;
    boolean logY;

    Chart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** The plot of this chart's data with the value axis {@code y}, as a chart titled {@link #title}. */
    abstract JFreeChart build(ValueAxis y);

    /** This chart for JFreeChart to draw, in the look of every report chart ({@link Palette}). */
    public final JFreeChart toJFreeChart() {
        ValueAxis y = logY ? new LogAxis(yLabel + " (log scale)") : new NumberAxis(yLabel);
        y.setTickLabelInsets(new RectangleInsets(7, 4, 7, 4)); // room between labels: about ten ticks, not twenty
        JFreeChart chart = build(y);
        Range data = ((ValueAxisPlot) chart.getPlot()).getDataRange(y);
        if (y instanceof LogAxis log) {
            log.setNumberFormatOverride(numbers());
            log.setStandardTickUnits(NumberAxis.createIntegerTickUnits()); // ticks at powers of ten only
            if (data != null) { // whole decades, so both ends have a tick (a hair above: LogAxis's own log is inexact)
                double lo = Math.floor(Math.log10(data.getLowerBound()));
                double hi = Math.max(lo + 1, Math.ceil(Math.log10(data.getUpperBound())));
                log.setRange(Math.pow(10, lo), Math.pow(10, hi) * (1 + 1e-9));
            }
        } else {
            ((NumberAxis) y).setNumberFormatOverride(numbers());
            if (data != null && data.getLowerBound() == 0 && data.getUpperBound() == 0) {
                y.setRange(0, 1); // all zeros: JFreeChart would zoom in on nothing
            }
        }
        chart.getPlot().setNoDataMessage("no data");
        Palette.THEME.apply(chart);
        return chart;
    }

    /** Numbers for ticks and labels: 1.5M, 45K, 12, 0.25. */
    static NumberFormat numbers() {
        return new CompactNumbers();
    }

    /** The JDK's compact format from 1,000 up; below, plain (the compact one would drop the fraction of 2.5). */
    private static final class CompactNumbers extends NumberFormat {

        private final NumberFormat compact = NumberFormat.getCompactNumberInstance(Locale.US, NumberFormat.Style.SHORT);
        private final NumberFormat plain = new DecimalFormat("0.###", DecimalFormatSymbols.getInstance(Locale.US));

        CompactNumbers() {
            compact.setMaximumFractionDigits(1);
        }

        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
            return (Math.abs(number) < 1000 ? plain : compact).format(number, to, pos);
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
            return format((double) number, to, pos);
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            return compact.parse(source, pos);
        }
    }
}
