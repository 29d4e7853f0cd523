package io.notify.cli.bench.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartRenderingInfo;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.general.DatasetUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both chart kinds render to real PNGs: read back, right size, every series drawn in its color inside
 * the plot (not only in the legend); and the adapter hands JFreeChart the right data and axes.
 */
class PngChartsTest {

    @TempDir
    Path dir;

    @Test
    void lineChartDrawsEverySeriesInItsColorInsideThePlot() throws Exception {
        LineChart chart = new LineChart("heap and RSS", "connections", "MB")
                .add("heap", new double[] {0, 7500, 15000}, new double[] {19, 70, 121})
                .add("RSS", new double[] {0, 7500, 15000}, new double[] {190, 385, 533});
        BufferedImage png = ImageIO.read(PngCharts.write(dir.resolve("line.png"), chart).toFile());

        assertEquals(PngCharts.WIDTH, png.getWidth());
        assertEquals(PngCharts.HEIGHT, png.getHeight());
        Rectangle plot = dataArea(chart, 0);
        assertTrue(count(png, plot, Palette.color(0)) > 300, "heap line drawn");
        assertTrue(count(png, plot, Palette.color(1)) > 300, "RSS line drawn");
        assertEquals(0, count(png, whole(png), Palette.color(2)), "no third series");
        NumberAxis y = assertInstanceOf(NumberAxis.class, chart.toJFreeChart().getXYPlot().getRangeAxis());
        assertEquals(0, y.getLowerBound(), "a linear y axis starts at zero");
    }

    @Test
    void groupedBarChartDrawsBarsPerSeriesAndStacksPanels() throws Exception {
        BarChart bars = new BarChart("events/s per mode", "mode", "events/s",
                List.of("raw-producer", "ingest-single", "ingest-batch100"))
                .add("run 1", 608_318, 2_794, 45_648)
                .add("run 2", 643_625, 5_176, 52_781)
                .add("median", 608_318, 5_176, 45_648)
                .logY();
        BarChart linear = new BarChart("latency", "percentile", "ms", List.of("p50", "p99"))
                .add("e2e", 3.5, 20.1);
        Path file = PngCharts.write(dir.resolve("sub/bars.png"), bars, linear);
        BufferedImage png = ImageIO.read(file.toFile());

        assertEquals(PngCharts.WIDTH, png.getWidth());
        assertEquals(2 * PngCharts.HEIGHT, png.getHeight());
        Rectangle top = dataArea(bars, 0);
        for (int s = 0; s < 3; s++) {
            // three bars of at least a few pixels each
            assertTrue(count(png, top, Palette.color(s)) > 3 * 100, "series " + s + " bars drawn");
        }
        Rectangle bottom = dataArea(linear, PngCharts.HEIGHT);
        assertTrue(count(png, bottom, Palette.color(0)) > 2 * 100, "second panel's bars drawn below the first");
        assertEquals(0, count(png, bottom, Palette.color(1)), "the second panel has one series");
        assertTrue(count(png, whole(png), Color.WHITE) > png.getWidth() * png.getHeight() / 3, "mostly white background");
    }

    @Test
    void logAxisSpansWholeDecadesAndLeavesOutWhatItCannotShow() {
        BarChart bars = new BarChart("t", "x", "y", List.of("a", "b", "c"))
                .add("s", 2_794, 643_625, 0)
                .add("gap", Double.NaN, 10_000, 20_000)
                .logY();
        CategoryPlot plot = bars.toJFreeChart().getCategoryPlot();
        LogAxis y = assertInstanceOf(LogAxis.class, plot.getRangeAxis());
        assertEquals(1_000, y.getLowerBound(), 1e-6);
        assertEquals(1_000_000, y.getUpperBound(), 1);
        assertEquals("y (log scale)", y.getLabel());
        assertEquals(List.of("s", "gap"), plot.getDataset().getRowKeys());
        assertNull(plot.getDataset().getValue("s", "c"), "0 has no place on a log axis");
        assertNull(plot.getDataset().getValue("gap", "a"), "NaN is a gap");
        assertEquals(20_000, plot.getDataset().getValue("gap", "c").doubleValue());

        LineChart line = new LineChart("t", "x", "ms")
                .add("p99", new double[] {1, 2, 3, Double.NaN}, new double[] {0, 40, Double.POSITIVE_INFINITY, 9})
                .logY();
        XYPlot xy = line.toJFreeChart().getXYPlot();
        assertEquals(1, xy.getDataset().getItemCount(0), "only (2, 40) is drawable");
        assertEquals(10, xy.getRangeAxis().getLowerBound(), 1e-9);
        assertEquals(100, xy.getRangeAxis().getUpperBound(), 1e-6);
    }

