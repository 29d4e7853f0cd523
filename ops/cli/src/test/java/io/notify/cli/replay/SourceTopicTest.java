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
    void theListOfNamesKeepsItsOrderAndEndsWithTheNewTopics() {
        assertEquals("events, stream-log, undelivered, dlq, receipts, inbox-state, fallback (or notify.events, "
                + "notify.stream-log, notify.undelivered, notify.events.dlq, notify.receipts, notify.inbox-state, notify.fallback)",
                SourceTopic.NAMES);
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
    }
}
