package io.notify.cli.bench.plot;

import java.awt.Color;
import java.util.List;

/** Series colors: distinct, readable on white, and in a fixed order so a series keeps its color across charts. */
public final class Palette {

    private static final List<Color> COLORS = List.of(
            new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
            new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf));

    static final Color TEXT = new Color(0x222222);
    static final Color AXIS = new Color(0x555555);
    static final Color GRID = new Color(0xe3e3e3);

    private Palette() {
    }

    /** The color of series {@code index} (0-based); wraps after {@value #SIZE} series. */
    public static Color color(int index) {
        return COLORS.get(Math.floorMod(index, COLORS.size()));
    }

    /** How many distinct series colors there are. */
    public static final int SIZE = 8;
}
