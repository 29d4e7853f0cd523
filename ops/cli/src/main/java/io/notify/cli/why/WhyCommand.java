package io.notify.cli.why;

import io.notify.cli.replay.ConnectionOptions;
import io.notify.cli.replay.RecordLookup;
import io.notify.cli.replay.TimeArgs;
import io.notify.cli.replay.UsageException;
import io.notify.protocol.event.Recipients;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code notifyctl why --user ID --event EVENT_ID}: one event's life for one user, reconstructed from
 * the topics and printed as a timeline: ingested (copies the dedup window dropped, or the DLQ's
 * rejection), sequenced, routed, acked per device, seen/read/archived, the offline fallback and, for a
 * push fallback, what the push sender did for each registration (notify.push-outcomes).
 * Reads as replay does (assign + seek, no group, read_committed), within {@code [--from, --to)} and
 * the end offsets captured at start, on the user's stream's partition wherever the key is the
 * stream. See docs/replay.md, "notifyctl why".
 */
@Command(name = "why", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Show one event's life for one user as a timeline: ingested, sequenced, routed, acked, "
                + "seen/read/archived, fallback, and the push attempts of a push fallback.",
        footer = {"", "Exit codes: 0 found, 1 not found in the window (or Kafka failed), 2 bad input, 130 interrupted.",
                "Guide: docs/replay.md (notifyctl why)"})
public final class WhyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--user", paramLabel = "ID", description = "The recipient whose stream to follow (required).")
    String user;

    @Option(names = "--event", paramLabel = "EVENT_ID", description = "The event id (required).")
    String eventId;

    @Option(names = "--from", paramLabel = "TIME", defaultValue = "-7d",
            description = "Start of the window (inclusive; default ${DEFAULT-VALUE}): RFC 3339, now, or relative (-2h).")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "End of the window (exclusive; default: now).")
    String to;

    @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "table", description = "table (default) or json.")
    String format;

    @Mixin
    ConnectionOptions connection;

    private record Request(ConnectionOptions.Connection connection, Question question, TimelineWriter.Format format) {
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Instant now = Instant.now();
        Request req;
        try {
            req = validate(now);
        } catch (UsageException e) {
            return usage(err, e);
        }
        try (RecordLookup lookup = RecordLookup.open(req.connection())) {
            Timeline timeline = Timeline.of(new EvidenceReader(lookup, req.question()).read(now));
            boolean interrupted = lookup.interrupted();
            // written before the lookup closes: Ctrl-C's shutdown hook waits for that, so the JVM does not exit first
            PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
            out.print(req.format() == TimelineWriter.Format.JSON ? TimelineWriter.json(req.question(), timeline)
                    : TimelineWriter.table(timeline));
            out.flush();
            err.println(String.format(Locale.ROOT, "why: event %s for user %s %s%s", eventId, user,
                    timeline.found() ? "found" : "not found in the window", interrupted ? "; interrupted, so incomplete" : ""));
            err.flush();
            return interrupted ? 130 : timeline.found() ? 0 : 1;
        } catch (UsageException e) {
            return usage(err, e);
        } catch (KafkaException | IllegalStateException | IOException e) {
            err.println("notifyctl why: failed: " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    private Request validate(Instant now) {
        if (user == null || eventId == null) {
            throw new UsageException("why needs --user ID and --event EVENT_ID");
        }
        if (!Recipients.USER_ID.matcher(user).matches()) {
            throw new UsageException("--user: '" + user + "' is not a user id (1..128 chars of [A-Za-z0-9._:@-])");
        }
        if (eventId.isBlank()) {
            throw new UsageException("--event: an event id is required");
        }
        TimelineWriter.Format fmt = TimelineWriter.Format.parse(format);
        Instant start = TimeArgs.parse("--from", from, now);
        Instant end = to == null ? now : TimeArgs.parse("--to", to, now);
        if (!start.isBefore(end)) {
            throw new UsageException("--from (" + start + ") must be before --to (" + end + "); the window [from, to) is empty");
        }
        return new Request(connection.connection(), new Question(user, eventId, start, end), fmt);
    }

    private static int usage(PrintWriter err, UsageException e) {
        err.println("notifyctl: " + e.getMessage());
        err.flush();
        return 2;
    }
}
