package io.notify.cli.replay;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** CSV (RFC 4180, CRLF line ends, UTF-8) with a header record and the fixed columns of {@link Columns#csv}. */
final class CsvWriter implements RowWriter {

    private final ChunkedOut out;
    private final List<Columns.Column> columns;
    private final StringBuilder sb = new StringBuilder(512);

    CsvWriter(OutputStream out, List<Columns.Column> columns) throws IOException {
        this.out = new ChunkedOut(out);
        this.columns = List.copyOf(columns);
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
        sb.setLength(0);
        Csv.appendRecord(sb, cells);
        out.buffer().text(sb.toString());
        out.endLine();
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
