package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class OffsetArgTest {

    @Test
    void oneOffsetForAllPartitions() {
        OffsetArg a = OffsetArg.parse("--from-offset", "1200");
        assertEquals(OptionalLong.of(1200), a.forPartition(0));
        assertEquals(OptionalLong.of(1200), a.forPartition(7));
        assertFalse(a.namesPartitions());
    }

    @Test
    void perPartitionOffsets() {
        OffsetArg a = OffsetArg.parse("--from-offset", "0:10, 3:77");
        assertEquals(OptionalLong.of(10), a.forPartition(0));
        assertEquals(OptionalLong.of(77), a.forPartition(3));
        assertEquals(OptionalLong.empty(), a.forPartition(1));
        assertTrue(a.namesPartitions());
    }

    @Test
    void rejectsMalformedInput() {
        for (String bad : new String[] {"", "-1", "abc", "0:", ":5", "0:1:2", "0:5,0:6", "1.5", "0:5,,1:2"}) {
            assertThrows(UsageException.class, () -> OffsetArg.parse("--to-offset", bad), bad);
        }
    }
}
