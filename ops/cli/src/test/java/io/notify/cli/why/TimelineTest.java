package io.notify.cli.why;

import static io.notify.cli.why.TimelineFixtures.DUE;
import static io.notify.cli.why.TimelineFixtures.FROM;
import static io.notify.cli.why.TimelineFixtures.ID;
import static io.notify.cli.why.TimelineFixtures.T;
import static io.notify.cli.why.TimelineFixtures.TO;
import static io.notify.cli.why.TimelineFixtures.U42;
import static io.notify.cli.why.TimelineFixtures.WITH_FALLBACK;
import static io.notify.cli.why.TimelineFixtures.copy;
import static io.notify.cli.why.TimelineFixtures.event;
import static io.notify.cli.why.TimelineFixtures.evidence;
import static io.notify.cli.why.TimelineFixtures.log;
import static io.notify.cli.why.TimelineFixtures.pushFallback;
import static io.notify.cli.why.TimelineFixtures.step;
import static io.notify.cli.why.TimelineFixtures.steps;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.replay.Routing;
import io.notify.cli.replay.TimeText;
import io.notify.cli.why.Evidence.Copy;
import io.notify.cli.why.Evidence.Rejection;
import io.notify.protocol.event.Channel;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.DlqFailure;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timeline from evidence given as lists of records: no Kafka. */
class TimelineTest {

    @Test
    void aDeliveredReadEventWhoseFallbackTheFirstAckCancelled() {
        Receipt ackPhone = Receipt.ack(U42, "ep1", 17, "phone-1", T + 500);
        Receipt ackWeb = Receipt.ack(U42, null, 20, "web-2", T + 900);
        Receipt laterPhone = Receipt.ack(U42, "ep1", 21, "phone-1", T + 2000);
        Receipt read = Receipt.markIds(U42, ReceiptKind.READ, "ep1", List.of("other", ID), "phone-1", T + 60_000);
        Timeline t = Timeline.of(evidence(Instant.ofEpochMilli(T + 600_000), List.of(copy(2, 14, T), copy(2, 15, T + 3000)),
                Looked.skipped("notify.events.dlq"), log(WITH_FALLBACK),
                List.of(new Routing("gw-1", null, T + 25, List.of())), List.of(ackPhone, ackWeb, laterPhone, read), List.of()));

        assertTrue(t.found());
        assertEquals(List.of("ingested", "deduplicated", "sequenced", "routed", "acked", "acked", "seen", "read", "archived",
                "fallback"), t.steps().stream().map(Step::step).toList());
        assertEquals("notify.events 2:14, key u:42", step(t, "ingested").detail());
        assertEquals(T, step(t, "ingested").time());
        assertEquals("2 copies: the dedup window kept the first; deduplicated 1 copy (2:15 at 2026-12-04T09:00:03.000Z)",
                step(t, "deduplicated").detail());
        assertEquals("u:42 epoch ep1 seq 17 (notify.stream-log 5:100), fan-out latency 23 ms", step(t, "sequenced").detail());
        assertEquals(23L, step(t, "sequenced").facts().get("latencyMs"));
        assertEquals("to gateway node gw-1 (every connection of the user there)", step(t, "routed").detail());
        assertEquals(List.of("by device phone-1 (ack up to 17)", "by device web-2 (ack up to 20)"),
                steps(t, "acked").stream().map(Step::detail).toList(), "the first ack of each device");
        assertTrue(step(t, "seen").detail().startsWith("no seen mark covering the event in notify.receipts between "), step(t, "seen").detail());
        assertEquals("marked by id from device phone-1", step(t, "read").detail());
        assertEquals(T + 60_000, step(t, "read").time());
        assertEquals("cancelled: acked by phone-1 at 2026-12-04T09:00:00.500Z, before the due time 2026-12-04T09:02:00.023Z "
                + "(push after 2m)", step(t, "fallback").detail());
        assertEquals("cancelled", step(t, "fallback").facts().get("outcome"));
    }

