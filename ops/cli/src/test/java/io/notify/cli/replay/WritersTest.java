package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.event.Fallback;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.QuietHours;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.DlqFailure;
import io.notify.schemas.topic.DlqHeaders;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
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

    private static final StreamId U42 = StreamId.forUser("42");
    private static final String FCM_ID = "pr_fcmFCMfcmFCMfcmFCMfcmF";
    private static final String WEB_ID = "pr_webWEBwebWEBwebWEBwebW";
    private static final PushRegistration FCM = new PushRegistration(FCM_ID, null, new PushRegistration.Fcm("tok-1"), null,
            1795946000000L);
    private static final PushRegistration WEB = new PushRegistration(WEB_ID, new PushRegistration.WebPush(
            "https://push.example.com/s/1", null, new PushRegistration.Keys(
                    Base64.getUrlEncoder().withoutPadding().encodeToString(p256dh()),
                    Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[16]))), null, null, 1795945000000L);

    private static byte[] p256dh() {
        byte[] key = new byte[65];
        key[0] = 4;
        return key;
    }

    private static String json(PushOutcome o) {
        return new String(NotifySerdes.pushOutcome().serializer().serialize("t", o), StandardCharsets.UTF_8);
    }

    @Test
    void pushOutcomesCsvAndTableShowEachAttempt() throws Exception {
        String givenUp = json(new PushOutcome(U42, "ord-1:shipped", 17, FCM_ID, "fcm", PushOutcome.Outcome.GIVEN_UP, 5, 503,
                "UNAVAILABLE", null, 1795946250480L));
        String none = json(new PushOutcome(U42, "ord-2", 18, null, null, PushOutcome.Outcome.NO_REGISTRATION, 0, 0, null, null,
                1795946250480L));
        String sent = json(new PushOutcome(U42, "ord-3", 19, WEB_ID, "webpush", PushOutcome.Outcome.SENT, 1, 201, null, "m-7",
                1795946250480L));
        List<String> csv = List.of(writeRecords(OutputFormat.CSV, SourceTopic.PUSH_OUTCOMES, "u:42", givenUp, "u:42", none,
                "u:42", sent).split("\r\n"));
        assertEquals(List.of("timestamp,partition,offset,stream,eventId,seq,registration,provider,outcome,attempt,status,reason,"
                        + "providerId,at",
                "2026-11-29T09:55:30.120Z,2,7,u:42,ord-1:shipped,17," + FCM_ID + ",fcm,given_up,5,503,UNAVAILABLE,,"
                        + "2026-11-29T09:57:30.480Z",
                "2026-11-29T09:55:30.120Z,2,7,u:42,ord-2,18,,,no_registration,0,0,,,2026-11-29T09:57:30.480Z",
                "2026-11-29T09:55:30.120Z,2,7,u:42,ord-3,19," + WEB_ID + ",webpush,sent,1,201,,m-7,2026-11-29T09:57:30.480Z"),
                csv);
        List<String> table = List.of(writeRecords(OutputFormat.TABLE, SourceTopic.PUSH_OUTCOMES, "u:42", givenUp, "u:42", none)
                .split("\n"));
        assertEquals(List.of("TIME                      P:OFFSET      STREAM            EVENT                             SEQ      "
                        + "REGISTRATION               PROVIDER  OUTCOME          ATTEMPT  STATUS  REASON",
                "2026-11-29T09:55:30.120Z  2:7           u:42              ord-1:shipped                     17       "
                        + FCM_ID + "  fcm       given_up         5        503     UNAVAILABLE",
                "2026-11-29T09:55:30.120Z  2:7           u:42              ord-2                             18       "
                        + "-                          -         no_registration  0        -       -"), table);
    }

    @Test
    void pushChangesCsvAndTableShowKindIdProviderAndReason() throws Exception {
        String register = new String(NotifySerdes.pushChange().serializer().serialize("t",
                PushChange.register(U42, FCM, 1795946250480L)), StandardCharsets.UTF_8);
        String gone = new String(NotifySerdes.pushChange().serializer().serialize("t",
                PushChange.gone(U42, WEB_ID, "410 Gone: unsubscribed", 1795946250480L)), StandardCharsets.UTF_8);
        List<String> csv = List.of(writeRecords(OutputFormat.CSV, SourceTopic.PUSH_CHANGES, "u:42", register, "u:42", gone)
                .split("\r\n"));
        assertEquals(List.of("timestamp,partition,offset,stream,kind,id,provider,reason,at",
                "2026-11-29T09:55:30.120Z,2,7,u:42,register," + FCM_ID + ",fcm,,2026-11-29T09:57:30.480Z",
                "2026-11-29T09:55:30.120Z,2,7,u:42,gone," + WEB_ID + ",,410 Gone: unsubscribed,2026-11-29T09:57:30.480Z"), csv);
        List<String> table = List.of(writeRecords(OutputFormat.TABLE, SourceTopic.PUSH_CHANGES, "u:42", register, "u:42", gone)
                .split("\n"));
        assertEquals(List.of("TIME                      P:OFFSET      STREAM            KIND        ID                         "
                        + "PROVIDER  REASON",
                "2026-11-29T09:55:30.120Z  2:7           u:42              register    " + FCM_ID + "  fcm       -",
                "2026-11-29T09:55:30.120Z  2:7           u:42              gone        " + WEB_ID + "  -         "
                        + "410 Gone: unsubscribed"), table);
    }

    @Test
    void pushRegistrationsCsvAndTableShowCountAndTheLastChangeAndATombstonesKey() throws Exception {
        PushRegistrations state = PushRegistrations.empty(U42).apply(PushChange.register(U42, WEB, 1795945000000L), 10).state()
                .apply(PushChange.register(U42, FCM, 1795946250480L), 10).state();
        String two = new String(NotifySerdes.pushRegistrations().serializer().serialize("t", state), StandardCharsets.UTF_8);
        String goneOne = new String(NotifySerdes.pushRegistrations().serializer().serialize("t",
                state.apply(PushChange.gone(U42, WEB_ID, "410", 1795946250480L), 10).state()), StandardCharsets.UTF_8);
        List<String> csv = List.of(writeRecords(OutputFormat.CSV, SourceTopic.PUSH_REGISTRATIONS, "u:42", two, "u:43", null)
                .split("\r\n"));
        assertEquals(List.of("timestamp,partition,offset,stream,count,registrations,change.kind,change.id,change.reason,updatedAt",
                "2026-11-29T09:55:30.120Z,2,7,u:42,2," + WEB_ID + ":webpush;" + FCM_ID + ":fcm,register," + FCM_ID
                        + ",,2026-11-29T09:57:30.480Z",
                "2026-11-29T09:55:30.120Z,2,7,u:43,,,,,,"), csv);
        List<String> table = List.of(writeRecords(OutputFormat.TABLE, SourceTopic.PUSH_REGISTRATIONS, "u:42", two, "u:42", goneOne,
                "u:43", null).split("\n"));
        assertEquals(List.of("TIME                      P:OFFSET      STREAM            COUNT  LAST CHANGE",
                "2026-11-29T09:55:30.120Z  2:7           u:42              2      register " + FCM_ID,
                "2026-11-29T09:55:30.120Z  2:7           u:42              1      gone " + WEB_ID + " (410)",
                "2026-11-29T09:55:30.120Z  2:7           u:43              -      -"), table);
    }

    @Test
    void preferencesCsvAndTableShowChannelsByTypeAndCategoryQuietHoursAndATombstonesKey() throws Exception {
        Preferences prefs = new Preferences(Map.of("order.shipped", new Channels(false, true, false), "promo.vip",
                new Channels(null, null, true)), Map.of("marketing", new Channels(null, null, false)),
                new QuietHours("22:00", "07:00", "Europe/Berlin"));
        String doc = new String(NotifySerdes.userPreferences().serializer().serialize("t", new UserPreferences(U42, prefs,
                1795946250480L)), StandardCharsets.UTF_8);
        String none = new String(NotifySerdes.userPreferences().serializer().serialize("t", new UserPreferences(
                StreamId.forUser("44"), Preferences.NONE, 1795946250480L)), StandardCharsets.UTF_8);
        List<String> csv = List.of(writeRecords(OutputFormat.CSV, SourceTopic.PREFERENCES, "u:42", doc, "u:43", null, "u:44", none)
                .split("\r\n"));
        assertEquals(List.of("timestamp,partition,offset,stream,types,categories,quietHours,updatedAt",
                "2026-11-29T09:55:30.120Z,2,7,u:42,order.shipped:-live+inbox-push;promo.vip:+push,marketing:-push,"
                        + "22:00-07:00 Europe/Berlin,2026-11-29T09:57:30.480Z",
                "2026-11-29T09:55:30.120Z,2,7,u:43,,,,",
                "2026-11-29T09:55:30.120Z,2,7,u:44,,,,2026-11-29T09:57:30.480Z"), csv, "a tombstone (a reset) shows its key only");
        List<String> table = List.of(writeRecords(OutputFormat.TABLE, SourceTopic.PREFERENCES, "u:42", doc, "u:43", null)
                .split("\n"));
        assertEquals(List.of("TIME                      P:OFFSET      STREAM            TYPES                                     "
                        + "CATEGORIES                      QUIET HOURS",
                "2026-11-29T09:55:30.120Z  2:7           u:42              order.shipped:-live+inbox-push;promo.vi…  "
                        + "marketing:-push                 22:00-07:00 Europe/Berlin",
                "2026-11-29T09:55:30.120Z  2:7           u:43              -                                         "
                        + "-                               -"), table);
    }

    @Test
    void pushDlqCsvAndTableShowTheEventTheRegistrationAndTheReason() throws Exception {
        SequencedEvent event = new SequencedEvent(U42, "ep1", 17, "ord-1:shipped", "order.shipped", null, null, "orders",
                1795946130100L, 1795946130123L, new Fallback("2m", "push"), null);
        String narrowed = new String(NotifySerdes.fallbackRecord().serializer().serialize("t", new FallbackRecord("u:42", "42",
                "push", FallbackRecord.Reason.NO_DEVICE, event, List.of(), 1795946250123L, 1795946250480L, List.of(FCM))),
                StandardCharsets.UTF_8);
        RecordHeaders h = new RecordHeaders();
        new DlqFailure("given_up by fcm (HTTP 503): UNAVAILABLE", "given_up", "notify.fallback", 3, 41,
                java.time.Instant.ofEpochMilli(1795946260000L)).writeTo(h);
        h.add(Columns.PUSH_REGISTRATION_HEADER, FCM_ID.getBytes(StandardCharsets.UTF_8));
        List<String> csv = List.of(write(OutputFormat.CSV, SourceTopic.PUSH_DLQ, false,
                row(OutputFormat.CSV, SourceTopic.PUSH_DLQ, "u:42", narrowed, h)).split("\r\n"));
        assertEquals("timestamp,partition,offset,key,id,type,epoch,seq,registration,provider,errorKind,error,sourceTopic,"
                + "sourcePartition,sourceOffset,failedAt,value", csv.get(0));
        assertTrue(csv.get(1).startsWith("2026-11-29T09:55:30.120Z,2,7,u:42,ord-1:shipped,order.shipped,ep1,17," + FCM_ID
                + ",fcm,given_up,given_up by fcm (HTTP 503): UNAVAILABLE,notify.fallback,3,41,"), csv.get(1));
        List<String> table = List.of(write(OutputFormat.TABLE, SourceTopic.PUSH_DLQ, false,
                row(OutputFormat.TABLE, SourceTopic.PUSH_DLQ, "u:42", narrowed, h),
                row(OutputFormat.TABLE, SourceTopic.PUSH_DLQ, "u:42", narrowed, null)).split("\n"));
        assertEquals(List.of("TIME                      P:OFFSET      STREAM            SEQ      ID                                "
                        + "REGISTRATION               KIND              ERROR",
                "2026-11-29T09:55:30.120Z  2:7           u:42              17       ord-1:shipped                     " + FCM_ID
                        + "  given_up          given_up by fcm (HTTP 503): UNAVAILABLE",
                "2026-11-29T09:55:30.120Z  2:7           u:42              17       ord-1:shipped                     " + FCM_ID
                        + "  -                 -"), table, "without the header, the one registration the record holds");
    }
}
