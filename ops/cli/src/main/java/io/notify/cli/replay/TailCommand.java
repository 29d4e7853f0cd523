package io.notify.cli.replay;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code notifyctl tail TOPIC}: follows a Notify topic live with replay's filters and formats,
 * from the end (default) or from {@code --from}/{@code --from-offset}, until Ctrl-C or
 * {@code --limit}. Same reading rules as replay (assign + seek, no group, nothing committed,
 * read_committed); partitions that appear while it runs are not followed. Records are written as
 * they arrive, each partition in offset order, and flushed after every batch.
 */
@Command(name = "tail", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Follow a Notify topic live, filtered, as JSONL, CSV or a table, until Ctrl-C.",
        footer = {"", "Exit codes: 0 stopped (Ctrl-C or --limit), 1 failed (Kafka, I/O), 2 bad input (nothing read).",
                "Guide: docs/replay.md"})
public final class TailCommand implements Callable<Integer> {

    private static final Duration POLL = Duration.ofMillis(200);

    @Spec
    CommandSpec spec;

    @Mixin
    ReadOptions read;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        ReadOptions.Plan plan;
        Window window;
        try {
            plan = read.plan();
            Instant now = Instant.now();
            window = new Window(read.from == null ? null : TimeArgs.parse("--from", read.from, now), null,
                    read.fromOffset == null ? null : OffsetArg.parse("--from-offset", read.fromOffset), null);
        } catch (UsageException e) {
            return ReplayCommand.usage(err, e);
        }
        try (Consumer<byte[], byte[]> consumer = KafkaClients.consumer(read.bootstrap, read.kafkaProperties);
             StopSignal stop = StopSignal.onCtrlC(consumer)) {
            return follow(plan, window, consumer, stop, err);
        } catch (UsageException e) {
            return ReplayCommand.usage(err, e);
        } catch (OutputClosedException e) {
            return 0;
        } catch (KafkaException | IOException e) {
            err.println("notifyctl tail: failed: " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    private int follow(ReadOptions.Plan plan, Window window, Consumer<byte[], byte[]> consumer, StopSignal stop,
                       PrintWriter err) throws IOException {
        List<TopicPartition> partitions = KafkaClients.partitions(consumer, plan.topicName(), plan.timeout());
        boolean fromEnd = window.from() == null && window.fromOffset() == null;
        Map<TopicPartition, Long> starts = fromEnd ? consumer.endOffsets(partitions, plan.timeout()) : startsOf(window,
                consumer, partitions, plan);
        consumer.assign(starts.keySet());
        starts.forEach(consumer::seek);
        long read = 0;
        long written = 0;
        try (OutputStream out = this.read.openOut()) {
            RowWriter writer = plan.format().open(out, plan.source(), false);
            writer.flush();
            Set<String> paths = new HashSet<>(writer.paths());
            paths.addAll(plan.filter().paths());
            ValueScan.Paths wanted = new ValueScan.Paths(paths);
            err.printf("tail: following %s (%d partitions) from %s; Ctrl-C to stop%n", plan.topicName(), starts.size(),
                    fromEnd ? "the end" : window.from() != null ? window.from().toString() : "--from-offset");
            err.flush();
            try {
                while (!stop.requested() && written < plan.limit()) {
                    long before = written;
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                        read++;
                        if (!window.admits(r.timestamp())) {
                            continue;
                        }
                        Row row = new Row(r, ValueScan.of(r.value(), wanted));
                        if (plan.filter().matches(row)) {
                            writer.write(row);
                            if (++written >= plan.limit()) {
                                break;
                            }
                        }
                    }
                    if (written > before) {
                        writer.flush();
                    }
                }
            } catch (WakeupException e) {
                // Ctrl-C: fall through to flush and close
            } catch (InterruptException e) {
                Thread.interrupted(); // asked to stop; clear the flag so the output can still be flushed and closed
            }
            writer.flush();
        }
        err.printf("tail: %d records written (%d read) from %s%n", written, read, plan.topicName());
        err.flush();
        return 0;
    }

    private static Map<TopicPartition, Long> startsOf(Window window, Consumer<byte[], byte[]> consumer,
                                                      List<TopicPartition> partitions, ReadOptions.Plan plan) {
        Map<TopicPartition, Long> starts = new LinkedHashMap<>();
        window.resolve(consumer, partitions, plan.timeout()).forEach((tp, range) -> starts.put(tp, range.start()));
        return starts;
    }
}
