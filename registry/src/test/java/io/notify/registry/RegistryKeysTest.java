package io.notify.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lettuce.core.cluster.SlotHash;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hash tags put every key of one stream in the slot of the stream's id, whatever the prefix: so
 * on a Redis Cluster the stale-removal script (its one key, {@code KEYS[1]}) and each lease write run
 * on one master, and a room's connection and presence sets sit together.
 */
class RegistryKeysTest {

    @Test
    void everyKeyOfAStreamHashesToTheSlotOfItsTag() {
        for (String prefix : List.of("", "t1.", "st-x9.")) {
            RegistryKeys keys = new RegistryKeys(prefix);
            for (StreamId stream : List.of(StreamId.forUser("42"), StreamId.forUser("alice"), StreamId.forRoom("chat-1"))) {
                int slot = SlotHash.getSlot(stream.value());
                assertEquals(slot, SlotHash.getSlot(keys.connections(stream)), keys.connections(stream));
                if (!stream.isUser()) {
                    assertEquals(slot, SlotHash.getSlot(keys.presence(stream)), keys.presence(stream));
                }
            }
        }
    }

    @Test
    void manyUsersSpreadOverTheWholeSlotSpace() {
        RegistryKeys keys = RegistryKeys.production();
        long thirds = java.util.stream.IntStream.range(0, 300)
                .map(i -> SlotHash.getSlot(keys.connections(StreamId.forUser("cu" + i))) * 3 / SlotHash.SLOT_COUNT)
                .distinct().count();
        assertEquals(3, thirds, "300 users' sets fall in every third of the slots (one master's range each)");
    }

    @Test
    void aPrefixWithBracesIsRefused() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new RegistryKeys("a{b}."));
    }
}
