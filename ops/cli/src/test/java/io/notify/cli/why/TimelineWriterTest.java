package io.notify.cli.why;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.cli.replay.UsageException;
import io.notify.cli.why.Evidence.Copy;
import io.notify.protocol.NotifyJson;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineWriterTest {

    private static final Instant FROM = Instant.parse("2026-12-04T08:00:00Z");
    private static final Instant TO = Instant.parse("2026-12-04T10:00:00Z");

    private static Evidence ingestedOnly() {
        Copy c = new Copy(2, 14, Instant.parse("2026-12-04T09:00:00.120Z").toEpochMilli(), "u:42", null, List.of("42"));
        return new Evidence(new Question("42", "ord-1", FROM, TO), TO, Looked.read("notify.events", FROM, TO, List.of(c)),
                Looked.read("notify.events.dlq", FROM, TO, List.of()), Looked.read("notify.stream-log", FROM, TO, List.of()),
                Looked.skipped("r"), Looked.skipped("notify.receipts"), Looked.skipped("notify.fallback"),
                Looked.skipped("notify.push-outcomes"));
    }

    @Test
    void tableHasATimeStepAndDetailPerRowAndADashForNoTime() {
        String[] lines = TimelineWriter.table(Timeline.of(ingestedOnly())).split("\n");
        assertEquals("TIME                      STEP          DETAIL", lines[0]);
        assertEquals("2026-12-04T09:00:00.120Z  ingested      notify.events 2:14, key u:42", lines[1]);
        assertEquals("-                         rejected      not found in notify.events.dlq between 2026-12-04T08:00:00.000Z "
                + "and 2026-12-04T10:00:00.000Z", lines[2]);
    }

    @Test
    void jsonIsOneObjectWithTheQuestionAndTheStepsFacts() throws Exception {
        Evidence e = ingestedOnly();
        String out = TimelineWriter.json(e.question(), Timeline.of(e));
        assertEquals(1, out.lines().count());
        JsonNode root = NotifyJson.mapper().readTree(out);
        assertEquals("u:42", root.path("stream").asText());
        assertEquals("2026-12-04T08:00:00.000Z", root.path("from").asText());
        assertEquals(true, root.path("found").asBoolean());
        JsonNode first = root.path("steps").path(0);
        assertEquals("ingested", first.path("step").asText());
        assertEquals(14, first.path("offset").asInt());
        assertEquals(1, first.path("copies").asInt());
        assertEquals(true, root.path("steps").path(1).path("time").isNull());
    }

    @Test
    void formatsAreTableAndJson() {
        assertEquals(TimelineWriter.Format.JSON, TimelineWriter.Format.parse(" Json "));
        assertEquals("unknown format 'csv'; expected table or json",
                assertThrows(UsageException.class, () -> TimelineWriter.Format.parse("csv")).getMessage());
    }
}
