package io.notify.fanout.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.schemas.serde.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

class StreamHeadSerdeTest {

    private final Serde<StreamHead> serde = StreamHead.serde();

    private byte[] write(StreamHead head) {
        return serde.serializer().serialize("t", head);
    }

    private StreamHead read(byte[] bytes) {
        return serde.deserializer().deserialize("t", bytes);
    }

    @Test
    void aHeadComesBackAsWritten() {
        StreamHead head = new StreamHead("0123456789abcdef", 17, 4_000_000_000L, 1_764_900_000_000L);
        byte[] bytes = write(head);
        assertEquals(42, bytes.length, "version, epoch length, 16 epoch chars, three longs");
        assertEquals(head, read(bytes));
        StreamHead longest = new StreamHead("e".repeat(64), 1, 1, 0);
        assertEquals(longest, read(write(longest)));
        assertNull(read(null));
        assertNull(serde.serializer().serialize("t", null));
    }

    @Test
    void headsWrittenAsJsonBeforeAreStillRead() {
        StreamHead head = new StreamHead("ep0ch", 3, 9, 1234);
        byte[] json = JsonSerde.of(StreamHead.class).serializer().serialize("t", head);
        assertEquals('{', json[0]);
        assertEquals(head, read(json));
        assertEquals(new StreamHead("ep0ch", 1, 2, 0),
                read("{\"epoch\":\"ep0ch\",\"firstSeq\":1,\"lastSeq\":2}".getBytes(StandardCharsets.UTF_8)), "before ageCheckAt existed");
    }

    @Test
    void damagedBytesAreASerializationErrorNamingTheTopic() {
        byte[] good = write(new StreamHead("ep0ch", 1, 5, 0));
        SerializationException unknownVersion = assertThrows(SerializationException.class, () -> {
            byte[] bad = good.clone();
            bad[0] = 9;
            read(bad);
        });
        assertTrue(unknownVersion.getMessage().contains("'t'") && unknownVersion.getMessage().contains("format 9"), unknownVersion.getMessage());
        assertThrows(SerializationException.class, () -> read(Arrays.copyOf(good, good.length - 1)));
        assertThrows(SerializationException.class, () -> read(new byte[0]));
        byte[] brokenRule = write(new StreamHead("ep0ch", 1, 5, 0));
        brokenRule[brokenRule.length - 9] = 0; // lastSeq's low byte: 5 -> 0, below firstSeq
        SerializationException rule = assertThrows(SerializationException.class, () -> read(brokenRule));
        assertTrue(rule.getMessage().contains("lastSeq"), rule.getMessage());
    }
}