    @Test
    void anEventOnlyInTheDlqWasRejected() {
        DlqFailure failure = new DlqFailure("/to/users: is required", "schema", "notify.events", 1, 7, Instant.ofEpochMilli(T + 5));
        Looked<Rejection> dlq = Looked.read("notify.events.dlq", FROM, TO, List.of(new Rejection(0, 3, T, "u:42", failure,
                failure.error())));
        Timeline t = Timeline.of(evidence(Instant.ofEpochMilli(T), List.of(), dlq, log(), List.of(), List.of(), List.of()));
        assertTrue(t.found(), "the DLQ record came from notify.events");
        assertEquals(List.of("ingested", "rejected", "sequenced"), t.steps().stream().map(Step::step).toList());
        assertEquals("not found in notify.events between 2026-12-04T08:00:00.000Z and 2026-12-04T10:00:00.000Z; the DLQ record "
                + "below came from notify.events 1:7", step(t, "ingested").detail());
        assertEquals("notify.events.dlq 0:3: schema: /to/users: is required (from notify.events 1:7)", step(t, "rejected").detail());
        assertTrue(step(t, "sequenced").detail().endsWith(": fan-out rejected it"), step(t, "sequenced").detail());
    }

    @Test
    void aRecalledEventShowsTheRecallNotASecondSequencing() {
        Timeline t = Timeline.of(evidence(Instant.ofEpochMilli(T + 600_000), List.of(copy(2, 14, T), copy(2, 15, T + 3000)),
                Looked.skipped("notify.events.dlq"), log(WITH_FALLBACK, WITH_FALLBACK.asRecalled()), List.of(), List.of(), List.of()));
        assertEquals(List.of("sequenced"), steps(t, "sequenced").stream().map(Step::step).toList(), "sequenced once");
        assertEquals("u:42 seq " + WITH_FALLBACK.seq() + " taken back by its producer (notify.stream-log 5:101): out of the inbox, "
                + "archived, devices sent a recalled frame", step(t, "recalled").detail());
        assertTrue(step(t, "deduplicated").detail().startsWith("2 copies: the dedup window kept the first"),
                "a recall is not a second sequencing: " + step(t, "deduplicated").detail());
    }

    @Test
    void nothingAnywhereIsNotFoundAndSaysWhereItLooked() {
        Timeline t = Timeline.of(evidence(Instant.ofEpochMilli(T), List.of(), Looked.read("notify.events.dlq", FROM, TO, List.of()),
                log(), List.of(), List.of(), List.of()));
        assertFalse(t.found());
        assertEquals(List.of("not found in notify.events between 2026-12-04T08:00:00.000Z and 2026-12-04T10:00:00.000Z",
                "not found in notify.events.dlq between 2026-12-04T08:00:00.000Z and 2026-12-04T10:00:00.000Z",
                "not found in notify.stream-log between 2026-12-04T08:00:00.000Z and 2026-12-04T10:00:00.000Z"),
                t.steps().stream().map(Step::detail).toList());
    }

    @Test
    void anEphemeralEventIsNeverSequencedAndAnotherUsersIsNotTheirs() {
        Copy ephemeral = new Copy(0, 1, T, "u:42", "ephemeral", List.of("42"));
        Timeline t = Timeline.of(evidence(Instant.ofEpochMilli(T), List.of(ephemeral), Looked.read("notify.events.dlq", FROM, TO,
                List.of()), log(), List.of(), List.of(), List.of()));
        assertEquals("notify.events 0:1, key u:42, class ephemeral", step(t, "ingested").detail());
        assertTrue(step(t, "sequenced").detail().endsWith(": the event is ephemeral (live only, never sequenced)"));
        Copy toOthers = new Copy(0, 1, T, "u:7", null, List.of("7", "8"));
        Timeline other = Timeline.of(evidence(Instant.ofEpochMilli(T), List.of(toOthers), Looked.read("notify.events.dlq", FROM,
                TO, List.of()), log(), List.of(), List.of(), List.of()));
        assertEquals("notify.events 0:1, key u:7, to.users 7;8 (not user 42)", step(other, "ingested").detail());
        assertTrue(step(other, "sequenced").detail().endsWith(": user 42 is not among its recipients"));
    }

