package io.notify.cli.bench.plot;

import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Several series of (x, y) points drawn as lines with point markers; linear x axis, linear (from
 * zero) or log y axis. Non-finite points, and on a log axis points with y ≤ 0, are left out.
 */
public final class LineChart extends Chart {

    /** One line: its name in the legend (unique in the chart) and its points, {@code xs[i]} paired with {@code ys[i]}. */
    private record Series(String name, double[] xs, double[] ys) {
    }

    private final List<Series> series = new ArrayList<>();

    public LineChart(String title, String xLabel, String yLabel) {
        super(title, xLabel, yLabel);
    }

    public LineChart add(String name, double[] xs, double[] ys) {
        if (xs.length != ys.length) {
            throw new IllegalArgumentException("series " + name + ": " + xs.length + " x values but " + ys.length + " y values");
        }
        series.add(new Series(name, xs.clone(), ys.clone()));
        return this;
    }

    /** A log10 y axis (for values spanning orders of magnitude). */
    public LineChart logY() {
        this.logY = true;
        return this;
    }

    @Override
    JFreeChart build(ValueAxis y) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (Series s : series) {
            XYSeries points = new XYSeries(s.name(), false, true);
            for (int i = 0; i < s.xs().length; i++) {
                if (Double.isFinite(s.xs()[i]) && Double.isFinite(s.ys()[i]) && (!logY || s.ys()[i] > 0)) {
                    points.add(s.xs()[i], s.ys()[i]);
                }
            }
            data.addSeries(points);
        }
        NumberAxis x = new NumberAxis(xLabel);
        x.setAutoRangeIncludesZero(false);
        x.setNumberFormatOverride(numbers());
        return new JFreeChart(title, new XYPlot(data, x, y, new XYLineAndShapeRenderer()));
    }
}
