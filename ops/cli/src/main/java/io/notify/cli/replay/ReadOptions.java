package io.notify.cli.replay;

import io.notify.schemas.topic.TopicCatalog;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The options replay and tail share: what to read, how to filter it and where to write it, beside
 * the connection options of {@link ConnectionOptions}. Every value is taken as text and checked by
 * {@link #plan}, so bad input is one line and exit 2 rather than picocli's usage dump, and is found
 * before any connection is made.
 */
final class ReadOptions extends ConnectionOptions {

    @Parameters(index = "0", paramLabel = "TOPIC",
            description = "events, stream-log, undelivered, dlq, receipts, inbox-state, fallback, push-changes, "
                    + "push-registrations, push-outcomes, push-dlq or preferences (full names such as notify.stream-log work "
                    + "too).")
    String topic;

    @Option(names = "--from", paramLabel = "TIME",
            description = "Start (inclusive): RFC 3339 (2026-11-29T10:15:30Z), now, or relative (-2h, -30m, -1h30m).")
    String from;

    @Option(names = "--from-offset", paramLabel = "OFFSET",
            description = "Start offset (inclusive) on every partition, or P:OFFSET[,P:OFFSET...] to read only those partitions.")
    String fromOffset;

    @Option(names = "--user", paramLabel = "ID", description = "Only events for this user (repeatable: any of them).")
    List<String> users = new ArrayList<>();

    @Option(names = "--type", paramLabel = "GLOB", description = "Only these event types; * and ? are wildcards (repeatable).")
    List<String> types = new ArrayList<>();

    @Option(names = "--id", paramLabel = "EVENT_ID",
            description = "Only this event id (repeatable; on receipts: one of the marked ids; on push-outcomes: eventId).")
    List<String> ids = new ArrayList<>();

    @Option(names = "--class", paramLabel = "CLASS", description = "Only durable or only ephemeral events.")
    String eventClass;

    @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "jsonl",
            description = "jsonl (default), csv or table.")
    String format;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", description = "Write to FILE instead of stdout.")
    String out;

    @Option(names = "--limit", paramLabel = "N", description = "Stop after N matching records.")
    Long limit;

    @Option(names = "--progress", negatable = true,
            description = "Progress bar on stderr (default: only when stderr is a terminal).")
    Boolean progress;

    /** What the options ask for, checked; built before connecting. */
    record Plan(TopicCatalog catalog, SourceTopic source, String topicName, Filter filter, OutputFormat format,
                Duration timeout, long limit) {
    }

    Plan plan() {
        Connection c = connection();
        SourceTopic source = SourceTopic.parse(topic, c.catalog());
        OutputFormat fmt = OutputFormat.parse(format);
        Filter filter = new Filter(source, users, types, ids, eventClass);
        if (limit != null && limit < 1) {
            throw new UsageException("--limit must be at least 1, got " + limit);
        }
        return new Plan(c.catalog(), source, source.topicName(c.catalog()), filter, fmt, c.timeout(),
                limit == null ? Long.MAX_VALUE : limit);
    }

    /** {@code --out FILE}, or stdout as bytes (always UTF-8, whatever the platform charset); closing never closes stdout. */
    OutputStream openOut() {
        if (out == null || out.equals("-")) {
            PrintStream stdout = System.out;
            return new FilterOutputStream(stdout) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    stdout.write(b, off, len);
                    if (stdout.checkError()) { // PrintStream hides write errors: a closed pipe shows only here
                        throw new OutputClosedException();
                    }
                }

                @Override
                public void close() throws IOException {
                    flush();
                }
            };
        }
        try {
            return new FileOutputStream(out); // unbuffered: the writers hand over 64 KiB chunks
        } catch (IOException | RuntimeException e) {
            throw new UsageException("--out: cannot write " + out + ": " + e);
        }
    }
}
