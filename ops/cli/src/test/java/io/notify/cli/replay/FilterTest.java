package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FilterTest {

    private static Row row(SourceTopic topic, Filter f, String key, String value) {
        return Records.row("t", 0, 0, 0, key, value, f.paths());
    }

    @Test
    void userMatchesRecipientsOnEventsAndTheStreamElsewhere() {
        Filter events = new Filter(SourceTopic.EVENTS, List.of("42"), List.of(), List.of(), null);
        assertTrue(events.matches(row(SourceTopic.EVENTS, events, "e", "{\"id\":\"e\",\"to\":{\"users\":[\"7\",\"42\"]}}")));
        assertFalse(events.matches(row(SourceTopic.EVENTS, events, "e", "{\"id\":\"e\",\"to\":{\"users\":[\"420\"]}}")));
        Filter log = new Filter(SourceTopic.STREAM_LOG, List.of("42"), List.of(), List.of(), null);
        assertTrue(log.matches(row(SourceTopic.STREAM_LOG, log, "u:42", "{\"stream\":\"u:42\"}")));
        assertFalse(log.matches(row(SourceTopic.STREAM_LOG, log, "u:4", "{\"stream\":\"u:4\"}")));
        Filter undelivered = new Filter(SourceTopic.UNDELIVERED, List.of("42"), List.of("order.*"), List.of("e1"), "ephemeral");
        assertTrue(undelivered.matches(row(SourceTopic.UNDELIVERED, undelivered, "u:42",
                "{\"stream\":\"u:42\",\"event\":{\"id\":\"e1\",\"type\":\"order.x\",\"class\":\"ephemeral\"}}")));
        assertFalse(undelivered.matches(row(SourceTopic.UNDELIVERED, undelivered, "u:42",
                "{\"stream\":\"u:42\",\"event\":{\"id\":\"e1\",\"type\":\"order.x\",\"class\":\"durable\"}}")));
    }

    @Test
    void classDefaultsToDurableForEnvelopesAndIdFallsBackToTheDlqKey() {
        Filter durable = new Filter(SourceTopic.EVENTS, List.of(), List.of(), List.of(), "durable");
        assertTrue(durable.matches(row(SourceTopic.EVENTS, durable, "e", "{\"id\":\"e\"}")));
        assertFalse(durable.matches(row(SourceTopic.EVENTS, durable, "e", "not json")));
        Filter id = new Filter(SourceTopic.DLQ, List.of(), List.of(), List.of("k1"), null);
        assertTrue(id.matches(row(SourceTopic.DLQ, id, "k1", "garbage")));
        assertFalse(id.matches(row(SourceTopic.DLQ, id, null, "garbage")));
    }

    @Test
    void badFilterValuesAreBadInput() {
        assertThrows(UsageException.class, () -> new Filter(SourceTopic.EVENTS, List.of("a b"), List.of(), List.of(), null));
        assertThrows(UsageException.class, () -> new Filter(SourceTopic.EVENTS, List.of(), List.of(), List.of(), "sometimes"));
    }
}
