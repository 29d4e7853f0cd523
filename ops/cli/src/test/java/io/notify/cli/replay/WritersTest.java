package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.schemas.topic.DlqHeaders;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class WritersTest {

    private static final long TS = java.time.Instant.parse("2026-11-29T09:55:30.120Z").toEpochMilli();
    private static final String EVENT = "{\"id\":\"e,1\",\"type\":\"order.shipped\",\"to\":{\"users\":[\"42\",\"43\"]},"
            + "\"data\":{\"note\":\"a,b \\\"q\\\"\\nline2\"},\"source\":\"orders\"}";

    private static String write(OutputFormat format, SourceTopic topic, boolean routing, Row... rows) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = format.open(out, topic, routing);
        for (Row r : rows) {
            w.write(r);
        }
        w.flush();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Row row(OutputFormat f, SourceTopic topic, String key, String value, RecordHeaders headers) throws Exception {
        Set<String> paths = f.open(new ByteArrayOutputStream(), topic, false).paths();
        return new Row(Records.record("notify.events", 2, 7, TS, key, value, headers),
                ValueScan.of(value == null ? null : value.getBytes(StandardCharsets.UTF_8), new ValueScan.Paths(paths)));
    }

    @Test
    void jsonlKeepsTheValueByteForByte() throws Exception {
        String out = write(OutputFormat.JSONL, SourceTopic.EVENTS, false, row(OutputFormat.JSONL, SourceTopic.EVENTS, "e,1", EVENT, null));
        assertEquals("{\"topic\":\"notify.events\",\"partition\":2,\"offset\":7,\"timestamp\":\"2026-11-29T09:55:30.120Z\","
                + "\"key\":\"e,1\",\"value\":" + EVENT + "}\n", out);
    }

    @Test
    void jsonlShowsHeadersRawTextBase64AndRouting() throws Exception {
        RecordHeaders h = new RecordHeaders();
        h.add(DlqHeaders.ERROR, "bad \"json\"".getBytes(StandardCharsets.UTF_8));
        Row notJson = row(OutputFormat.JSONL, SourceTopic.DLQ, null, "{oops", h);
        Row multiLine = row(OutputFormat.JSONL, SourceTopic.EVENTS, "k", "{\n\"a\": 1\n}", null);
        Row tombstone = row(OutputFormat.JSONL, SourceTopic.EVENTS, "k", null, null);
        multiLine.routing(List.of(new Routing("gw-1", null, TS, List.of("c-1")), new Routing(null, "no_live_connection", TS, null)));
        String[] lines = write(OutputFormat.JSONL, SourceTopic.EVENTS, false, notJson, multiLine, tombstone).split("\n");
        assertTrue(lines[0].endsWith("\"key\":null,\"headers\":{\"notify.error\":\"bad \\\"json\\\"\"},\"valueText\":\"{oops\"}"), lines[0]);
        assertTrue(lines[1].endsWith("\"value\":{\"a\":1},\"routing\":[{\"node\":\"gw-1\",\"routedAt\":\"2026-11-29T09:55:30.120Z\","
                + "\"connections\":[\"c-1\"]},{\"undelivered\":\"no_live_connection\",\"at\":\"2026-11-29T09:55:30.120Z\"}]}"), lines[1]);
        assertTrue(lines[2].endsWith("\"key\":\"k\",\"value\":null}"), lines[2]);
    }

    @Test
    void jsonlShowsANonUtf8KeyAsBase64() throws Exception {
        Row r = new Row(new org.apache.kafka.clients.consumer.ConsumerRecord<>("notify.events.dlq", 0, 1, TS,
                org.apache.kafka.common.record.TimestampType.CREATE_TIME, 2, 2, new byte[] {(byte) 0xff, 'k'}, "{}".getBytes(),
                new RecordHeaders(), java.util.Optional.empty()), ValueScan.of("{}".getBytes(), ValueScan.Paths.NONE));
        String out = write(OutputFormat.JSONL, SourceTopic.DLQ, false, r);
        assertTrue(out.endsWith(",\"keyBase64\":\"/2s=\",\"value\":{}}\n"), out);
    }

    @Test
    void csvHasFixedColumnsAndEscapesCommasQuotesAndNewlines() throws Exception {
        String out = write(OutputFormat.CSV, SourceTopic.EVENTS, false, row(OutputFormat.CSV, SourceTopic.EVENTS, "e,1", EVENT, null));
        assertEquals("timestamp,partition,offset,id,type,class,users,occurredAt,source,collapseKey,data\r\n"
                + "2026-11-29T09:55:30.120Z,2,7,\"e,1\",order.shipped,durable,42;43,,orders,,"
                + "\"{\"\"note\"\":\"\"a,b \\\"\"q\\\"\"\\nline2\"\"}\"\r\n", out);
    }

    @Test
    void csvHeaderIsWrittenEvenWithoutRows() throws Exception {
        assertEquals("timestamp,partition,offset,stream,epoch,seq,id,type,occurredAt,source,ingestedAt,sequencedAt,data,routing\r\n",
                write(OutputFormat.CSV, SourceTopic.STREAM_LOG, true));
    }

    @Test
    void tableIsAlignedAndCutsLongCells() throws Exception {
        String value = "{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":3,\"id\":\"" + "x".repeat(40) + "\",\"type\":\"t\",\"class\":\"durable\"}";
        Row r = row(OutputFormat.TABLE, SourceTopic.STREAM_LOG, "u:42", value, null);
        String[] lines = write(OutputFormat.TABLE, SourceTopic.STREAM_LOG, false, r).split("\n");
        assertEquals("TIME                      P:OFFSET      STREAM            SEQ      ID                                TYPE", lines[0]);
        assertEquals("2026-11-29T09:55:30.120Z  2:7           u:42              3        " + "x".repeat(31) + "…  t", lines[1]);
    }

    private static final String ACK = "{\"stream\":\"u:42\",\"kind\":\"ack\",\"epoch\":\"k3x9m2p8q7rdw5ta\",\"upTo\":20,"
            + "\"device\":\"phone-1\",\"at\":1795946130100}";
    private static final String READ_IDS = "{\"stream\":\"u:42\",\"kind\":\"read\",\"ids\":[\"ord-1:shipped\",\"ord-2\"],"
            + "\"at\":1795946130100}";
    private static final String STATE = "{\"stream\":\"u:42\",\"epoch\":\"k3x9m2p8q7rdw5ta\",\"seen\":{\"upTo\":19,\"seqs\":[]},"
            + "\"read\":{\"upTo\":17,\"seqs\":[19,21]},\"archived\":{\"upTo\":0,\"seqs\":[]},\"devices\":{\"phone-1\":"
            + "{\"acked\":20,\"at\":1795946130100},\"web-2\":{\"acked\":18,\"at\":1795946100000}},\"version\":12,"
            + "\"updatedAt\":1795946131200}";

    /** {@code format} of records given as key, value, key, value, ... (a null value is a tombstone). */
    private static String writeRecords(OutputFormat format, SourceTopic topic, String... keysAndValues) throws Exception {
        Row[] rows = new Row[keysAndValues.length / 2];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = row(format, topic, keysAndValues[2 * i], keysAndValues[2 * i + 1], null);
        }
        return write(format, topic, false, rows);
    }

    @Test
    void receiptsCsvAndTableShowKindMarksAndDevice() throws Exception {
        String csv = writeRecords(OutputFormat.CSV, SourceTopic.RECEIPTS, "u:42", ACK, "u:42", READ_IDS);
        assertEquals("timestamp,partition,offset,stream,kind,epoch,upTo,ids,device,at\r\n"
                + "2026-11-29T09:55:30.120Z,2,7,u:42,ack,k3x9m2p8q7rdw5ta,20,,phone-1,2026-11-29T09:55:30.100Z\r\n"
                + "2026-11-29T09:55:30.120Z,2,7,u:42,read,,,ord-1:shipped;ord-2,,2026-11-29T09:55:30.100Z\r\n", csv);
        String[] table = writeRecords(OutputFormat.TABLE, SourceTopic.RECEIPTS, "u:42", ACK, "u:42", READ_IDS).split("\n");
        assertEquals("TIME                      P:OFFSET      STREAM            KIND     EPOCH             DEVICE            UPTO     IDS",
                table[0]);
        assertEquals("2026-11-29T09:55:30.120Z  2:7           u:42              ack      k3x9m2p8q7rdw5ta  phone-1           20       -",
                table[1]);
        assertEquals("2026-11-29T09:55:30.120Z  2:7           u:42              read     -                 -                 -        "
                + "ord-1:shipped;ord-2", table[2]);
    }

    @Test
    void inboxStateCsvAndTableShowMarksDevicesAndATombstonesKey() throws Exception {
        String csv = writeRecords(OutputFormat.CSV, SourceTopic.INBOX_STATE, "u:42", STATE, "u:43", null);
        assertEquals("timestamp,partition,offset,stream,epoch,seen.upTo,seen.seqs,read.upTo,read.seqs,archived.upTo,archived.seqs,"
                + "devices,version,updatedAt\r\n"
                + "2026-11-29T09:55:30.120Z,2,7,u:42,k3x9m2p8q7rdw5ta,19,,17,19;21,0,,phone-1:20;web-2:18,12,2026-11-29T09:55:31.200Z\r\n"
                + "2026-11-29T09:55:30.120Z,2,7,u:43,,,,,,,,,,\r\n", csv);
        String[] table = writeRecords(OutputFormat.TABLE, SourceTopic.INBOX_STATE, "u:42", STATE).split("\n");
        assertEquals("TIME                      P:OFFSET      STREAM            EPOCH             SEEN          READ          "
                + "ARCHIVED      VERSION  DEVICES", table[0]);
        assertEquals("2026-11-29T09:55:30.120Z  2:7           u:42              k3x9m2p8q7rdw5ta  19            17 +19,21     "
                + "0             12       phone-1:20;web-2:18", table[1]);
    }

    private static final String FALLBACK = "{\"stream\":\"u:42\",\"userId\":\"42\",\"channel\":\"push\",\"reason\":\"no_ack\","
            + "\"event\":{\"stream\":\"u:42\",\"epoch\":\"k3x9m2p8q7rdw5ta\",\"seq\":17,\"id\":\"ord-1:shipped\","
            + "\"type\":\"order.shipped\",\"class\":\"durable\",\"data\":{},\"ingestedAt\":1795946130100,"
            + "\"sequencedAt\":1795946130123,\"fallback\":{\"after\":\"2m\",\"channel\":\"push\"}},"
            + "\"devices\":[{\"device\":\"phone-1\",\"acked\":15,\"lastSeenAt\":1795946100000},"
            + "{\"device\":\"web-2\",\"acked\":0,\"lastSeenAt\":1795940000000}],\"dueAt\":1795946250123,\"at\":1795946250480}";

    @Test
    void fallbackCsvAndTableShowChannelReasonEventDevicesAndLateness() throws Exception {
        List<String> csv = List.of(writeRecords(OutputFormat.CSV, SourceTopic.FALLBACK, "u:42", FALLBACK).split("\r\n"));
        List<String> table = List.of(writeRecords(OutputFormat.TABLE, SourceTopic.FALLBACK, "u:42", FALLBACK).split("\n"));
        assertEquals(List.of("timestamp,partition,offset,stream,channel,reason,id,type,epoch,seq,devices,dueAt,at,lateness",
                "2026-11-29T09:55:30.120Z,2,7,u:42,push,no_ack,ord-1:shipped,order.shipped,k3x9m2p8q7rdw5ta,17,"
                        + "phone-1:15;web-2:0,2026-11-29T09:57:30.123Z,2026-11-29T09:57:30.480Z,357",
                "TIME                      P:OFFSET      STREAM            SEQ      ID                                CHANNEL     "
                        + "REASON     DUE                       LATENESS   DEVICES",
                "2026-11-29T09:55:30.120Z  2:7           u:42              17       ord-1:shipped                     push        "
                        + "no_ack     2026-11-29T09:57:30.123Z  357 ms     phone-1:15;web-2:0"),
                Stream.concat(csv.stream(), table.stream()).toList());
    }
}