    @Test
    void fallbackWrittenPendingOrCancelledByARead() {
        FallbackRecord written = new FallbackRecord("u:42", "42", "push", FallbackRecord.Reason.NO_ACK, WITH_FALLBACK,
                List.of(new FallbackRecord.Device("phone-1", 15, T - 5000)), DUE, DUE + 357);
        Timeline w = Timeline.of(evidence(Instant.ofEpochMilli(DUE + 1000), List.of(copy(0, 0, T)), Looked.skipped("dlq"),
                log(WITH_FALLBACK), List.of(), List.of(), List.of(written)));
        assertEquals("written to notify.fallback: channel push, reason no_ack, due 2026-12-04T09:02:00.023Z, lateness 357 ms, "
                + "devices phone-1:15", step(w, "fallback").detail());
        assertEquals(357L, step(w, "fallback").facts().get("latenessMs"));

        Timeline pending = Timeline.of(evidence(Instant.ofEpochMilli(T + 1000), List.of(copy(0, 0, T)), Looked.skipped("dlq"),
                log(WITH_FALLBACK), List.of(), List.of(Receipt.markUpTo(U42, ReceiptKind.SEEN, "ep1", 17, null, T + 500)), List.of()));
        assertEquals("pending until 2026-12-04T09:02:00.023Z (push after 2m): no ack or read yet",
                step(pending, "fallback").detail(), "a seen mark does not cancel a fallback");

        Receipt read = Receipt.markUpTo(U42, ReceiptKind.READ, null, 30, "web-2", T + 90_000);
        Timeline cancelled = Timeline.of(evidence(Instant.ofEpochMilli(DUE + 60_000), List.of(copy(0, 0, T)), Looked.skipped("dlq"),
                log(WITH_FALLBACK), List.of(), List.of(Receipt.ack(U42, "ep1", 16, "phone-1", T + 10), read), List.of()));
        assertEquals("cancelled: read at 2026-12-04T09:01:30.000Z, before the due time 2026-12-04T09:02:00.023Z (push after 2m)",
                step(cancelled, "fallback").detail(), "an ack below the seq covers nothing");
        assertTrue(step(cancelled, "acked").detail().startsWith("no ack covering seq 17 in notify.receipts between"));

        Timeline missing = Timeline.of(evidence(Instant.ofEpochMilli(DUE + 600_000), List.of(copy(0, 0, T)), Looked.skipped("dlq"),
                log(WITH_FALLBACK), List.of(), List.of(), List.of()));
        assertTrue(step(missing, "fallback").detail().contains("with no ack or read before it, but not found in notify.fallback between"),
                step(missing, "fallback").detail());
        assertEquals("missing", step(missing, "fallback").facts().get("outcome"));
    }

    @Test
    void withoutAFallbackItIsNotRequestedAndOldRoutingIsGone() {
        SequencedEvent plain = event(null);
        Timeline t = Timeline.of(evidence(Instant.ofEpochMilli(T + 3 * 3_600_000L), List.of(copy(0, 0, T)), Looked.skipped("dlq"),
                log(plain), List.of(), List.of(), List.of()));
        assertEquals("not requested", step(t, "fallback").detail());
        assertTrue(step(t, "routed").detail().endsWith("; node topics keep 1 hour, and the event was sequenced 2 h ago"),
                step(t, "routed").detail());
    }

    @Test
    void aCopyAfterTheDedupWindowIsSequencedAgain() {
        SequencedEvent again = new SequencedEvent(U42, "ep1", 18, ID, "order.shipped", null, null, "orders", T, T + 30);
        Timeline t = Timeline.of(evidence(Instant.ofEpochMilli(T), List.of(copy(0, 0, T), copy(0, 9, T + 90_000_000L)),
                Looked.skipped("dlq"), log(event(null), again), List.of(), List.of(), List.of()));
        assertTrue(step(t, "deduplicated").detail().contains("and sequenced 2 times: a copy came after the dedup window"),
                step(t, "deduplicated").detail());
        assertEquals(2, steps(t, "sequenced").size());
    }

