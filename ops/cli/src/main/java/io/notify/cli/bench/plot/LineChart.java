package io.notify.cli.bench.plot;

import java.awt.BasicStroke;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.geom.Path2D;
import java.util.ArrayList;
import java.util.List;

/**
 * Several series of (x, y) points drawn as lines with point markers, linear x axis, linear (from
 * zero) or log y axis, grid, ticks, legend and title. Non-finite points are skipped.
 */
public final class LineChart implements Chart {

    /** One line: its name in the legend and its points, {@code xs[i]} paired with {@code ys[i]}. */
    public record Series(String name, double[] xs, double[] ys) {

        public Series {
            if (xs.length != ys.length) {
                throw new IllegalArgumentException("series " + name + ": " + xs.length + " x values but " + ys.length + " y values");
            }
            xs = xs.clone();
            ys = ys.clone();
        }
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<Series> series = new ArrayList<>();
    private boolean logY;

    public LineChart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    public LineChart add(String name, double[] xs, double[] ys) {
        series.add(new Series(name, xs, ys));
        return this;
    }

    /** A log10 y axis (for values spanning orders of magnitude; values ≤ 0 sit on the axis floor). */
    public LineChart logY() {
        this.logY = true;
        return this;
    }

    @Override
    public void draw(Graphics2D g, int width, int height) {
        double[] xr = ChartFrame.range(series.stream().map(Series::xs).toArray(double[][]::new));
        double[] yr = ChartFrame.range(series.stream().map(Series::ys).toArray(double[][]::new));
        Axis y = ChartFrame.yAxis(yr, logY);
        Rectangle plot = ChartFrame.draw(g, width, height, title, xLabel, yLabel,
                series.stream().map(Series::name).toList(), y);
        if (xr == null || yr == null) {
            ChartFrame.noData(g, plot);
            return;
        }
        Axis x = Axis.linear(xr[0], xr[1]);
        for (double t : x.ticks()) {
            ChartFrame.tickLabel(g, plot, xPixel(plot, x, t), Axis.format(t));
        }
        g.setStroke(new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        for (int s = 0; s < series.size(); s++) {
            Series line = series.get(s);
            g.setColor(Palette.color(s));
            Path2D path = new Path2D.Double();
            boolean started = false;
            for (int i = 0; i < line.xs().length; i++) {
                if (!Double.isFinite(line.xs()[i]) || !Double.isFinite(line.ys()[i])) {
                    continue;
                }
                int px = xPixel(plot, x, line.xs()[i]);
                int py = ChartFrame.yPixel(plot, y, line.ys()[i]);
                if (started) {
                    path.lineTo(px, py);
                } else {
                    path.moveTo(px, py);
                    started = true;
                }
                g.fillOval(px - 4, py - 4, 9, 9);
            }
            g.draw(path);
        }
    }

    private static int xPixel(Rectangle plot, Axis x, double v) {
        return (int) Math.round(plot.x + x.fraction(v) * plot.width);
    }
}
