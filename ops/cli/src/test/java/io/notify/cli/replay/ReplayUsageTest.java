package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.Notifyctl;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Bad input is one line on stderr and exit 2, found before any connection: the bootstrap address
 * points at a port nothing listens on, so a command that tried to connect first would fail there
 * with exit 1 (Kafka unreachable) instead of reporting the bad input with exit 2.
 */
class ReplayUsageTest {

    private static final String NOWHERE = "127.0.0.1:1";

    private record Run(int code, String err) {
    }

    private static Run run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bootstrap-servers", NOWHERE, "--timeout", "1s"));
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new Notifyctl());
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(all.toArray(String[]::new));
        return new Run(code, err.toString());
    }

    private static void assertBadInput(String expected, String... args) {
        Run r = run(args);
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), "one line: " + r.err());
        assertTrue(r.err().contains(expected), r.err());
    }

    @Test
    void unknownTopic() {
        assertBadInput("unknown topic 'orders'; expected one of events, stream-log", "replay", "orders");
        assertBadInput("unknown topic", "tail", "notify.node.gw-1");
    }

    @Test
    void windowErrors() {
        assertBadInput("--from (2026-11-29T11:00:00Z) must be before --to (2026-11-29T10:00:00Z)",
                "replay", "events", "--from", "2026-11-29T11:00:00Z", "--to", "2026-11-29T10:00:00Z");
        assertBadInput("--from: cannot read 'yesterday' as a time", "replay", "events", "--from", "yesterday");
        assertBadInput("--to: cannot read", "replay", "stream-log", "--to", "2026-11-29");
        assertBadInput("--from and --from-offset both bound the start", "replay", "events", "--from", "-1h", "--from-offset", "0");
        assertBadInput("--to-offset: 'x' in 'x' is not an offset", "replay", "events", "--to-offset", "x");
        assertBadInput("--from: cannot read", "tail", "events", "--from", "soon");
    }

    @Test
    void formatAndFilterErrors() {
        assertBadInput("unknown format 'xml'; expected jsonl, csv or table", "replay", "events", "--format", "xml");
        assertBadInput("--class: expected durable or ephemeral", "replay", "events", "--class", "maybe");
        assertBadInput("--user: 'a b' is not a user id", "tail", "stream-log", "--user", "a b");
        assertBadInput("--limit must be at least 1", "replay", "events", "--limit", "0");
        assertBadInput("--topic-prefix: topic prefix must be", "replay", "events", "--topic-prefix", "bad prefix");
        assertBadInput("--kafka-property group.id cannot be changed", "replay", "events", "--kafka-property", "group.id=g");
    }

    @Test
    void routingAndRepublishErrors() {
        assertBadInput("--with-routing works on stream-log with exactly one --user", "replay", "events", "--with-routing");
        assertBadInput("--with-routing works on stream-log with exactly one --user", "replay", "stream-log", "--with-routing");
        assertBadInput("refusing to write into notify.events, the topic being read", "replay", "events", "--republish-to", "events");
        assertBadInput("refusing to write into notify.stream-log, the topic being read",
                "replay", "stream-log", "--republish-to", "notify.stream-log");
        assertBadInput("refusing to write into notify.undelivered, which only fan-out writes",
                "replay", "dlq", "--republish-to", "undelivered");
        assertBadInput("cannot be combined with --out", "replay", "dlq", "--republish-to", "events", "--out", "x.jsonl");
        assertBadInput("is not a Kafka topic name", "replay", "dlq", "--republish-to", "a/b");
    }

    @Test
    void inboxTopicsRefuseFiltersAndTargetsThatDoNotApply() {
        assertBadInput("--type does not apply to receipts (its records have no event type)",
                "replay", "receipts", "--type", "order.*");
        assertBadInput("--class does not apply to inbox-state", "tail", "inbox-state", "--class", "durable");
        assertBadInput("--id does not apply to inbox-state", "replay", "notify.inbox-state", "--id", "ord-1");
        assertBadInput("--with-routing works on stream-log with exactly one --user",
                "replay", "receipts", "--user", "42", "--with-routing");
        assertBadInput("--republish-to: receipts records are not events; republish them into a topic of your own",
                "replay", "receipts", "--republish-to", "events");
        assertBadInput("refusing to write into notify.receipts, which only the gateways write",
                "replay", "dlq", "--republish-to", "receipts");
        assertBadInput("refusing to write into notify.inbox-state, which only fan-out writes",
                "replay", "receipts", "--republish-to", "notify.inbox-state");
    }

    @Test
    void fallbackRefusesRoutingAndTargetsOnlyFanOutWrites() {
        String routing = "--with-routing works on stream-log with exactly one --user";
        assertBadInput(routing, "replay", "fallback", "--user", "42", "--with-routing");
        assertBadInput("write into notify.fallback, the topic being read", "replay", "fallback", "--republish-to", "fallback");
        assertBadInput("notify.fallback, which only fan-out writes", "replay", "undelivered", "--republish-to", "fallback");
        assertBadInput("--class: expected durable or ephemeral", "tail", "fallback", "--class", "sometimes");
    }

    @Test
    void pushTopicsAreNotEventsAndOnlyTheirWritersWriteThem() {
        String notEvents = " records are not events; republish them into a topic of your own";
        assertBadInput("--republish-to: push-changes" + notEvents, "replay", "push-changes", "--republish-to", "events");
        assertBadInput("--republish-to: push-registrations" + notEvents, "replay", "notify.push-registrations",
                "--republish-to", "events");
        assertBadInput("--republish-to: push-outcomes" + notEvents, "replay", "push-outcomes", "--republish-to", "notify.events");
        assertBadInput("--republish-to: push-dlq records are not events (each is a fallback record narrowed to one push "
                + "registration, for the push sender); republish them into a topic of your own",
                "replay", "push-dlq", "--republish-to", "events");
        assertBadInput("refusing to write into notify.push-changes, which only the gateways and the push sender write;",
                "replay", "push-dlq", "--republish-to", "push-changes");
        assertBadInput("refusing to write into notify.push-registrations, which only fan-out writes",
                "replay", "push-changes", "--republish-to", "push-registrations");
        assertBadInput("refusing to write into notify.push-outcomes, which only the push sender writes",
                "replay", "dlq", "--republish-to", "notify.push-outcomes");
        assertBadInput("refusing to write into notify.push.dlq, the topic being read", "replay", "push-dlq", "--republish-to", "push-dlq");
        assertBadInput("--id does not apply to push-registrations", "tail", "push-registrations", "--id", "pr_x");
        assertBadInput("--with-routing works on stream-log with exactly one --user",
                "replay", "push-outcomes", "--user", "42", "--with-routing");
    }

    @Test
    void preferencesAreNotEventsAndOnlyTheGatewaysWriteThem() {
        assertBadInput("--republish-to: preferences records are not events; republish them into a topic of your own",
                "replay", "preferences", "--republish-to", "events");
        assertBadInput("refusing to write into notify.preferences, which only the gateways write;",
                "replay", "receipts", "--republish-to", "notify.preferences");
        assertBadInput("refusing to write into notify.preferences, the topic being read", "replay", "preferences",
                "--republish-to", "preferences");
        assertBadInput("--type does not apply to preferences (its records have no event type)",
                "tail", "preferences", "--type", "order.*");
        assertBadInput("--id does not apply to preferences", "replay", "notify.preferences", "--id", "ord-1");
        assertBadInput("--class does not apply to preferences", "replay", "preferences", "--class", "durable");
    }
}
