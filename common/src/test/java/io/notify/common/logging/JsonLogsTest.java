package io.notify.common.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.status.Status;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.MDC;

/**
 * The services' logback.xml (common/src/main/resources) with {@code NOTIFY_LOG_FORMAT} unset and
 * set to {@code json}: the JSON line carries the {@link LogFields} ids as fields, the text line is
 * unchanged, and the ids leave the MDC when the fields are closed.
 */
class JsonLogsTest {

    /** The lines one log call writes to System.err through the production logback.xml, with {@code format} (null: unset). */
    private static List<String> logOnce(String format, String... fields) throws Exception {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(MDC.getMDCAdapter()); // the adapter LogFields writes to
        if (format != null) {
            context.putProperty("NOTIFY_LOG_FORMAT", format);
        }
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(JsonLogsTest.class.getResource("/logback.xml"));
        Logger log = context.getLogger("io.notify.gateway.session.StreamSync");
        PrintStream err = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setErr(new PrintStream(out, true, StandardCharsets.UTF_8));
        try (LogFields f = LogFields.of(fields)) {
            log.warn("connection {}: giving up", "c-17");
        } finally {
            System.setErr(err);
            context.stop();
        }
        List<Status> problems = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() >= Status.WARN).toList();
        assertEquals(List.of(), problems, "logback.xml configures without warnings (a warning prints logback's status at startup)");
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void jsonLineCarriesTheIdsAsFields() throws Exception {
        List<String> lines = logOnce("json", LogFields.NODE, "gw-a", LogFields.CONNECTION, "c-17", LogFields.STREAM, "u:alice");
        assertEquals(1, lines.size(), "one line per event: " + lines);
        JsonNode line = new ObjectMapper().readTree(lines.get(0));
        assertEquals("WARN", line.get("level").asText());
        assertEquals("io.notify.gateway.session.StreamSync", line.get("loggerName").asText());
        assertEquals("connection c-17: giving up", line.get("formattedMessage").asText());
        JsonNode mdc = line.get("mdc");
        assertEquals("gw-a", mdc.get("node").asText());
        assertEquals("c-17", mdc.get("connection").asText());
        assertEquals("u:alice", mdc.get("stream").asText());
        assertTrue(line.get("timestamp").asLong() > 0);
    }

    @Test
    void textIsTheDefault() throws Exception {
        List<String> lines = logOnce(null, LogFields.CONNECTION, "c-17");
        assertEquals(1, lines.size(), "one line per event: " + lines);
        assertTrue(lines.get(0).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WARN  i\\.n\\.g\\.s\\.StreamSync - connection c-17: giving up"),
                lines.get(0));
        assertFalse(lines.get(0).startsWith("{"));
    }

    @Test
    void anUnknownFormatIsReported() throws Exception {
        LoggerContext context = new LoggerContext();
        context.putProperty("NOTIFY_LOG_FORMAT", "xml");
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(JsonLogsTest.class.getResource("/logback.xml"));
        assertTrue(context.getStatusManager().getCopyOfStatusList().stream()
                        .anyMatch(s -> s.getLevel() >= Status.WARN && s.getMessage().contains("notify-log-xml.xml")),
                "logback names the missing notify-log-xml.xml");
        context.stop();
    }

    @Test
    void closingRestoresTheMdc() {
        MDC.put(LogFields.NODE, "outer");
        try {
            try (LogFields f = LogFields.of(LogFields.NODE, "inner", LogFields.CONNECTION, "c-1")) {
                assertEquals("inner", MDC.get(LogFields.NODE));
                assertEquals("c-1", MDC.get(LogFields.CONNECTION));
            }
            assertEquals("outer", MDC.get(LogFields.NODE), "a nested field restores the outer value");
            assertNull(MDC.get(LogFields.CONNECTION), "a field that was absent is removed");
        } finally {
            MDC.remove(LogFields.NODE);
        }
    }

    @Test
    void oddArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> LogFields.of(LogFields.NODE));
    }
}
