package io.notify.cli.replay;

import io.notify.protocol.stream.StreamId;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code notifyctl replay TOPIC}: a bounded read of one Notify topic between two times or
 * offsets, filtered, written as JSON Lines, CSV or a table, or re-produced with
 * {@code --republish-to}. The end is the end offset of each partition captured at start, so a
 * replay of a live topic finishes. Reads with assign + seek (no consumer group, nothing committed)
 * and read_committed. Output order: partitions merged by record timestamp, ties by partition then
 * offset, each partition in offset order. See docs/replay.md.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Read a window of a Notify topic (events, stream-log, undelivered, dlq, receipts, inbox-state, "
                + "fallback, push-changes, push-registrations, push-outcomes, push-dlq, preferences), filtered, as JSONL, "
                + "CSV or a table; or re-produce it with --republish-to.",
        footer = {"", "Window: --from inclusive, --to exclusive (record timestamps); offsets likewise [from, to).",
                "Exit codes: 0 done, 1 failed (Kafka, I/O), 2 bad input (nothing read), 130 interrupted.",
                "Guide: docs/replay.md"})
public final class ReplayCommand implements Callable<Integer> {

    /** --with-routing keeps the selected rows in memory for the join; past this the window must be narrowed. */
    static final int MAX_ROUTED_ROWS = 100_000;

    @Spec
    CommandSpec spec;

    @Mixin
    ReadOptions read;

    @Option(names = "--to", paramLabel = "TIME", description = "End (exclusive): RFC 3339, now, or relative (-5m).")
    String to;

    @Option(names = "--to-offset", paramLabel = "OFFSET",
            description = "End offset (exclusive) on every partition, or P:OFFSET[,P:OFFSET...].")
    String toOffset;

    @Option(names = "--with-routing",
            description = "stream-log with one --user: add the nodes each event was routed to, or why it was undelivered.")
    boolean withRouting;

    @Option(names = "--republish-to", paramLabel = "TOPIC",
            description = "Re-produce the selected records into TOPIC (events: as new events with derived ids) "
                    + "instead of printing them.")
    String republishTo;

    @Option(names = "--republish-round", paramLabel = "N", defaultValue = "1",
            description = "Round of a backfill into events; a new round gives new ids (default: ${DEFAULT-VALUE}).")
    int republishRound;

