package io.notify.cli.bench.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.util.List;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.plot.DefaultDrawingSupplier;

/**
 * The look of every report chart: series colors that are distinct, readable on white, and in a fixed
 * order so a series keeps its color across charts; white background, light grid, flat bars, round markers.
 */
public final class Palette {

    private static final List<Color> COLORS = List.of(
            new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
            new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf));

    /** How many distinct series colors there are. */
    public static final int SIZE = 8;

    static final StandardChartTheme THEME = theme();

    private Palette() {
    }

    /** The color of series {@code index} (0-based); wraps after {@value #SIZE} series. */
    public static Color color(int index) {
        return COLORS.get(Math.floorMod(index, COLORS.size()));
    }

    private static StandardChartTheme theme() {
        StandardChartTheme theme = new StandardChartTheme("notify bench");
        theme.setExtraLargeFont(new Font(Font.SANS_SERIF, Font.BOLD, 17));
        theme.setLargeFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        theme.setRegularFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        theme.setPlotBackgroundPaint(Color.WHITE);
        theme.setDomainGridlinePaint(new Color(0xe3e3e3));
        theme.setRangeGridlinePaint(new Color(0xe3e3e3));
        theme.setDrawingSupplier(new DefaultDrawingSupplier(COLORS.toArray(Paint[]::new),
                DefaultDrawingSupplier.DEFAULT_OUTLINE_PAINT_SEQUENCE,
                new Stroke[] {new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND)},
                DefaultDrawingSupplier.DEFAULT_OUTLINE_STROKE_SEQUENCE,
                new Shape[] {new Ellipse2D.Double(-4.5, -4.5, 9, 9)}));
        return theme;
    }
}
