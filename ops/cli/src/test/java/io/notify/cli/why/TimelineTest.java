package io.notify.cli.why;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.replay.Routing;
import io.notify.cli.replay.TimeText;
import io.notify.cli.why.Evidence.Copy;
import io.notify.cli.why.Evidence.Rejection;
import io.notify.cli.why.Evidence.Sequenced;
import io.notify.protocol.event.Channel;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.DlqFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timeline from evidence given as lists of records: no Kafka. */
class TimelineTest {

    private static final StreamId U42 = StreamId.forUser("42");
    private static final long T = Instant.parse("2026-12-04T09:00:00Z").toEpochMilli();
    private static final Instant FROM = Instant.ofEpochMilli(T).minusSeconds(3600);
    private static final Instant TO = Instant.ofEpochMilli(T).plusSeconds(3600);
    private static final String ID = "ord-1:shipped";

    private static SequencedEvent event(Fallback fallback) {
        return new SequencedEvent(U42, "ep1", 17, ID, "order.shipped", null, null, "orders", T, T + 23, fallback, null);
    }

    private static final SequencedEvent WITH_FALLBACK = event(new Fallback("2m", "push"));
    private static final long DUE = T + 23 + 120_000;

    private static Copy copy(int partition, long offset, long ts) {
        return new Copy(partition, offset, ts, "u:42", null, List.of("42", "43"));
    }

    private static Looked<Sequenced> log(SequencedEvent... events) {
        List<Sequenced> s = new ArrayList<>();
        for (int i = 0; i < events.length; i++) {
            s.add(new Sequenced(5, 100 + i, T, events[i]));
        }
        return Looked.read("notify.stream-log", FROM, TO, s);
    }

    private static Evidence evidence(Instant now, List<Copy> copies, Looked<Rejection> dlq, Looked<Sequenced> log,
                                     List<Routing> routes, List<Receipt> receipts, List<FallbackRecord> fallbacks) {
        return evidence(now, copies, dlq, log, routes, receipts, fallbacks, Looked.skipped("notify.push-outcomes"));
    }

    private static Evidence evidence(Instant now, List<Copy> copies, Looked<Rejection> dlq, Looked<Sequenced> log,
                                     List<Routing> routes, List<Receipt> receipts, List<FallbackRecord> fallbacks,
                                     Looked<PushOutcome> push) {
        return new Evidence(new Question("42", ID, FROM, TO), now, Looked.read("notify.events", FROM, TO, copies), dlq, log,
                Looked.read("notify.node.<node> or notify.undelivered", FROM, TO, routes),
                Looked.read("notify.receipts", FROM, TO, receipts), Looked.read("notify.fallback", FROM, TO, fallbacks), push);
    }

    private static Step step(Timeline t, String name) {
        return t.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow(() -> new AssertionError(
                "no step " + name + " in " + t.steps()));
    }

    private static List<Step> steps(Timeline t, String name) {
        return t.steps().stream().filter(s -> s.step().equals(name)).toList();
    }

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

    private static final PushRegistration FCM = new PushRegistration("pr_fcmFCMfcmFCMfcmFCMfcmF", null,
            new PushRegistration.Fcm("tok-1"), null, T - 86_400_000L);
    private static final PushRegistration APNS = new PushRegistration("pr_apnsAPNSapnsAPNSapnsAP", null, null,
            new PushRegistration.Apns("ab".repeat(32), "com.example.app", "production"), T - 3_600_000L);

    private static FallbackRecord pushFallback(List<PushRegistration> push) {
        return new FallbackRecord("u:42", "42", "push", FallbackRecord.Reason.NO_DEVICE, WITH_FALLBACK, List.of(), DUE, DUE + 357,
                push);
    }

    private static PushOutcome outcome(PushRegistration r, PushOutcome.Outcome o, int attempt, int status, String reason,
                                       String providerId, long at) {
        return new PushOutcome(U42, ID, 17, r == null ? null : r.id(), r == null ? null : r.provider(), o, attempt, status, reason,
                providerId, at);
    }

    private static Timeline pushed(List<PushRegistration> registrations, PushOutcome... outcomes) {
        return Timeline.of(evidence(Instant.ofEpochMilli(DUE + 600_000), List.of(copy(0, 0, T)), Looked.skipped("dlq"),
                log(WITH_FALLBACK), List.of(), List.of(), List.of(pushFallback(registrations)),
                Looked.read("notify.push-outcomes", FROM, TO, List.of(outcomes))));
    }

