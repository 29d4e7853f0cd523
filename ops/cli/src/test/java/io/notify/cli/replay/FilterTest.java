package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void receiptsMatchTheUserByStreamOrKeyAndAnIdAmongTheMarkedIds() {
        Filter user = new Filter(SourceTopic.RECEIPTS, List.of("42"), List.of(), List.of(), null);
        assertTrue(user.matches(row(SourceTopic.RECEIPTS, user, "u:42", "{\"stream\":\"u:42\",\"kind\":\"ack\",\"upTo\":3}")));
        assertFalse(user.matches(row(SourceTopic.RECEIPTS, user, "u:42", "{\"stream\":\"u:420\",\"kind\":\"ack\"}")),
                "the value's stream wins over the key");
        assertTrue(user.matches(row(SourceTopic.RECEIPTS, user, "u:42", "not json")), "no stream in the value: the key");
        Filter id = new Filter(SourceTopic.RECEIPTS, List.of("42"), List.of(), List.of("ord-2"), null);
        assertTrue(id.matches(row(SourceTopic.RECEIPTS, id, "u:42",
                "{\"stream\":\"u:42\",\"kind\":\"read\",\"ids\":[\"ord-1:shipped\",\"ord-2\"]}")));
        assertFalse(id.matches(row(SourceTopic.RECEIPTS, id, "u:42", "{\"stream\":\"u:42\",\"kind\":\"read\",\"upTo\":2}")));
        assertFalse(id.matches(row(SourceTopic.RECEIPTS, id, "ord-2", "{\"kind\":\"read\",\"upTo\":2}")), "the key is no id");
    }

    @Test
    void inboxStateMatchesTheUserByStreamAndATombstoneByItsKey() {
        Filter user = new Filter(SourceTopic.INBOX_STATE, List.of("42"), List.of(), List.of(), null);
        assertTrue(user.matches(row(SourceTopic.INBOX_STATE, user, "u:42", "{\"stream\":\"u:42\",\"version\":3}")));
        assertFalse(user.matches(row(SourceTopic.INBOX_STATE, user, "u:4", "{\"stream\":\"u:4\",\"version\":3}")));
        assertTrue(user.matches(row(SourceTopic.INBOX_STATE, user, "u:42", null)));
        assertFalse(user.matches(row(SourceTopic.INBOX_STATE, user, "u:4", null)));
    }

    @Test
    void fallbackMatchesTheUserByStreamAndIdTypeClassOnTheNestedEvent() {
        String record = "{\"stream\":\"u:42\",\"userId\":\"42\",\"channel\":\"push\",\"reason\":\"no_ack\","
                + "\"event\":{\"stream\":\"u:42\",\"seq\":17,\"id\":\"ord-1:shipped\",\"type\":\"order.shipped\","
                + "\"class\":\"durable\",\"fallback\":{\"after\":\"2m\",\"channel\":\"push\"}},\"devices\":[],\"dueAt\":2,\"at\":3}";
        Filter all = new Filter(SourceTopic.FALLBACK, List.of("42"), List.of("order.*"), List.of("ord-1:shipped"), "durable");
        assertTrue(all.matches(row(SourceTopic.FALLBACK, all, "u:42", record)));
        Filter other = new Filter(SourceTopic.FALLBACK, List.of("420"), List.of(), List.of(), null);
        assertFalse(other.matches(row(SourceTopic.FALLBACK, other, "u:42", record)));
        Filter id = new Filter(SourceTopic.FALLBACK, List.of(), List.of(), List.of("ord-2"), null);
        assertFalse(id.matches(row(SourceTopic.FALLBACK, id, "u:42", record)));
        Filter type = new Filter(SourceTopic.FALLBACK, List.of(), List.of("chat.*"), List.of(), null);
        assertFalse(type.matches(row(SourceTopic.FALLBACK, type, "u:42", record)));
        Filter ephemeral = new Filter(SourceTopic.FALLBACK, List.of(), List.of(), List.of(), "ephemeral");
        assertFalse(ephemeral.matches(row(SourceTopic.FALLBACK, ephemeral, "u:42", record)), "its events are always durable");
        assertFalse(all.matches(row(SourceTopic.FALLBACK, all, "u:42", "not json")), "no key fallback: fan-out writes JSON");
    }

    @Test
    void pushTopicsMatchTheUserByStreamOrKeyAndOutcomesAndTheDlqByEventId() {
        String outcome = "{\"stream\":\"u:42\",\"eventId\":\"ord-1:shipped\",\"seq\":17,\"outcome\":\"sent\"}";
        Filter byEvent = new Filter(SourceTopic.PUSH_OUTCOMES, List.of("42"), List.of(), List.of("ord-1:shipped"), null);
        assertTrue(byEvent.matches(row(SourceTopic.PUSH_OUTCOMES, byEvent, "u:42", outcome)));
        Filter otherEvent = new Filter(SourceTopic.PUSH_OUTCOMES, List.of(), List.of(), List.of("ord-2"), null);
        assertFalse(otherEvent.matches(row(SourceTopic.PUSH_OUTCOMES, otherEvent, "u:42", outcome)));
        Filter user = new Filter(SourceTopic.PUSH_REGISTRATIONS, List.of("42"), List.of(), List.of(), null);
        assertTrue(user.matches(row(SourceTopic.PUSH_REGISTRATIONS, user, "u:42", null)), "a tombstone: the key");
        assertFalse(user.matches(row(SourceTopic.PUSH_REGISTRATIONS, user, "u:4", "{\"stream\":\"u:4\",\"registrations\":[]}")));
        Filter changes = new Filter(SourceTopic.PUSH_CHANGES, List.of("42"), List.of(), List.of(), null);
        assertTrue(changes.matches(row(SourceTopic.PUSH_CHANGES, changes, "u:42", "{\"stream\":\"u:42\",\"kind\":\"gone\"}")));
        String narrowed = "{\"stream\":\"u:42\",\"channel\":\"push\",\"event\":{\"id\":\"ord-1:shipped\","
                + "\"type\":\"order.shipped\",\"class\":\"durable\"},\"push\":[]}";
        Filter dlq = new Filter(SourceTopic.PUSH_DLQ, List.of("42"), List.of("order.*"), List.of("ord-1:shipped"), "durable");
        assertTrue(dlq.matches(row(SourceTopic.PUSH_DLQ, dlq, "u:42", narrowed)));
        Filter dlqUser = new Filter(SourceTopic.PUSH_DLQ, List.of("42"), List.of(), List.of(), null);
        assertTrue(dlqUser.matches(row(SourceTopic.PUSH_DLQ, dlqUser, "u:42", "unreadable")), "an unreadable record: the key");
    }

    @Test
    void preferencesMatchTheUserByStreamOrATombstonesKeyAndHaveNoEventIdTypeOrClass() {
        Filter user = new Filter(SourceTopic.PREFERENCES, List.of("42"), List.of(), List.of(), null);
        assertTrue(user.matches(row(SourceTopic.PREFERENCES, user, "u:42", "{\"stream\":\"u:42\",\"preferences\":{},"
                + "\"updatedAt\":1}")));
        assertTrue(user.matches(row(SourceTopic.PREFERENCES, user, "u:42", null)), "a tombstone (a reset): the key");
        assertFalse(user.matches(row(SourceTopic.PREFERENCES, user, "u:4", null)));
        assertFalse(user.matches(row(SourceTopic.PREFERENCES, user, "u:42", "{\"stream\":\"u:4\",\"preferences\":{}}")),
                "the value's stream where it has one");
        assertEquals("--id does not apply to preferences (its records have no event ids)", assertThrows(UsageException.class,
                () -> new Filter(SourceTopic.PREFERENCES, List.of(), List.of(), List.of("ord-1"), null)).getMessage());
        assertEquals("--type does not apply to preferences (its records have no event type)", assertThrows(UsageException.class,
                () -> new Filter(SourceTopic.PREFERENCES, List.of(), List.of("order.*"), List.of(), null)).getMessage());
    }

    @Test
    void pushChangesAndRegistrationsHaveNoEventIdTypeOrClass() {
        assertEquals("--id does not apply to push-changes (its records have no event ids)", assertThrows(UsageException.class,
                () -> new Filter(SourceTopic.PUSH_CHANGES, List.of(), List.of(), List.of("pr_x"), null)).getMessage());
        assertEquals("--type does not apply to push-outcomes (its records have no event type)", assertThrows(UsageException.class,
                () -> new Filter(SourceTopic.PUSH_OUTCOMES, List.of(), List.of("order.*"), List.of(), null)).getMessage());
        assertEquals("--class does not apply to push-registrations (its records have no event class)",
                assertThrows(UsageException.class,
                        () -> new Filter(SourceTopic.PUSH_REGISTRATIONS, List.of(), List.of(), List.of(), "durable")).getMessage());
    }

    @Test
    void filtersOnFieldsATopicDoesNotHaveAreRefusedNamingTheTopic() {
        UsageException type = assertThrows(UsageException.class,
                () -> new Filter(SourceTopic.RECEIPTS, List.of(), List.of("order.*"), List.of(), null));
        assertEquals("--type does not apply to receipts (its records have no event type)", type.getMessage());
        UsageException c = assertThrows(UsageException.class,
                () -> new Filter(SourceTopic.INBOX_STATE, List.of(), List.of(), List.of(), "durable"));
        assertEquals("--class does not apply to inbox-state (its records have no event class)", c.getMessage());
        UsageException id = assertThrows(UsageException.class,
                () -> new Filter(SourceTopic.INBOX_STATE, List.of(), List.of(), List.of("e1"), null));
        assertEquals("--id does not apply to inbox-state (its records have no event ids)", id.getMessage());
    }

    @Test
    void badFilterValuesAreBadInput() {
        assertThrows(UsageException.class, () -> new Filter(SourceTopic.EVENTS, List.of("a b"), List.of(), List.of(), null));
        assertThrows(UsageException.class, () -> new Filter(SourceTopic.EVENTS, List.of(), List.of(), List.of(), "sometimes"));
    }
}
