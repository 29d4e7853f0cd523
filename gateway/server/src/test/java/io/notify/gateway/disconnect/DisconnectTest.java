package io.notify.gateway.disconnect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.CloseCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Close-code mapping: each disconnect's documented answer, and docs/gateway.md saying the same. */
class DisconnectTest {

    @Test
    void eachLimitAnswersWithItsDocumentedCloseCode() {
        assertEquals(CloseCode.MESSAGE_TOO_BIG, Disconnect.FRAME_TOO_BIG.answer());
        assertEquals(1009, Disconnect.FRAME_TOO_BIG.answer().code());
        assertEquals(1007, Disconnect.INVALID_UTF8.answer().code());
        assertEquals(1002, Disconnect.PROTOCOL_ERROR.answer().code());
        assertEquals(1003, Disconnect.BINARY_FRAME.answer().code());
        assertEquals(4029, Disconnect.INBOUND_RATE.answer().code());
        assertEquals(4009, Disconnect.CONNECTIONS_PER_USER.answer().code());
        assertEquals(4008, Disconnect.SLOW_CONSUMER.answer().code());
        assertEquals(4001, Disconnect.TOKEN_EXPIRED.answer().code());
        assertEquals(1001, Disconnect.MISSED_PONGS.answer().code());
        assertEquals(4003, Disconnect.FOREIGN_STREAM.answer().code());
        assertEquals(1013, Disconnect.RESUME_UNAVAILABLE.answer().code());
        assertEquals(1009, Disconnect.MESSAGE_FRAMES.answer().code());
        assertEquals(1002, Disconnect.MESSAGE_TIMEOUT.answer().code());
    }

    @Test
    void docsListEveryLimitWithItsMetricAndAnswer() throws IOException {
        java.util.List<String> rows = Files.readAllLines(Path.of("../../docs/gateway.md"));
        for (Disconnect l : Disconnect.values()) {
            String metric = "limit=\"" + l.slug() + "\"";
            assertTrue(rows.stream().anyMatch(r -> r.startsWith("|") && r.contains(metric)
                            && r.contains("close " + l.answer().code())),
                    "docs/gateway.md needs a limits row with " + metric + " answered by close " + l.answer().code());
        }
    }
}
