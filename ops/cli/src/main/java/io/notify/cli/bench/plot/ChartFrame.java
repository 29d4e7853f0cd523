package io.notify.cli.bench.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.util.List;

/**
 * What line and bar charts share: white background, title, legend row, the plot rectangle, the
 * y axis with grid lines and tick labels, and the axis titles. Coordinates are pixels of the chart's area.
 */
final class ChartFrame {

    static final int SWATCH = 14;
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 17);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    private static final Font TICK = new Font(Font.SANS_SERIF, Font.PLAIN, 12);

    private ChartFrame() {
    }

    /** Draws everything around the data and returns the rectangle the data goes in. */
    static Rectangle draw(Graphics2D g, int width, int height, String title, String xLabel, String yLabel,
                          List<String> legend, Axis y) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Palette.TEXT);
        g.setFont(TITLE);
        FontMetrics tm = g.getFontMetrics();
        g.drawString(title, (width - tm.stringWidth(title)) / 2, 26);
        int legendBottom = legend(g, width, 44, legend);
        Rectangle plot = new Rectangle(86, legendBottom + 14, width - 86 - 28, height - legendBottom - 14 - 62);
        g.setFont(TICK);
        FontMetrics fm = g.getFontMetrics();
        for (double t : y.ticks()) {
            int py = yPixel(plot, y, t);
            g.setColor(Palette.GRID);
            g.drawLine(plot.x, py, plot.x + plot.width, py);
            g.setColor(Palette.AXIS);
            g.drawLine(plot.x - 5, py, plot.x, py);
            String s = Axis.format(t);
            g.drawString(s, plot.x - 8 - fm.stringWidth(s), py + fm.getAscent() / 2 - 1);
        }
        g.setColor(Palette.AXIS);
        g.setStroke(new BasicStroke(1.2f));
        g.drawLine(plot.x, plot.y, plot.x, plot.y + plot.height);
        g.drawLine(plot.x, plot.y + plot.height, plot.x + plot.width, plot.y + plot.height);
        g.setFont(LABEL);
        g.setColor(Palette.TEXT);
        FontMetrics lm = g.getFontMetrics();
        g.drawString(xLabel, plot.x + (plot.width - lm.stringWidth(xLabel)) / 2, height - 14);
        String yl = y.isLog() ? yLabel + " (log scale)" : yLabel;
        AffineTransform saved = g.getTransform();
        g.rotate(-Math.PI / 2);
        g.drawString(yl, -(plot.y + (plot.height + lm.stringWidth(yl)) / 2), 20);
        g.setTransform(saved);
        return plot;
    }

    /** The legend as one or more centered rows of swatch + name; returns the y below it. */
    private static int legend(Graphics2D g, int width, int top, List<String> names) {
        g.setFont(LABEL);
        FontMetrics fm = g.getFontMetrics();
        int rowStart = 0;
        int y = top;
        while (rowStart < names.size()) {
            int rowWidth = 0;
            int end = rowStart;
            while (end < names.size()) {
                int w = SWATCH + 6 + fm.stringWidth(names.get(end)) + 22;
                if (end > rowStart && rowWidth + w > width - 40) {
                    break;
                }
                rowWidth += w;
                end++;
            }
            int x = (width - rowWidth + 22) / 2;
            for (int i = rowStart; i < end; i++) {
                g.setColor(Palette.color(i));
                g.fillRect(x, y, SWATCH, SWATCH);
                g.setColor(Palette.TEXT);
                g.drawString(names.get(i), x + SWATCH + 6, y + SWATCH - 2);
                x += SWATCH + 6 + fm.stringWidth(names.get(i)) + 22;
            }
            y += SWATCH + 8;
            rowStart = end;
        }
        return y;
    }

    static int yPixel(Rectangle plot, Axis y, double v) {
        return (int) Math.round(plot.y + plot.height - y.fraction(v) * plot.height);
    }

    static void tickLabel(Graphics2D g, Rectangle plot, int x, String text) {
        g.setFont(TICK);
        g.setColor(Palette.AXIS);
        g.drawLine(x, plot.y + plot.height, x, plot.y + plot.height + 5);
        FontMetrics fm = g.getFontMetrics();
        g.setColor(Palette.TEXT);
        g.drawString(text, x - fm.stringWidth(text) / 2, plot.y + plot.height + 8 + fm.getAscent());
    }

    static void noData(Graphics2D g, Rectangle plot) {
        g.setFont(LABEL);
        g.setColor(Palette.AXIS);
        g.drawString("no data", plot.x + plot.width / 2 - 20, plot.y + plot.height / 2);
    }

    /** {lowest, highest, lowest positive (NaN if none)} of the finite values, or {@code null} when there are none. */
    static double[] range(double[]... values) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        double positive = Double.POSITIVE_INFINITY;
        for (double[] vs : values) {
            for (double v : vs) {
                if (Double.isFinite(v)) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                    positive = v > 0 ? Math.min(positive, v) : positive;
                }
            }
        }
        return lo > hi ? null : new double[] {lo, hi, Double.isFinite(positive) ? positive : Double.NaN};
    }

    /** The y axis for values in {@code range}: log when asked and the values are positive, linear from zero otherwise. */
    static Axis yAxis(double[] range, boolean log) {
        if (range == null) {
            return Axis.linear(0, 1);
        }
        if (log) {
            return Axis.log(range[2], range[1]);
        }
        return Axis.linear(Math.min(0, range[0]), Math.max(0, range[1]));
    }
}
