package io.notify.cli.why;

import static io.notify.cli.why.TimelineFixtures.DUE;
import static io.notify.cli.why.TimelineFixtures.FROM;
import static io.notify.cli.why.TimelineFixtures.ID;
import static io.notify.cli.why.TimelineFixtures.T;
import static io.notify.cli.why.TimelineFixtures.TO;
import static io.notify.cli.why.TimelineFixtures.U42;
import static io.notify.cli.why.TimelineFixtures.WITH_FALLBACK;
import static io.notify.cli.why.TimelineFixtures.copy;
import static io.notify.cli.why.TimelineFixtures.evidence;
import static io.notify.cli.why.TimelineFixtures.log;
import static io.notify.cli.why.TimelineFixtures.pushFallback;
import static io.notify.cli.why.TimelineFixtures.step;
import static io.notify.cli.why.TimelineFixtures.steps;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The push rows of the timeline: every attempt of every registration, and what followed. No Kafka. */
class TimelinePushTest {

    private static final PushRegistration FCM = new PushRegistration("pr_fcmFCMfcmFCMfcmFCMfcmF", null,
            new PushRegistration.Fcm("tok-1"), null, T - 86_400_000L);
    private static final PushRegistration APNS = new PushRegistration("pr_apnsAPNSapnsAPNSapnsAP", null, null,
            new PushRegistration.Apns("ab".repeat(32), "com.example.app", "production"), T - 3_600_000L);

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
}
