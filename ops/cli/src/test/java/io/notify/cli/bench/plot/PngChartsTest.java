package io.notify.cli.bench.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both chart kinds render to real PNGs: read back, right size, every series' color drawn beyond its legend swatch. */
class PngChartsTest {

    private static final int SWATCH_PIXELS = ChartFrame.SWATCH * ChartFrame.SWATCH;

    @TempDir
    Path dir;

    @Test
    void lineChartDrawsEverySeriesInItsLegendColor() throws Exception {
        LineChart chart = new LineChart("heap and RSS", "connections", "MB")
                .add("heap", new double[] {0, 7500, 15000}, new double[] {19, 70, 121})
                .add("RSS", new double[] {0, 7500, 15000}, new double[] {190, 385, 533});
        BufferedImage png = ImageIO.read(PngCharts.write(dir.resolve("line.png"), chart).toFile());

        assertEquals(PngCharts.WIDTH, png.getWidth());
        assertEquals(PngCharts.HEIGHT, png.getHeight());
        assertTrue(count(png, Palette.color(0)) > SWATCH_PIXELS + 50, "heap line markers drawn");
        assertTrue(count(png, Palette.color(1)) > SWATCH_PIXELS + 50, "RSS line markers drawn");
        assertEquals(0, count(png, Palette.color(2)), "no third series");
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
        for (int s = 0; s < 3; s++) {
            // three bars of at least a few pixels each, plus the swatch
            assertTrue(count(png, Palette.color(s)) > SWATCH_PIXELS + 3 * 100, "series " + s + " bars drawn");
        }
        assertTrue(count(png, Color.WHITE) > png.getWidth() * png.getHeight() / 3, "mostly white background");
    }

    @Test
    void barChartRejectsASeriesOfTheWrongLength() {
        BarChart chart = new BarChart("t", "x", "y", List.of("a", "b"));
        assertThrows(IllegalArgumentException.class, () -> chart.add("s", 1));
    }

    @Test
    void axesRoundToNiceTicks() {
        Axis lin = Axis.linear(0, 533);
        assertEquals(0, lin.min());
        assertEquals(600, lin.max());
        assertEquals(List.of(0.0, 100.0, 200.0, 300.0, 400.0, 500.0, 600.0), lin.ticks());
        Axis log = Axis.log(2_794, 643_625);
        assertEquals(List.of(1_000.0, 10_000.0, 100_000.0, 1_000_000.0), log.ticks());
        assertEquals(0.5, log.fraction(31_622.8), 0.001);
        assertEquals("1.5M", Axis.format(1_500_000));
        assertEquals("45k", Axis.format(45_000));
        assertEquals("2.5", Axis.format(2.5));
    }

    private static int count(BufferedImage image, Color color) {
        int n = 0;
        int rgb = color.getRGB();
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                n += image.getRGB(x, y) == rgb ? 1 : 0;
            }
        }
        return n;
    }
}
