package io.notify.push.fcm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.TestClock;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.fake.FcmFake;
import io.notify.push.provider.PushMessage;
import io.notify.push.provider.PushResult;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FcmProviderTest {

    private static final Instant START = Instant.parse("2026-12-05T10:00:00Z");

    private final TestClock clock = new TestClock(START);
    private FcmFake fake;
    private FcmProvider provider;

    @BeforeEach
    void start() {
        fake = FcmFake.start(clock);
        provider = provider(fake.baseUrl(), Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        provider.close();
        fake.close();
    }

    private FcmProvider provider(URI base, Duration timeout) {
        return new FcmProvider(new FcmSettings(fake.serviceAccountJson(), base, timeout), clock);
    }

    private static PushRegistration registration(String token) {
        return PushRegistration.of(null, new PushRegistration.Fcm(token), null, 0);
    }

    private static PushMessage alert(PushMessage.Urgency urgency) {
        return new PushMessage("ev_1", "orders", 42, "{\"order\":7,\"s\":\"é\"}".getBytes(StandardCharsets.UTF_8), "order-7",
                Duration.ofMinutes(10), urgency, new PushMessage.Alert("Order shipped", "Order 7 is on its way"));
    }

    private static PushMessage background() {
        return new PushMessage("ev_2", "orders", 43, "{\"order\":8}".getBytes(StandardCharsets.UTF_8), "order-8",
                Duration.ofSeconds(90), PushMessage.Urgency.NORMAL, null);
    }

    private static PushResult await(CompletableFuture<PushResult> f) throws Exception {
        return f.get(20, TimeUnit.SECONDS);
    }

    private PushResult send(String token, PushMessage message) throws Exception {
        return await(provider.send(registration(token), message));
    }

    private static JsonNode json(String s) throws Exception {
        return NotifyJson.mapper().readTree(s);
    }

    @Test
    void anAlertIsDeliveredWithEveryFieldMapped() throws Exception {
        String token = fake.register();

        PushResult result = send(token, alert(PushMessage.Urgency.HIGH));

        PushResult.Sent sent = assertInstanceOf(PushResult.Sent.class, result);
        assertEquals(200, sent.status());
        assertEquals("", sent.reason());
        assertEquals(fake.messages().get(0).name(), sent.providerId());
        assertTrue(sent.providerId().startsWith("projects/" + fake.projectId() + "/messages/"), sent.providerId());
        long expiration = START.getEpochSecond() + 600;
        assertEquals(json("""
                {"token":"%s",
                 "data":{"event":"{\\"order\\":7,\\"s\\":\\"é\\"}","id":"ev_1","stream":"orders","seq":"42"},
                 "notification":{"title":"Order shipped","body":"Order 7 is on its way"},
                 "android":{"collapse_key":"order-7","ttl":"600s","priority":"HIGH","notification":{"tag":"order-7"}},
                 "apns":{"headers":{"apns-collapse-id":"order-7","apns-expiration":"%d","apns-priority":"10"}},
                 "webpush":{"headers":{"TTL":"600","Urgency":"high","Topic":"order-7"}}}
                """.formatted(token, expiration)), fake.messages().get(0).message());
    }

    @Test
    void aBackgroundPushCarriesNoNotificationAndNormalPriority() throws Exception {
        String token = fake.register();

        assertInstanceOf(PushResult.Sent.class, send(token, background()));

        JsonNode message = fake.messages().get(0).message();
        assertFalse(message.has("notification"));
        assertFalse(message.path("android").has("notification"));
        assertEquals("NORMAL", message.path("android").path("priority").asText());
        assertEquals("90s", message.path("android").path("ttl").asText());
        assertEquals("5", message.path("apns").path("headers").path("apns-priority").asText());
        assertEquals("normal", message.path("webpush").path("headers").path("Urgency").asText());
    }

    @Test
    void aHighUrgencyAlertAgainReplacesTheFirstOnTheDevice() throws Exception {
        String token = fake.register();

        send(token, alert(PushMessage.Urgency.HIGH));
        send(token, alert(PushMessage.Urgency.HIGH));

        assertEquals(2, fake.messages().size());
        assertEquals(1, fake.held(token).size(), "one collapse key: the second replaces the first");
    }

    @Test
    void theAccessTokenIsFetchedOnceForManySends() throws Exception {
        String token = fake.register();
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(PushResult.Sent.class, send(token, background()));
        }
        assertEquals(1, fake.tokensIssued());
    }

    @Test
    void concurrentSendsShareOneTokenFetch() throws Exception {
        String token = fake.register();
        List<CompletableFuture<PushResult>> sends = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            sends.add(provider.send(registration(token), background()));
        }
        for (CompletableFuture<PushResult> f : sends) {
            assertInstanceOf(PushResult.Sent.class, await(f));
        }
        assertEquals(1, fake.tokensIssued());
        assertEquals(16, fake.messages().size());
    }

    @Test
    void theTokenIsRefreshedFiveMinutesBeforeItEnds() throws Exception {
        String token = fake.register();
        send(token, background());

        clock.advance(Duration.ofMinutes(54)); // 3,599 s tokens: 359 s left
        send(token, background());
        assertEquals(1, fake.tokensIssued());

        clock.advance(Duration.ofMinutes(1)); // 299 s left
        assertInstanceOf(PushResult.Sent.class, send(token, background()));
        assertEquals(2, fake.tokensIssued());
    }

    @Test
    void anExpiredTokenIsNeverSent() throws Exception {
        String token = fake.register();
        send(token, background());

        clock.advance(Duration.ofHours(3));
        assertInstanceOf(PushResult.Sent.class, send(token, background()));

        assertEquals(2, fake.tokensIssued());
        assertTrue(fake.answers().stream().allMatch(a -> a.status() == 200), fake.answers().toString());
    }

    @Test
    void aRevokedTokenIsReplacedAndTheSendRepeatedOnce() throws Exception {
        String token = fake.register();
        send(token, background());
        fake.revokeAccessTokens();

        assertInstanceOf(PushResult.Sent.class, send(token, background()));

        assertEquals(2, fake.tokensIssued());
        assertEquals(List.of(200, 401, 200), fake.answers().stream().map(FcmFake.Answer::status).toList());
    }

    @Test
    void a401AfterTheRefreshIsARetry() throws Exception {
        String token = fake.register();
        fake.failNext(401, null, null);
        fake.failNext(401, null, null);

        PushResult.Retry retry = assertInstanceOf(PushResult.Retry.class, send(token, background()));

        assertEquals(401, retry.status());
        assertEquals(2, fake.tokensIssued());
    }

    @Test
    void anUnregisteredTokenIsGone() throws Exception {
        String token = fake.register();
        fake.unregister(token);

        PushResult.Gone gone = assertInstanceOf(PushResult.Gone.class, send(token, background()));

        assertEquals(404, gone.status());
        assertTrue(gone.reason().startsWith("UNREGISTERED"), gone.reason());
    }

    @Test
    void aSenderIdMismatchIsGone() throws Exception {
        fake.failNext(403, "SENDER_ID_MISMATCH", null);
        assertEquals(403, assertInstanceOf(PushResult.Gone.class, send(fake.register(), background())).status());
    }

    @Test
    void anInvalidTokenIsRefused() throws Exception {
        PushResult.Refused refused = assertInstanceOf(PushResult.Refused.class, send("not-a-token-of-this-project", background()));
        assertEquals(400, refused.status());
        assertTrue(refused.reason().contains("not a valid FCM registration token"), refused.reason());
    }

    @Test
    void quotaExceededIsARetryAfterWhatFcmSaid() throws Exception {
        fake.failNext(429, "QUOTA_EXCEEDED", Duration.ofSeconds(30));

        PushResult.Retry retry = assertInstanceOf(PushResult.Retry.class, send(fake.register(), background()));

        assertEquals(429, retry.status());
        assertEquals(Duration.ofSeconds(30), retry.retryAfter());
        assertTrue(retry.reason().startsWith("QUOTA_EXCEEDED"), retry.reason());
    }

    @Test
    void unavailableAndInternalAreRetries() throws Exception {
        String token = fake.register();
        fake.failNext(503, "UNAVAILABLE", Duration.ofSeconds(7));
        fake.failNext(500, "INTERNAL", null);

        PushResult.Retry unavailable = assertInstanceOf(PushResult.Retry.class, send(token, background()));
        PushResult.Retry internal = assertInstanceOf(PushResult.Retry.class, send(token, background()));

        assertEquals(503, unavailable.status());
        assertEquals(Duration.ofSeconds(7), unavailable.retryAfter());
        assertEquals(500, internal.status());
        assertNull(internal.retryAfter());
    }

    @Test
    void aThirdPartyAuthErrorIsRefusedWithoutATokenRefresh() throws Exception {
        fake.failNext(401, "THIRD_PARTY_AUTH_ERROR", null);

        assertEquals(401, assertInstanceOf(PushResult.Refused.class, send(fake.register(), background())).status());
        assertEquals(1, fake.tokensIssued());
    }

    @Test
    void aFailedTokenFetchIsARetryAndTheNextSendFetchesAgain() throws Exception {
        String token = fake.register();
        fake.failNextTokenRequest(503);

        PushResult.Retry retry = assertInstanceOf(PushResult.Retry.class, send(token, background()));
        assertEquals(503, retry.status());
        assertTrue(retry.reason().startsWith("oauth"), retry.reason());

        assertInstanceOf(PushResult.Sent.class, send(token, background()));
    }

    @Test
    void aTimeoutIsARetryWithoutStatus() throws Exception {
        String token = fake.register();
        send(token, background()); // the token is cached: the stall hits the send
        FcmProvider quick = provider(fake.baseUrl(), Duration.ofMillis(300));
        fake.stallNext();

        PushResult.Retry retry = assertInstanceOf(PushResult.Retry.class, await(quick.send(registration(token), background())));

        assertEquals(0, retry.status());
    }

    @Test
    void aNetworkFailureIsARetryWithoutStatus() throws Exception {
        URI closed;
        try (FcmFake gone = FcmFake.start(clock)) {
            closed = gone.baseUrl();
        }
        FcmProvider unreachable = new FcmProvider(new FcmSettings(fake.serviceAccountJson().replace(fake.baseUrl().toString(),
                closed.toString()), closed, Duration.ofSeconds(5)), clock);

        PushResult.Retry retry = assertInstanceOf(PushResult.Retry.class, await(unreachable.send(registration("t"), background())));

        assertEquals(0, retry.status());
    }

    @Test
    void aRegistrationOfAnotherProviderIsRefused() throws Exception {
        PushRegistration apns = PushRegistration.of(null, null, new PushRegistration.Apns("ab".repeat(32), "com.example.app", "sandbox"), 0);
        assertInstanceOf(PushResult.Refused.class, await(provider.send(apns, background())));
        assertEquals("fcm", provider.name());
    }
}