    @Test
    void aPushFallbackShowsEveryAttemptOfEveryRegistrationInTimeOrder() {
        Timeline t = pushed(List.of(FCM, APNS),
                outcome(APNS, PushOutcome.Outcome.GIVEN_UP, 3, 503, "ServiceUnavailable", null, DUE + 9_000),
                outcome(FCM, PushOutcome.Outcome.RETRY, 1, 503, "UNAVAILABLE", null, DUE + 400),
                outcome(APNS, PushOutcome.Outcome.RETRY, 1, 0, "connection reset", null, DUE + 410),
                outcome(FCM, PushOutcome.Outcome.SENT, 2, 200, null, "projects/p/messages/m-1", DUE + 1_500));

        assertEquals("written to notify.fallback: channel push, reason no_device, due 2026-12-04T09:02:00.023Z, lateness 357 ms, "
                + "push registrations pr_fcmFCMfcmFCMfcmFCMfcmF:fcm;pr_apnsAPNSapnsAPNSapnsAP:apns", step(t, "fallback").detail());
        assertEquals(List.of("pr_fcmFCMfcmFCMfcmFCMfcmF", "pr_apnsAPNSapnsAPNSapnsAP"), step(t, "fallback").facts().get("registrations"));
        assertEquals("fallback", t.steps().get(t.steps().size() - 5).step(), "the push rows follow the fallback");
        assertEquals(List.of(
                "failed, tried again: fcm registration pr_fcmFCMfcmFCMfcmFCMfcmF (attempt 1, HTTP 503: UNAVAILABLE)",
                "failed, tried again: apns registration pr_apnsAPNSapnsAPNSapnsAP (attempt 1: connection reset)",
                "sent: fcm registration pr_fcmFCMfcmFCMfcmFCMfcmF (attempt 2, HTTP 200), message id projects/p/messages/m-1",
                "given up: apns registration pr_apnsAPNSapnsAPNSapnsAP (attempt 3, HTTP 503: ServiceUnavailable); still failing "
                        + "at the last attempt or past the retry deadline: in notify.push.dlq"),
                steps(t, "push").stream().map(Step::detail).toList());
        assertEquals(List.of(DUE + 400, DUE + 410, DUE + 1_500, DUE + 9_000), steps(t, "push").stream().map(Step::time).toList());
        Step sent = steps(t, "push").get(2);
        assertEquals(List.of("outcome", "provider", "registration", "attempt", "status", "providerId"), List.copyOf(sent.facts().keySet()));
        assertEquals("sent", sent.facts().get("outcome"));
        assertEquals(200, sent.facts().get("status"));
        assertFalse(steps(t, "push").get(1).facts().containsKey("status"), "no HTTP status came: none is shown");
    }

    @Test
    void goneRefusedAndRateLimitedSayWhatFollowedAndNoRegistrationSaysTheUserHadNone() {
        Timeline t = pushed(List.of(FCM),
                outcome(FCM, PushOutcome.Outcome.GONE, 1, 404, "UNREGISTERED", null, DUE + 1),
                outcome(FCM, PushOutcome.Outcome.REFUSED, 1, 400, "INVALID_ARGUMENT", null, DUE + 2),
                outcome(FCM, PushOutcome.Outcome.RATE_LIMITED, 1, 0, null, null, DUE + 3),
                outcome(FCM, PushOutcome.Outcome.REFUSED, 1, 0, "this sender has no fcm credentials", null, DUE + 4),
                outcome(FCM, PushOutcome.Outcome.GIVEN_UP, 0, 0, "older than its ttl (PT1H) when read", null, DUE + 5));
        assertEquals(List.of(
                "gone: fcm registration pr_fcmFCMfcmFCMfcmFCMfcmF (attempt 1, HTTP 404: UNREGISTERED); the provider no longer knows "
                        + "the registration, so it was removed (notify.push-changes)",
                "refused: fcm registration pr_fcmFCMfcmFCMfcmFCMfcmF (attempt 1, HTTP 400: INVALID_ARGUMENT); not to be tried "
                        + "again: in notify.push.dlq",
                "rate limited: fcm registration pr_fcmFCMfcmFCMfcmFCMfcmF (attempt 1); the device's own rate limit held it back: "
                        + "in notify.push.dlq",
                "refused: fcm registration pr_fcmFCMfcmFCMfcmFCMfcmF (attempt 1: this sender has no fcm credentials); not to be "
                        + "tried again: in notify.push.dlq",
                "given up: fcm registration pr_fcmFCMfcmFCMfcmFCMfcmF (not attempted: older than its ttl (PT1H) when read); "
                        + "in notify.push.dlq"),
                steps(t, "push").stream().map(Step::detail).toList());

        Timeline none = pushed(List.of(), outcome(null, PushOutcome.Outcome.NO_REGISTRATION, 0, 0, null, null, DUE + 5));
        assertEquals("no registration: user 42 had no push device registered when the fallback was written",
                step(none, "push").detail());
        assertEquals("no_registration", step(none, "push").facts().get("outcome"));
    }

