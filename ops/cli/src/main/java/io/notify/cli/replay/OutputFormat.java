package io.notify.cli.replay;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;

/** The output formats of replay and tail. */
enum OutputFormat {
    JSONL, CSV, TABLE;

    static OutputFormat parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new UsageException("unknown format '" + text + "'; expected jsonl, csv or table");
        }
    }

    RowWriter open(OutputStream out, SourceTopic topic, boolean routing) throws IOException {
        return switch (this) {
            case JSONL -> new JsonlWriter(out);
            case CSV -> ColumnWriter.csv(out, new Columns().csv(topic, routing));
            case TABLE -> ColumnWriter.table(out, new Columns().table(topic, routing));
        };
    }
}