    private record Request(ReadOptions.Plan plan, Window window, RepublishTarget target) {
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Request req;
        try {
            req = validate(Instant.now());
        } catch (UsageException e) {
            return usage(err, e);
        }
        try (Consumer<byte[], byte[]> consumer = KafkaClients.consumer(read.bootstrap, read.kafkaProperties);
             StopSignal stop = StopSignal.onCtrlC(consumer)) {
            return execute(req, consumer, stop, err);
        } catch (UsageException e) {
            return usage(err, e);
        } catch (OutputClosedException e) {
            return 0;
        } catch (KafkaException | IllegalStateException | IOException e) {
            err.println("notifyctl replay: failed: " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    static int usage(PrintWriter err, UsageException e) {
        err.println("notifyctl: " + e.getMessage());
        err.flush();
        return 2;
    }

    private Request validate(Instant now) {
        ReadOptions.Plan plan = read.plan();
        Window window = new Window(
                read.from == null ? null : TimeArgs.parse("--from", read.from, now),
                to == null ? null : TimeArgs.parse("--to", to, now),
                read.fromOffset == null ? null : OffsetArg.parse("--from-offset", read.fromOffset),
                toOffset == null ? null : OffsetArg.parse("--to-offset", toOffset));
        if (withRouting && (plan.source() != SourceTopic.STREAM_LOG || plan.filter().users().size() != 1)) {
            throw new UsageException("--with-routing works on stream-log with exactly one --user");
        }
        RepublishTarget target = null;
        if (republishTo != null) {
            if (withRouting || read.out != null) {
                throw new UsageException("--republish-to writes to Kafka; it cannot be combined with "
                        + (withRouting ? "--with-routing" : "--out"));
            }
            if (republishRound < 1) {
                throw new UsageException("--republish-round must be at least 1, got " + republishRound);
            }
            target = RepublishTarget.resolve(republishTo, plan.catalog(), Set.of(plan.topicName()));
            if (target.intoEvents() && !plan.source().holdsEvents()) {
                throw new UsageException("--republish-to: " + plan.source().shortName + " records are not events"
                        + (plan.source().typePath != null ? " (each is a fallback record narrowed to one push registration, "
                                + "for the push sender)" : "") + "; republish them into a topic of your own");
            }
        }
        return new Request(plan, window, target);
    }

    private int execute(Request req, Consumer<byte[], byte[]> consumer, StopSignal stop, PrintWriter err) throws IOException {
        ReadOptions.Plan plan = req.plan();
        List<TopicPartition> partitions = KafkaClients.partitions(consumer, plan.topicName(), plan.timeout());
        if (req.target() != null) {
            try {
                KafkaClients.partitions(consumer, req.target().topic(), plan.timeout());
            } catch (UsageException e) {
                throw new UsageException("--republish-to: topic " + req.target().topic() + " does not exist; create it first");
            }
        }
        Map<TopicPartition, Window.Range> ranges = req.window().resolve(consumer, partitions, plan.timeout());
        Progress progress = new Progress(err, BoundedRead.total(ranges), read.progress, System::nanoTime);
        long started = System.nanoTime();
        Outcome outcome;
        if (req.target() != null) {
            outcome = republish(req, consumer, ranges, progress, stop, err);
        } else {
            try (OutputStream out = read.openOut()) {
                RowWriter writer = plan.format().open(out, plan.source(), withRouting);
                outcome = withRouting ? writeWithRouting(req, consumer, ranges, writer, progress, stop)
                        : writePlain(req, consumer, ranges, writer, progress, stop);
                writer.flush();
            }
        }
        err.println(String.format(Locale.ROOT, "replay: %d records %s (%d read) from %s, %d partitions, in %.2f s%s",
                outcome.written(), req.target() != null ? "republished" : "written", outcome.result().read(),
                plan.topicName(), ranges.size(), (System.nanoTime() - started) / 1e9,
                outcome.result().interrupted() ? "; interrupted" : ""));
        err.flush();
        return outcome.failed() ? 1 : outcome.result().interrupted() ? 130 : 0;
    }

    /** How a run ended: the read's counts, the records written (or acknowledged), and whether writes failed. */
    private record Outcome(BoundedRead.Result result, long written, boolean failed) {
    }

    private Outcome republish(Request req, Consumer<byte[], byte[]> consumer, Map<TopicPartition, Window.Range> ranges,
                              Progress progress, StopSignal stop, PrintWriter err) throws IOException {
        ReadOptions.Plan plan = req.plan();
        try (Republisher pub = new Republisher(KafkaClients.producer(read.bootstrap, read.kafkaProperties),
                req.target(), plan.source(), republishRound)) {
            long[] n = {0};
            BoundedRead.Result result = reader(req, consumer, ranges, pub.paths(), progress, stop).run(row -> {
                pub.send(row);
                return ++n[0] < plan.limit();
            });
            Republisher.Result r = pub.finish();
            System.out.printf("republished %d records from %s to %s%n", r.acked(), plan.topicName(), req.target().topic());
            System.out.flush();
            if (r.skipped() > 0 || r.failed() > 0) {
                err.printf("notifyctl replay: %d skipped, %d failed; first: %s%n", r.skipped(), r.failed(), r.firstProblem());
            }
            return new Outcome(result, r.acked(), r.failed() > 0);
        }
    }

    private Outcome writePlain(Request req, Consumer<byte[], byte[]> consumer, Map<TopicPartition, Window.Range> ranges,
                               RowWriter writer, Progress progress, StopSignal stop) throws IOException {
        long[] n = {0};
        BoundedRead.Result result = reader(req, consumer, ranges, writer.paths(), progress, stop).run(row -> {
            writer.write(row);
            return ++n[0] < req.plan().limit();
        });
        return new Outcome(result, n[0], false);
    }

    private Outcome writeWithRouting(Request req, Consumer<byte[], byte[]> consumer, Map<TopicPartition, Window.Range> ranges,
                                     RowWriter writer, Progress progress, StopSignal stop) throws IOException {
        List<Row> rows = new ArrayList<>();
        Set<String> paths = new HashSet<>(writer.paths());
        paths.addAll(Set.of("epoch", "seq"));
        BoundedRead.Result result = reader(req, consumer, ranges, paths, progress, stop).run(row -> {
            if (rows.size() >= MAX_ROUTED_ROWS) {
                throw new UsageException("--with-routing holds the selected events in memory and found more than "
                        + MAX_ROUTED_ROWS + "; narrow the window or add --type/--id");
            }
            rows.add(row);
            return rows.size() < req.plan().limit();
        });
        if (!rows.isEmpty() && !result.interrupted()) {
            String stream = StreamId.forUser(req.plan().filter().users().iterator().next()).value();
            RoutingJoin.join(consumer, req.plan().catalog(), stream, rows, req.plan().timeout(), stop);
        }
        for (Row row : rows) {
            writer.write(row);
        }
        return new Outcome(result, rows.size(), false);
    }

    private BoundedRead reader(Request req, Consumer<byte[], byte[]> consumer, Map<TopicPartition, Window.Range> ranges,
                               Set<String> outputPaths, Progress progress, StopSignal stop) {
        Set<String> paths = new HashSet<>(outputPaths);
        paths.addAll(req.plan().filter().paths());
        Window window = req.window();
        return new BoundedRead(consumer, ranges, window.from() == null && window.to() == null ? BoundedRead.KEEP_ALL
                : r -> window.admits(r.timestamp()), req.plan().filter()::matches,
                new ValueScan.Paths(paths), progress, stop, req.plan().timeout());
    }
}
