package io.notify.gateway.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.CloseCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Close-code mapping: each limit's documented answer, and docs/gateway.md saying the same. */
class LimitTest {

    @Test
    void eachLimitAnswersWithItsDocumentedCloseCode() {
        assertEquals(CloseCode.MESSAGE_TOO_BIG, Limit.FRAME_TOO_BIG.answer());
        assertEquals(1009, Limit.FRAME_TOO_BIG.answer().code());
        assertEquals(1007, Limit.INVALID_UTF8.answer().code());
        assertEquals(1002, Limit.PROTOCOL_ERROR.answer().code());
        assertEquals(1003, Limit.BINARY_FRAME.answer().code());
        assertEquals(4029, Limit.INBOUND_RATE.answer().code());
        assertEquals(4009, Limit.CONNECTIONS_PER_USER.answer().code());
        assertEquals(4008, Limit.SLOW_CONSUMER.answer().code());
        assertEquals(4001, Limit.TOKEN_EXPIRED.answer().code());
        assertEquals(1001, Limit.MISSED_PONGS.answer().code());
        assertEquals(4003, Limit.FOREIGN_STREAM.answer().code());
        assertEquals(1013, Limit.RESUME_UNAVAILABLE.answer().code());
        assertEquals(1009, Limit.MESSAGE_FRAMES.answer().code());
        assertEquals(1002, Limit.MESSAGE_TIMEOUT.answer().code());
    }

    @Test
    void docsListEveryLimitWithItsMetricAndAnswer() throws IOException {
        java.util.List<String> rows = Files.readAllLines(Path.of("../../docs/gateway.md"));
        for (Limit l : Limit.values()) {
            String metric = "limit=\"" + l.slug() + "\"";
            assertTrue(rows.stream().anyMatch(r -> r.startsWith("|") && r.contains(metric)
                            && r.contains("close " + l.answer().code())),
                    "docs/gateway.md needs a limits row with " + metric + " answered by close " + l.answer().code());
        }
    }
}