    @Test
    void aChartWithNothingToDrawSaysSo() {
        BarChart zeros = new BarChart("t", "round", "events", List.of("a", "b")).add("lost", 0, 0).logY();
        LineChart none = new LineChart("t", "x", "y");
        for (Chart chart : List.of(zeros, none)) {
            Plot plot = chart.toJFreeChart().getPlot();
            assertTrue(plot instanceof CategoryPlot c ? DatasetUtils.isEmptyOrNull(c.getDataset())
                    : DatasetUtils.isEmptyOrNull(((XYPlot) plot).getDataset()), "nothing drawable");
            assertEquals("no data", plot.getNoDataMessage());
        }
        assertEquals(2 * PngCharts.HEIGHT, PngCharts.render(PngCharts.WIDTH, PngCharts.HEIGHT, zeros, none).getHeight());
        NumberAxis y = (NumberAxis) new BarChart("t", "round", "events", List.of("a")).add("lost", 0)
                .toJFreeChart().getCategoryPlot().getRangeAxis();
        assertEquals(1, y.getUpperBound(), "all zeros: the axis still spans 0..1");
    }

    @Test
    void numbersReadCompactly() {
        assertEquals("1.5M", Chart.numbers().format(1_500_000));
        assertEquals("608.3K", Chart.numbers().format(608_318));
        assertEquals("45K", Chart.numbers().format(45_000));
        assertEquals("2.5", Chart.numbers().format(2.5));
        assertEquals("0.25", Chart.numbers().format(0.25));
        assertEquals("999.5", Chart.numbers().format(999.5));
        assertEquals("-12K", Chart.numbers().format(-12_000));
    }

    @Test
    void chartsRejectMismatchedSeries() {
        BarChart chart = new BarChart("t", "x", "y", List.of("a", "b"));
        assertThrows(IllegalArgumentException.class, () -> chart.add("s", 1));
        LineChart line = new LineChart("t", "x", "y");
        assertThrows(IllegalArgumentException.class, () -> line.add("s", new double[] {1, 2}, new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> PngCharts.render(PngCharts.WIDTH, PngCharts.HEIGHT));
    }

    /** Where JFreeChart puts the data of {@code chart} in a panel whose top is at {@code panelTop}. */
    private static Rectangle dataArea(Chart chart, int panelTop) {
        ChartRenderingInfo info = new ChartRenderingInfo();
        chart.toJFreeChart().createBufferedImage(PngCharts.WIDTH, PngCharts.HEIGHT, info);
        Rectangle area = info.getPlotInfo().getDataArea().getBounds();
        area.translate(0, panelTop);
        return area;
    }

    private static Rectangle whole(BufferedImage image) {
        return new Rectangle(0, 0, image.getWidth(), image.getHeight());
    }

    private static int count(BufferedImage image, Rectangle area, Color color) {
        int n = 0;
        int rgb = color.getRGB();
        for (int y = area.y; y < area.y + area.height; y++) {
            for (int x = area.x; x < area.x + area.width; x++) {
                n += image.getRGB(x, y) == rgb ? 1 : 0;
            }
        }
        return n;
    }
}
