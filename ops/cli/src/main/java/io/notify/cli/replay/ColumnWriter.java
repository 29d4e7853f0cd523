package io.notify.cli.replay;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The formats of fixed columns ({@link Columns#csv}, {@link Columns#table}): a header line of the
 * column names, then one line a row, each cell taken from its column; a {@link Layout} turns a
 * line's cells into text.
 */
final class ColumnWriter implements RowWriter {

    /** Appends one line, line end included: a cell per column, null where the row has no value. */
    interface Layout {
        void append(StringBuilder line, List<String> cells);
    }

    private final ChunkedOut out;
    private final List<Columns.Column> columns;
    private final Layout layout;
    private final StringBuilder line = new StringBuilder(512);

    /** CSV (RFC 4180, CRLF line ends, UTF-8) with a header record. */
    static ColumnWriter csv(OutputStream out, List<Columns.Column> columns) throws IOException {
        return new ColumnWriter(out, columns, Csv::appendRecord);
    }

    /** A compact table for people ({@link TableLayout}) with a header line. */
    static ColumnWriter table(OutputStream out, List<Columns.Column> columns) throws IOException {
        return new ColumnWriter(out, columns, new TableLayout(columns));
    }

    private ColumnWriter(OutputStream out, List<Columns.Column> columns, Layout layout) throws IOException {
        this.out = new ChunkedOut(out);
        this.columns = List.copyOf(columns);
        this.layout = layout;
        emit(columns.stream().map(Columns.Column::name).toList());
    }

    @Override
    public Set<String> paths() {
        return Columns.paths(columns);
    }

    @Override
    public void write(Row row) throws IOException {
        List<String> cells = new ArrayList<>(columns.size());
        for (Columns.Column c : columns) {
            cells.add(c.cell().apply(row));
        }
        emit(cells);
    }

    private void emit(List<String> cells) throws IOException {
        line.setLength(0);
        layout.append(line, cells);
        out.buffer().text(line.toString());
        out.endLine();
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
