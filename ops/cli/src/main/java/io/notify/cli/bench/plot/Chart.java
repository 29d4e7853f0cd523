package io.notify.cli.bench.plot;

import java.awt.Graphics2D;

/** Something that draws itself into a {@code width × height} area whose top-left corner is (0, 0). */
public interface Chart {

    void draw(Graphics2D g, int width, int height);
}
