package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.schemas.topic.TopicCatalog;
import org.junit.jupiter.api.Test;

class SourceTopicTest {

    private static final TopicCatalog PLAIN = TopicCatalog.of("");
    private static final TopicCatalog PREFIXED = TopicCatalog.of("it-7f3a.");

    @Test
    void namesTheInboxTopicsByShortFullAndPrefixedName() {
        assertEquals(SourceTopic.RECEIPTS, SourceTopic.parse("receipts", PLAIN));
        assertEquals(SourceTopic.RECEIPTS, SourceTopic.parse("notify.receipts", PLAIN));
        assertEquals(SourceTopic.RECEIPTS, SourceTopic.parse("it-7f3a.notify.receipts", PREFIXED));
        assertEquals(SourceTopic.INBOX_STATE, SourceTopic.parse(" Inbox-State ", PLAIN));
        assertEquals(SourceTopic.INBOX_STATE, SourceTopic.parse("notify.inbox-state", PREFIXED));
        assertEquals("it-7f3a.notify.inbox-state", SourceTopic.INBOX_STATE.topicName(PREFIXED));
        assertEquals(PREFIXED.receipts().name(), SourceTopic.RECEIPTS.topicName(PREFIXED));
        assertEquals(PREFIXED.inboxState().name(), SourceTopic.INBOX_STATE.topicName(PREFIXED));
    }

    @Test
    void namesTheFallbackTopicByShortFullAndPrefixedName() {
        assertEquals(SourceTopic.FALLBACK, SourceTopic.parse("fallback", PLAIN));
        assertEquals(SourceTopic.FALLBACK, SourceTopic.parse("notify.fallback", PLAIN));
        assertEquals(SourceTopic.FALLBACK, SourceTopic.parse("it-7f3a.notify.fallback", PREFIXED));
        assertEquals(PREFIXED.fallback().name(), SourceTopic.FALLBACK.topicName(PREFIXED));
        assertEquals("fan-out", SourceTopic.FALLBACK.writtenBy);
    }

    @Test
    void namesThePushTopicsByShortFullAndPrefixedName() {
        assertEquals(SourceTopic.PUSH_CHANGES, SourceTopic.parse("push-changes", PLAIN));
        assertEquals(SourceTopic.PUSH_CHANGES, SourceTopic.parse("notify.push-changes", PLAIN));
        assertEquals(SourceTopic.PUSH_REGISTRATIONS, SourceTopic.parse(" Push-Registrations ", PLAIN));
        assertEquals(SourceTopic.PUSH_OUTCOMES, SourceTopic.parse("it-7f3a.notify.push-outcomes", PREFIXED));
        assertEquals(SourceTopic.PUSH_DLQ, SourceTopic.parse("push-dlq", PLAIN));
        assertEquals(SourceTopic.PUSH_DLQ, SourceTopic.parse("notify.push.dlq", PREFIXED));
        assertEquals(PREFIXED.pushChanges().name(), SourceTopic.PUSH_CHANGES.topicName(PREFIXED));
        assertEquals(PREFIXED.pushRegistrations().name(), SourceTopic.PUSH_REGISTRATIONS.topicName(PREFIXED));
        assertEquals(PREFIXED.pushOutcomes().name(), SourceTopic.PUSH_OUTCOMES.topicName(PREFIXED));
        assertEquals(PREFIXED.pushDlq().name(), SourceTopic.PUSH_DLQ.topicName(PREFIXED));
        assertEquals("the gateways and the push sender", SourceTopic.PUSH_CHANGES.writtenBy);
        assertEquals("fan-out", SourceTopic.PUSH_REGISTRATIONS.writtenBy);
        assertEquals("the push sender", SourceTopic.PUSH_OUTCOMES.writtenBy);
        assertEquals("the push sender", SourceTopic.PUSH_DLQ.writtenBy);
    }

    @Test
    void namesThePreferencesTopicByShortFullAndPrefixedName() {
        assertEquals(SourceTopic.PREFERENCES, SourceTopic.parse("preferences", PLAIN));
        assertEquals(SourceTopic.PREFERENCES, SourceTopic.parse(" Notify.Preferences ", PLAIN));
        assertEquals(SourceTopic.PREFERENCES, SourceTopic.parse("it-7f3a.notify.preferences", PREFIXED));
        assertEquals(PREFIXED.preferences().name(), SourceTopic.PREFERENCES.topicName(PREFIXED));
        assertEquals("the gateways", SourceTopic.PREFERENCES.writtenBy);
        assertEquals("stream", SourceTopic.PREFERENCES.keyPath, "a tombstone names its user by the key");
    }

    @Test
    void everyTopicOfTheCatalogButTheNodeTopicsCanBeRead() {
        java.util.Set<String> readable = java.util.Arrays.stream(SourceTopic.values()).map(s -> s.topicName(PLAIN))
                .collect(java.util.stream.Collectors.toSet());
        assertEquals(PLAIN.fixedTopics().stream().map(io.notify.schemas.topic.Topic::name).collect(java.util.stream.Collectors.toSet()),
                readable);
    }

    @Test
    void theListOfNamesKeepsItsOrderAndEndsWithTheNewTopics() {
        assertEquals("events, stream-log, undelivered, dlq, receipts, inbox-state, fallback, push-changes, push-registrations, "
                + "push-outcomes, push-dlq, preferences (or notify.events, notify.stream-log, notify.undelivered, notify.events.dlq, "
                + "notify.receipts, notify.inbox-state, notify.fallback, notify.push-changes, notify.push-registrations, "
                + "notify.push-outcomes, notify.push.dlq, notify.preferences)", SourceTopic.NAMES);
        UsageException e = assertThrows(UsageException.class, () -> SourceTopic.parse("fallbacks", PLAIN));
        assertEquals("unknown topic 'fallbacks'; expected one of " + SourceTopic.NAMES, e.getMessage());
    }

    @Test
    void onlyTopicsOfEventsCanBecomeEventsAgain() {
        assertTrue(SourceTopic.EVENTS.holdsEvents());
        assertTrue(SourceTopic.DLQ.holdsEvents());
        assertTrue(SourceTopic.UNDELIVERED.holdsEvents());
        assertTrue(SourceTopic.FALLBACK.holdsEvents(), "a fallback record holds the event it is about");
        assertFalse(SourceTopic.RECEIPTS.holdsEvents());
        assertFalse(SourceTopic.INBOX_STATE.holdsEvents());
        assertFalse(SourceTopic.PUSH_CHANGES.holdsEvents());
        assertFalse(SourceTopic.PUSH_REGISTRATIONS.holdsEvents());
        assertFalse(SourceTopic.PUSH_OUTCOMES.holdsEvents());
        assertFalse(SourceTopic.PUSH_DLQ.holdsEvents(), "one device's share of a push, for the push sender, not an event");
        assertFalse(SourceTopic.PREFERENCES.holdsEvents());
    }
}
