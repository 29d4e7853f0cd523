package io.notify.cli.replay;

import java.util.List;

/**
 * A compact table for people: fixed column widths (so it streams and stays aligned without
 * reading everything first), two spaces between columns, cells longer than their column cut with
 * '…', '-' for a missing value, control characters shown as spaces. The last column is not padded.
 */
final class TableLayout implements ColumnWriter.Layout {

    private final int[] widths;

    TableLayout(List<Columns.Column> columns) {
        widths = columns.stream().mapToInt(Columns.Column::width).toArray();
    }

    @Override
    public void append(StringBuilder line, List<String> cells) {
        int start = line.length();
        for (int i = 0; i < widths.length; i++) {
            String v = cells.get(i);
            cell(line, v == null || v.isEmpty() ? "-" : v, widths[i], i == widths.length - 1);
        }
        int end = line.length();
        while (end > start && line.charAt(end - 1) == ' ') {
            end--;
        }
        line.setLength(end);
        line.append('\n');
    }

    private static void cell(StringBuilder line, String value, int width, boolean last) {
        String v = value.length() > width ? value.substring(0, width - 1) + "…" : value;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            line.append(Character.isISOControl(c) ? ' ' : c);
        }
        if (!last) {
            line.append(" ".repeat(width - v.length() + 2));
        }
    }
}