    @Test
    void receiptsCoverTheEventByEpochSeqOrId() {
        assertTrue(FirstReceipts.covers(Receipt.ack(U42, "ep1", 17, "d", T), WITH_FALLBACK));
        assertFalse(FirstReceipts.covers(Receipt.ack(U42, "ep0", 99, "d", T), WITH_FALLBACK), "another history");
        assertFalse(FirstReceipts.covers(Receipt.ack(StreamId.forUser("43"), "ep1", 99, "d", T), WITH_FALLBACK));
        assertTrue(FirstReceipts.covers(Receipt.markIds(U42, ReceiptKind.ARCHIVE, null, List.of(ID), null, T), WITH_FALLBACK));
        assertFalse(FirstReceipts.covers(Receipt.markIds(U42, ReceiptKind.READ, null, List.of("x"), null, T), WITH_FALLBACK));
        List<Receipt> firsts = FirstReceipts.firsts(WITH_FALLBACK, List.of(Receipt.ack(U42, null, 18, "a", T + 1),
                Receipt.ack(U42, null, 19, "a", T + 2), Receipt.markUpTo(U42, ReceiptKind.READ, null, 17, null, T + 3),
                Receipt.markUpTo(U42, ReceiptKind.READ, null, 18, null, T + 4), Receipt.ack(U42, null, 19, "b", T + 5)));
        assertEquals(List.of(T + 1, T + 3, T + 5), firsts.stream().map(Receipt::at).toList());
    }

    private static SequencedEvent sequenced(long seq, String id, long sequencedAt, boolean critical, Digest digest, Channel... muted) {
        return new SequencedEvent(U42, "ep1", seq, id, "comment.added", null, null, "orders", sequencedAt - 23, sequencedAt,
                new Fallback("2m", "push"), null, "social", critical, digest, List.of(muted));
    }

    private static Timeline withFallbacks(SequencedEvent asked, long now, FallbackRecord... records) {
        return Timeline.of(evidence(Instant.ofEpochMilli(now), List.of(copy(0, 0, T)), Looked.skipped("dlq"), log(asked), List.of(),
                List.of(), List.of(records)));
    }

    @Test
    void theSequencedRowSaysWhichChannelsTheUsersPreferencesMutedOrThatTheEventIsCritical() {
        SequencedEvent muted = sequenced(17, ID, T + 23, false, null, Channel.LIVE, Channel.PUSH);
        Timeline t = withFallbacks(muted, DUE + 600_000);
        assertEquals("u:42 epoch ep1 seq 17 (notify.stream-log 5:100), fan-out latency 23 ms; muted for live and push by the "
                + "user's preferences (no device is sent it; no fallback)", step(t, "sequenced").detail());
        assertEquals(List.of("live", "push"), step(t, "sequenced").facts().get("muted"));
        assertFalse(step(t, "sequenced").facts().containsKey("critical"));
        assertEquals("muted by the user's preferences: none is written (push after 2m)", step(t, "fallback").detail(),
                "not 'due but not found': fan-out never schedules it");
        assertEquals("muted", step(t, "fallback").facts().get("outcome"));

        Timeline live = withFallbacks(sequenced(17, ID, T + 23, false, null, Channel.LIVE), DUE + 600_000);
        assertTrue(step(live, "sequenced").detail().endsWith("; muted for live by the user's preferences (no device is sent it)"),
                step(live, "sequenced").detail());
        assertTrue(step(live, "fallback").detail().contains("but not found in notify.fallback"), "its push is not muted");

        Timeline critical = withFallbacks(sequenced(17, ID, T + 23, true, null), DUE + 600_000);
        assertTrue(step(critical, "sequenced").detail().endsWith(
                "fan-out latency 23 ms; critical: the user's preferences and quiet hours do not apply"),
                step(critical, "sequenced").detail());
        assertEquals(true, step(critical, "sequenced").facts().get("critical"));
        assertFalse(step(critical, "fallback").detail().contains("quiet hours"), "a critical event is never held");
    }

