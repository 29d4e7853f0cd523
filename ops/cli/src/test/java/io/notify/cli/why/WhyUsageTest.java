package io.notify.cli.why;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.replay.Cli;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bad input is one line on stderr and exit 2, found before connecting: the bootstrap address is a
 * port nothing listens on, so a command that connected first would fail with exit 1 instead.
 */
class WhyUsageTest {

    private static void assertBadInput(String expected, String... args) {
        List<String> all = new ArrayList<>(List.of("why"));
        all.addAll(List.of(args));
        all.addAll(List.of("--bootstrap-servers", "127.0.0.1:1", "--timeout", "1s"));
        Cli.Result r = Cli.run(all.toArray(String[]::new));
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), "one line: " + r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertEquals("", r.out());
    }

    @Test
    void theQuestionMustBeComplete() {
        assertBadInput("why needs --user ID and --event EVENT_ID", "--user", "42");
        assertBadInput("why needs --user ID and --event EVENT_ID", "--event", "ord-1");
        assertBadInput("--user: 'a b' is not a user id", "--user", "a b", "--event", "ord-1");
        assertBadInput("--event: an event id is required", "--user", "42", "--event", " ");
    }

    @Test
    void windowFormatAndConnectionErrors() {
        assertBadInput("--from: cannot read 'last week' as a time", "--user", "42", "--event", "e", "--from", "last week");
        assertBadInput("--from (2026-11-29T11:00:00Z) must be before --to (2026-11-29T10:00:00Z)", "--user", "42", "--event", "e",
                "--from", "2026-11-29T11:00:00Z", "--to", "2026-11-29T10:00:00Z");
        assertBadInput("unknown format 'csv'; expected table or json", "--user", "42", "--event", "e", "-f", "csv");
        assertBadInput("--kafka-property group.id cannot be changed", "--user", "42", "--event", "e", "--kafka-property", "group.id=g");
        assertBadInput("--topic-prefix: topic prefix must be", "--user", "42", "--event", "e", "--topic-prefix", "bad prefix");
    }
}
