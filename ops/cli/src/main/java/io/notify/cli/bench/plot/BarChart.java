package io.notify.cli.bench.plot;

import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;

/**
 * A grouped bar chart: one group per category, one bar per series in each group, value labels on
 * the bars when they fit; linear (from zero) or log y axis. Non-finite values leave a gap.
 */
public final class BarChart implements Chart {

    /** One series: its name in the legend and one value per category, in category order. */
    public record Series(String name, double[] values) {

        public Series {
            values = values.clone();
        }
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<String> categories;
    private final List<Series> series = new ArrayList<>();
    private boolean logY;

    public BarChart(String title, String xLabel, String yLabel, List<String> categories) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.categories = List.copyOf(categories);
    }

    /** Adds a series with one value per category. */
    public BarChart add(String name, double... values) {
        if (values.length != categories.size()) {
            throw new IllegalArgumentException("series " + name + ": " + values.length + " values for "
                    + categories.size() + " categories");
        }
        series.add(new Series(name, values));
        return this;
    }

    /** A log10 y axis (for values spanning orders of magnitude; values ≤ 0 draw no bar). */
    public BarChart logY() {
        this.logY = true;
        return this;
    }

    @Override
    public void draw(Graphics2D g, int width, int height) {
        double[] yr = ChartFrame.range(series.stream().map(Series::values).toArray(double[][]::new));
        Axis y = ChartFrame.yAxis(yr, logY);
        Rectangle plot = ChartFrame.draw(g, width, height, title, xLabel, yLabel,
                series.stream().map(Series::name).toList(), y);
        if (yr == null || categories.isEmpty()) {
            ChartFrame.noData(g, plot);
            return;
        }
        double group = (double) plot.width / categories.size();
        double bar = group * 0.8 / Math.max(1, series.size());
        int base = ChartFrame.yPixel(plot, y, y.isLog() ? y.min() : 0);
        for (int c = 0; c < categories.size(); c++) {
            double left = plot.x + c * group + group * 0.1;
            ChartFrame.tickLabel(g, plot, (int) Math.round(plot.x + (c + 0.5) * group), categories.get(c));
            for (int s = 0; s < series.size(); s++) {
                double v = series.get(s).values()[c];
                if (!Double.isFinite(v) || (y.isLog() && v <= 0)) {
                    continue;
                }
                int x0 = (int) Math.round(left + s * bar);
                int x1 = (int) Math.round(left + (s + 1) * bar) - 2;
                int top = ChartFrame.yPixel(plot, y, v);
                g.setColor(Palette.color(s));
                g.fillRect(x0, Math.min(top, base), Math.max(1, x1 - x0), Math.abs(base - top));
                valueLabel(g, Axis.format(v), x0, x1, Math.min(top, base));
            }
        }
    }

    private static void valueLabel(Graphics2D g, String text, int x0, int x1, int top) {
        FontMetrics fm = g.getFontMetrics();
        if (fm.stringWidth(text) <= x1 - x0 + 10) {
            g.setColor(Palette.TEXT);
            g.drawString(text, (x0 + x1 - fm.stringWidth(text)) / 2, top - 3);
        }
    }
}