    @Test
    void aFallbackDueInQuietHoursSaysItWasHeldToTheirEnd() {
        long quietEnd = Instant.parse("2026-12-04T11:00:00Z").toEpochMilli();
        FallbackRecord held = new FallbackRecord("u:42", "42", "push", FallbackRecord.Reason.NO_DEVICE, WITH_FALLBACK, List.of(),
                quietEnd, quietEnd + 40);
        Timeline t = withFallbacks(WITH_FALLBACK, quietEnd + 1000, held);
        assertEquals("written to notify.fallback: channel push, reason no_device, due 2026-12-04T11:00:00.000Z, lateness 40 ms; "
                + "held by the user's quiet hours (due 2026-12-04T09:02:00.023Z without them)", step(t, "fallback").detail());
        assertEquals("2026-12-04T09:02:00.023Z", step(t, "fallback").facts().get("heldFrom"));

        Timeline missing = withFallbacks(WITH_FALLBACK, DUE + 600_000);
        assertTrue(step(missing, "fallback").detail().endsWith(": not decided yet (fan-out lag), held by the user's quiet hours, "
                + "or written after the window"), step(missing, "fallback").detail());
    }

    private static final Digest COMMENTS = new Digest("comments:p-9", "15m");
    private static final long WINDOW = 15 * 60_000L;

    @Test
    void aFoldedEventShowsItsDigestsRecordWithTheCountAndTheFirstAndLastEvents() {
        SequencedEvent first = sequenced(15, "c-1", T + 23, false, COMMENTS);
        SequencedEvent asked = sequenced(17, ID, T + 60_000, false, COMMENTS);
        SequencedEvent last = sequenced(31, "c-10", T + 600_000, false, COMMENTS);
        long due = T + 23 + WINDOW;
        FallbackRecord digest = new FallbackRecord("u:42", "42", "push", FallbackRecord.Reason.NO_ACK, last, List.of(), due, due + 357,
                List.of(), new FallbackRecord.Digested("comments:p-9", 9, first));
        Timeline t = withFallbacks(asked, due + 1000, digest);
        assertEquals("written to notify.fallback: channel push, reason no_ack, due 2026-12-04T09:15:00.023Z, lateness 357 ms; "
                + "folded into digest comments:p-9: 9 events, first c-1, last c-10", step(t, "fallback").detail(),
                "due when the window of its first event closed: not held");
        assertEquals(9L, step(t, "fallback").facts().get("count"));
        assertEquals("c-1", step(t, "fallback").facts().get("first"));

        long quietEnd = Instant.parse("2026-12-04T11:00:00Z").toEpochMilli();
        FallbackRecord held = new FallbackRecord("u:42", "42", "push", FallbackRecord.Reason.NO_ACK, last, List.of(), quietEnd,
                quietEnd + 5, List.of(), new FallbackRecord.Digested("comments:p-9", 1, first));
        assertEquals("written to notify.fallback: channel push, reason no_ack, due 2026-12-04T11:00:00.000Z, lateness 5 ms; held by "
                + "the user's quiet hours (due 2026-12-04T09:15:00.023Z without them); folded into digest comments:p-9: 1 event, "
                + "first c-1, last c-10", step(withFallbacks(asked, quietEnd + 1000, held), "fallback").detail());

        Timeline pending = withFallbacks(asked, T + 300_000);
        assertEquals("pending until 2026-12-04T09:16:00.000Z at the latest (push after 2m, digest comments:p-9 within 15m): "
                + "no ack or read yet", step(pending, "fallback").detail(), "a digest falls due when its window closes");

        assertTrue(EvidenceReader.covers(digest, asked), "a seq between the digest's first and last");
        assertTrue(EvidenceReader.covers(digest, first));
        assertFalse(EvidenceReader.covers(digest, sequenced(32, "c-11", T + 700_000, false, COMMENTS)), "after its last");
        assertFalse(EvidenceReader.covers(digest, sequenced(17, ID, T + 60_000, false, new Digest("comments:p-8", "15m"))),
                "another key");
        assertFalse(EvidenceReader.covers(digest, sequenced(17, ID, T + 60_000, false, null)), "an event without a digest");
        assertTrue(EvidenceReader.covers(pushFallback(List.of()), WITH_FALLBACK), "a record naming the event itself");
    }

    @Test
    void humanDurations() {
        assertEquals("23 ms", TimeText.human(23));
        assertEquals("4.2 s", TimeText.human(4_200));
        assertEquals("12 min", TimeText.human(12 * 60_000 + 5));
        assertEquals("5 h", TimeText.human(5 * 3_600_000L));
        assertEquals("3 d", TimeText.human(3 * 86_400_000L));
    }
}
