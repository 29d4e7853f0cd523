package io.notify.cli.bench.plot;

import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * Renders charts to PNG, headless (no display needed). Several charts are stacked vertically, each
 * in a {@value #WIDTH} × {@value #HEIGHT} panel.
 */
public final class PngCharts {

    public static final int WIDTH = 900;
    public static final int HEIGHT = 540;

    private PngCharts() {
    }

    /** The charts stacked top to bottom, each {@code width × height}. */
    public static BufferedImage render(int width, int height, Chart... charts) {
        if (charts.length == 0) {
            throw new IllegalArgumentException("no charts to render");
        }
        BufferedImage image = new BufferedImage(width, height * charts.length, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            for (int i = 0; i < charts.length; i++) {
                charts[i].toJFreeChart().draw(g, new Rectangle(0, i * height, width, height));
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    /** Writes the charts, stacked, as a PNG at {@code file} (parent folders created). */
    public static Path write(Path file, Chart... charts) throws IOException {
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        if (!ImageIO.write(render(WIDTH, HEIGHT, charts), "png", file.toFile())) {
            throw new IOException("no PNG writer available");
        }
        return file;
    }
}
