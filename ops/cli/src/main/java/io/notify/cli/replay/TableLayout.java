package io.notify.cli.replay;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Set;

/**
 * A compact table for people: fixed column widths (so it streams and stays aligned without
 * reading everything first), two spaces between columns, cells longer than their column cut with
 * '…', '-' for a missing value, control characters shown as spaces. The last column is not padded.
 */
final class TableWriter implements RowWriter {

    private final ChunkedOut out;
    private final List<Columns.Column> columns;
    private final StringBuilder sb = new StringBuilder(256);

    TableWriter(OutputStream out, List<Columns.Column> columns) throws IOException {
        this.out = new ChunkedOut(out);
        this.columns = List.copyOf(columns);
        sb.setLength(0);
        for (int i = 0; i < columns.size(); i++) {
            cell(columns.get(i).name(), columns.get(i).width(), i == columns.size() - 1);
        }
        end();
    }

    @Override
    public Set<String> paths() {
        return Columns.paths(columns);
    }

    @Override
    public void write(Row row) throws IOException {
        sb.setLength(0);
        for (int i = 0; i < columns.size(); i++) {
            String v = columns.get(i).cell().apply(row);
            cell(v == null || v.isEmpty() ? "-" : v, columns.get(i).width(), i == columns.size() - 1);
        }
        end();
    }

    private void cell(String value, int width, boolean last) {
        String v = value.length() > width ? value.substring(0, width - 1) + "…" : value;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            sb.append(Character.isISOControl(c) ? ' ' : c);
        }
        if (!last) {
            sb.append(" ".repeat(width - v.length() + 2));
        }
    }

    private void end() throws IOException {
        int len = sb.length();
        while (len > 0 && sb.charAt(len - 1) == ' ') {
            len--;
        }
        sb.setLength(len);
        sb.append('\n');
        out.buffer().text(sb.toString());
        out.endLine();
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