    @Test
    void aRegistrationWithoutOutcomeAndNoOutcomeAtAllSayWhereTheyLooked() {
        Timeline half = pushed(List.of(FCM, APNS), outcome(FCM, PushOutcome.Outcome.SENT, 1, 200, null, null, DUE + 400));
        assertEquals(2, steps(half, "push").size());
        assertTrue(steps(half, "push").get(1).detail().startsWith("no outcome for apns registration pr_apnsAPNSapnsAPNSapnsAP in "
                + "notify.push-outcomes between 2026-12-04T08:00:00.000Z and "), steps(half, "push").get(1).detail());
        assertTrue(steps(half, "push").get(1).detail().endsWith(": not sent yet (the push sender lags or retries)"));
        assertEquals(null, steps(half, "push").get(1).time());

        Timeline nothing = pushed(List.of(FCM));
        assertEquals("not found in notify.push-outcomes between 2026-12-04T08:00:00.000Z and 2026-12-04T10:00:00.000Z: the push "
                + "sender has not taken the fallback record yet (lag), or does not run", step(nothing, "push").detail());
        assertEquals(1, steps(nothing, "push").size(), "no row per registration on top");

        Timeline missing = Timeline.of(evidence(Instant.ofEpochMilli(DUE + 600_000), List.of(copy(0, 0, T)), Looked.skipped("dlq"),
                log(WITH_FALLBACK), List.of(), List.of(), List.of(pushFallback(List.of(FCM))), Looked.missing("notify.push-outcomes")));
        assertEquals("topic notify.push-outcomes does not exist", step(missing, "push").detail());
    }

    @Test
    void noPushRowsUnlessThePushSenderWasAskedToSend() {
        Timeline cancelled = Timeline.of(evidence(Instant.ofEpochMilli(DUE + 60_000), List.of(copy(0, 0, T)), Looked.skipped("dlq"),
                log(WITH_FALLBACK), List.of(), List.of(Receipt.ack(U42, "ep1", 17, "phone-1", T + 10)), List.of(),
                Looked.skipped("notify.push-outcomes")));
        assertTrue(step(cancelled, "fallback").detail().startsWith("cancelled: "));
        assertEquals(List.of(), steps(cancelled, "push"));
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

    private static SequencedEvent event(long seq, String id, long sequencedAt, boolean critical, Digest digest, Channel... muted) {
        return new SequencedEvent(U42, "ep1", seq, id, "comment.added", null, null, "orders", sequencedAt - 23, sequencedAt,
                new Fallback("2m", "push"), null, "social", critical, digest, List.of(muted));
    }

    private static Timeline withFallbacks(SequencedEvent asked, long now, FallbackRecord... records) {
        return Timeline.of(evidence(Instant.ofEpochMilli(now), List.of(copy(0, 0, T)), Looked.skipped("dlq"), log(asked), List.of(),
                List.of(), List.of(records)));
    }

    @Test
    void theSequencedRowSaysWhichChannelsTheUsersPreferencesMutedOrThatTheEventIsCritical() {
        SequencedEvent muted = event(17, ID, T + 23, false, null, Channel.LIVE, Channel.PUSH);
        Timeline t = withFallbacks(muted, DUE + 600_000);
        assertEquals("u:42 epoch ep1 seq 17 (notify.stream-log 5:100), fan-out latency 23 ms; muted for live and push by the "
                + "user's preferences (no device is sent it; no fallback)", step(t, "sequenced").detail());
        assertEquals(List.of("live", "push"), step(t, "sequenced").facts().get("muted"));
        assertFalse(step(t, "sequenced").facts().containsKey("critical"));
        assertEquals("muted by the user's preferences: none is written (push after 2m)", step(t, "fallback").detail(),
                "not 'due but not found': fan-out never schedules it");
        assertEquals("muted", step(t, "fallback").facts().get("outcome"));

        Timeline live = withFallbacks(event(17, ID, T + 23, false, null, Channel.LIVE), DUE + 600_000);
        assertTrue(step(live, "sequenced").detail().endsWith("; muted for live by the user's preferences (no device is sent it)"),
                step(live, "sequenced").detail());
        assertTrue(step(live, "fallback").detail().contains("but not found in notify.fallback"), "its push is not muted");

        Timeline critical = withFallbacks(event(17, ID, T + 23, true, null), DUE + 600_000);
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
        SequencedEvent first = event(15, "c-1", T + 23, false, COMMENTS);
        SequencedEvent asked = event(17, ID, T + 60_000, false, COMMENTS);
        SequencedEvent last = event(31, "c-10", T + 600_000, false, COMMENTS);
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
        assertFalse(EvidenceReader.covers(digest, event(32, "c-11", T + 700_000, false, COMMENTS)), "after its last");
        assertFalse(EvidenceReader.covers(digest, event(17, ID, T + 60_000, false, new Digest("comments:p-8", "15m"))),
                "another key");
        assertFalse(EvidenceReader.covers(digest, event(17, ID, T + 60_000, false, null)), "an event without a digest");
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
