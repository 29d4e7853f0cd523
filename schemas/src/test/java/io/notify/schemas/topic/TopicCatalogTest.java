package io.notify.schemas.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TopicCatalogTest {

    @Test
    void productionNames() {
        TopicCatalog c = TopicCatalog.production();
        assertEquals("", c.prefix());
        assertEquals("notify.events", c.events().name());
        assertEquals("notify.events.dlq", c.eventsDlq().name());
        assertEquals("notify.stream-log", c.streamLog().name());
        assertEquals("notify.node.gw-1", c.node("gw-1").name());
        assertEquals("notify.undelivered", c.undelivered().name());
        assertEquals("notify.push-changes", c.pushChanges().name());
        assertEquals("notify.push-registrations", c.pushRegistrations().name());
        assertEquals("notify.push-outcomes", c.pushOutcomes().name());
        assertEquals("notify.push.dlq", c.pushDlq().name());
        assertEquals("notify.preferences", c.preferences().name());
    }

    @Test
    void prefixIsPrependedVerbatim() {
        String prefix = "it-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        TopicCatalog c = TopicCatalog.of(prefix);
        assertEquals(prefix + "notify.events", c.events().name());
        assertEquals(prefix + "notify.events.dlq", c.eventsDlq().name());
        assertEquals(prefix + "notify.stream-log", c.streamLog().name());
        assertEquals(prefix + "notify.node.pod_7.a", c.node("pod_7.a").name());
        assertEquals(prefix + "notify.undelivered", c.undelivered().name());
        assertEquals(prefix + "notify.push-changes", c.pushChanges().name());
        assertEquals(prefix + "notify.push-registrations", c.pushRegistrations().name());
        assertEquals(prefix + "notify.push-outcomes", c.pushOutcomes().name());
        assertEquals(prefix + "notify.push.dlq", c.pushDlq().name());
        assertEquals(List.of(c.events(), c.eventsDlq(), c.streamLog(), c.undelivered(), c.receipts(), c.inboxState(), c.fallback(),
                c.pushChanges(), c.pushRegistrations(), c.pushOutcomes(), c.pushDlq(), c.preferences()), c.fixedTopics());
    }

    @Test
    void invalidNodeIdsAreRejectedClearly() {
        TopicCatalog c = TopicCatalog.production();
        for (String bad : new String[] {"", "gw 1", "gw/1", "gw|1", "x".repeat(65), null}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.node(bad), String.valueOf(bad));
            assertTrue(e.getMessage().contains("node id must be 1..64 chars of [A-Za-z0-9._-]"), e.getMessage());
        }
        assertEquals("notify.node." + "x".repeat(64), c.node("x".repeat(64)).name());
    }

    @Test
    void aNodeTopicIsNamedOnceAndTheMemoryIsBounded() {
        TopicCatalog c = TopicCatalog.of("t.");
        assertSame(c.node("gw-1"), c.node("gw-1"), "the router names a node's topic per event: built once");
        assertSame(c.allNodes(), c.allNodes());
        assertThrows(IllegalArgumentException.class, () -> c.node("gw 1"), "a bad id is refused after good ones too");
        for (int i = 0; i < TopicCatalog.MAX_NODES_NAMED + 10; i++) {
            assertEquals("t.notify.node.n" + i, c.node("n" + i).name());
        }
        Topic<StreamId, ?> past = c.node("n" + (TopicCatalog.MAX_NODES_NAMED + 5));
        assertEquals("t.notify.node.n" + (TopicCatalog.MAX_NODES_NAMED + 5), past.name());
        assertFalse(past == c.node("n" + (TopicCatalog.MAX_NODES_NAMED + 5)), "past the bound a node's topic is built, not kept");
    }

    @Test
    void invalidPrefixesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> TopicCatalog.of(null));
        assertThrows(IllegalArgumentException.class, () -> TopicCatalog.of("has space."));
        assertThrows(IllegalArgumentException.class, () -> TopicCatalog.of("x".repeat(101)));
        // the longest prefix with the longest node id still makes a legal topic name
        assertEquals(100 + "notify.node.".length() + 64, TopicCatalog.of("x".repeat(100)).node("y".repeat(64)).name().length());
    }

    @Test
    void nodeTopicsAreRecognisedUnderTheirPrefixOnly() {
        TopicCatalog c = TopicCatalog.of("t1.");
        assertEquals(Optional.of("gw-1"), c.nodeIdOf("t1.notify.node.gw-1"));
        assertEquals(Optional.empty(), c.nodeIdOf("notify.node.gw-1"));
        assertEquals(Optional.empty(), c.nodeIdOf("t1.notify.events"));
        assertEquals(Optional.empty(), c.nodeIdOf(null));
        assertTrue(c.nodeTopicPattern().matcher("t1.notify.node.a").matches());
        assertFalse(c.nodeTopicPattern().matcher("t1Xnotify.node.a").matches());
    }

    @Test
    void topicsCarryTheirSerdesAndFormats() {
        TopicCatalog c = TopicCatalog.production();
        assertSame(NotifySerdes.streamId(), c.node("gw-1").keySerde());
        assertSame(NotifySerdes.deliveryMessage(), c.node("gw-1").valueSerde());
        assertSame(NotifySerdes.sequencedEvent(), c.streamLog().valueSerde());
        assertSame(NotifySerdes.undeliveredEvent(), c.undelivered().valueSerde());
        assertSame(NotifySerdes.eventEnvelope(), c.events().valueSerde());
        byte[] key = c.streamLog().keySerde().serializer().serialize("t", StreamId.forUser("42"));
        assertEquals("u:42", new String(key, java.nio.charset.StandardCharsets.UTF_8));
        byte[] raw = {1, 2, 3};
        assertSame(raw, c.eventsDlq().valueSerde().serializer().serialize("t", raw));
        assertSame(NotifySerdes.pushChange(), c.pushChanges().valueSerde());
        assertSame(NotifySerdes.pushRegistrations(), c.pushRegistrations().valueSerde());
        assertSame(NotifySerdes.pushOutcome(), c.pushOutcomes().valueSerde());
        assertSame(NotifySerdes.userPreferences(), c.preferences().valueSerde());
        assertSame(NotifySerdes.streamId(), c.pushDlq().keySerde());
        assertSame(raw, c.pushDlq().valueSerde().serializer().serialize("t", raw));
        for (Topic<?, ?> t : c.fixedTopics()) {
            assertFalse(t.keyFormat().isBlank(), t.name());
            assertFalse(t.valueFormat().isBlank(), t.name());
        }
    }

    @Test
    void topicNamesAreLegalKafkaNames() {
        assertThrows(IllegalArgumentException.class, () -> new Topic<>("..", NotifySerdes.streamId(), NotifySerdes.streamId(), "k", "v"));
        assertThrows(IllegalArgumentException.class, () -> new Topic<>("a".repeat(250), NotifySerdes.streamId(), NotifySerdes.streamId(), "k", "v"));
        assertThrows(IllegalArgumentException.class, () -> new Topic<>("a:b", NotifySerdes.streamId(), NotifySerdes.streamId(), "k", "v"));
    }
}
