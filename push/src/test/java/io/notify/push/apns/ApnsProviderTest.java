package io.notify.push.apns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.TestClock;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.fake.ApnsFake;
import io.notify.push.provider.PushMessage;
import io.notify.push.provider.PushResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ApnsProviderTest {

    private static final Instant START = Instant.parse("2026-12-05T10:00:00Z");
    private static final String TOPIC = "com.example.shop";

    private final TestClock clock = new TestClock(START);
    private ApnsFake fake;
    private ApnsProvider provider;

    @BeforeEach
    void start() {
        fake = ApnsFake.start(clock);
        provider = provider(fake.baseUrl(), fake.baseUrl(), fake.signingKeyPem());
    }

    @AfterEach
    void stop() {
        provider.close();
        fake.close();
    }

    private ApnsProvider provider(URI production, URI sandbox, String key) {
        return new ApnsProvider(new ApnsSettings(fake.teamId(), fake.keyId(), key, production, sandbox, Duration.ofSeconds(5),
                fake.clientSslContext()), clock);
    }

    private static PushRegistration registration(String token, String environment) {
        return PushRegistration.of(null, null, new PushRegistration.Apns(token, TOPIC, environment), 0);
    }

    private static PushMessage alert(PushMessage.Urgency urgency, Duration ttl) {
        return new PushMessage("ev_1", "orders", 42, "{\"order\":7,\"items\":[1,2]}".getBytes(StandardCharsets.UTF_8), "order-7",
                ttl, urgency, new PushMessage.Alert("Order shipped", "Order 7 is on its way"));
    }

    private static PushMessage background(PushMessage.Urgency urgency) {
        return new PushMessage("ev_2", "orders", 43, "{\"order\":8}".getBytes(StandardCharsets.UTF_8), "order-8",
                Duration.ofSeconds(90), urgency, null);
    }

    private static PushResult await(CompletableFuture<PushResult> f) throws Exception {
        return f.get(20, TimeUnit.SECONDS);
    }

    private PushResult send(PushRegistration to, PushMessage message) throws Exception {
        return await(provider.send(to, message));
    }

    private PushResult send(PushMessage message) throws Exception {
        return send(registration(fake.register(TOPIC), "production"), message);
    }

    @Test
    void anAlertIsDeliveredOverHttp2WithEveryFieldMapped() throws Exception {
        PushRegistration to = registration(fake.register(TOPIC), "production");

        PushResult.Sent sent = assertInstanceOf(PushResult.Sent.class, send(to, alert(PushMessage.Urgency.HIGH, Duration.ofMinutes(10))));

        ApnsFake.Delivery d = fake.deliveries().get(0);
        String apnsId = UUID.nameUUIDFromBytes(("ev_1\n" + to.id()).getBytes(StandardCharsets.UTF_8)).toString();
        assertEquals(new PushResult.Sent(200, "", apnsId), sent);
        assertEquals("HTTP/2.0", d.protocol());
        assertEquals(apnsId, d.apnsId());
        assertEquals(TOPIC, d.topic());
        assertEquals("alert", d.pushType());
        assertEquals("10", d.priority());
        assertEquals(Long.toString(START.getEpochSecond() + 600), d.expiration());
        assertEquals("order-7", d.collapseId());
        assertEquals(NotifyJson.mapper().readTree("""
                {"aps":{"alert":{"title":"Order shipped","body":"Order 7 is on its way"},"thread-id":"orders"},
                 "event":{"order":7,"items":[1,2]},"id":"ev_1"}"""), d.payload());
        assertEquals(0, fake.http1Refused());
    }

    @Test
    void aNormalAlertHasPriorityFiveAndATtlOfZeroExpiresAtOnce() throws Exception {
        assertInstanceOf(PushResult.Sent.class, send(alert(PushMessage.Urgency.NORMAL, Duration.ZERO)));

        ApnsFake.Delivery d = fake.deliveries().get(0);
        assertEquals("5", d.priority());
        assertEquals("0", d.expiration());
    }

    @Test
    void aBackgroundPushIsContentAvailableWithPriorityFiveEvenWhenUrgent() throws Exception {
        assertInstanceOf(PushResult.Sent.class, send(background(PushMessage.Urgency.HIGH)));

        ApnsFake.Delivery d = fake.deliveries().get(0);
        assertEquals("background", d.pushType());
        assertEquals("5", d.priority());
        JsonNode expected = NotifyJson.mapper().readTree("{\"aps\":{\"content-available\":1},\"event\":{\"order\":8},\"id\":\"ev_2\"}");
        assertEquals(expected, d.payload());
    }

    @Test
    void aRepeatedSendCarriesTheSameApnsIdAndCollapses() throws Exception {
        PushRegistration to = registration(fake.register(TOPIC), "production");
        PushMessage message = alert(PushMessage.Urgency.HIGH, Duration.ofMinutes(10));

        PushResult.Sent first = assertInstanceOf(PushResult.Sent.class, send(to, message));
        PushResult.Sent second = assertInstanceOf(PushResult.Sent.class, send(to, message));

        assertEquals(first.providerId(), second.providerId());
        assertEquals(fake.deliveries().get(0).apnsId(), fake.deliveries().get(1).apnsId());
        assertEquals(1, fake.held(to.apns().token()).size());
        PushRegistration other = registration(fake.register(TOPIC), "production");
        assertNotEquals(first.providerId(), assertInstanceOf(PushResult.Sent.class, send(other, message)).providerId());
    }

    @Test
    void theProviderTokenIsReusedAndSignedAgainAfterFiftyMinutes() throws Exception {
        send(background(PushMessage.Urgency.NORMAL));
        clock.advance(Duration.ofMinutes(49));
        send(background(PushMessage.Urgency.NORMAL));
        assertEquals(1, fake.providerTokensSeen());

        clock.advance(Duration.ofMinutes(2));
        assertInstanceOf(PushResult.Sent.class, send(background(PushMessage.Urgency.NORMAL)));
        assertEquals(2, fake.providerTokensSeen());
    }

    @Test
    void anExpiredProviderTokenIsSignedAgainAndThePushDelivered() throws Exception {
        send(background(PushMessage.Urgency.NORMAL));
        fake.expireProviderTokens();

        assertInstanceOf(PushResult.Sent.class, send(background(PushMessage.Urgency.NORMAL)));

        assertEquals(2, fake.providerTokensSeen());
        assertEquals(List.of(200, 403, 200), fake.answers().stream().map(ApnsFake.Answer::status).toList());
        assertEquals("ExpiredProviderToken", fake.answers().get(1).reason());
    }

    @Test
    void aProviderTokenExpiredAgainAfterSigningIsARetry() throws Exception {
        fake.expireAllProviderTokens(true);

        PushResult.Retry retry = assertInstanceOf(PushResult.Retry.class, send(background(PushMessage.Urgency.NORMAL)));

        assertEquals(new PushResult.Retry(403, "ExpiredProviderToken", null), retry);
        assertEquals(2, fake.answers().size());
    }

    @Test
    void aKeyOfAnotherTeamIsRefused() throws Exception {
        String otherKey;
        try (ApnsFake other = ApnsFake.start(clock)) {
            otherKey = other.signingKeyPem();
        }
        ApnsProvider wrong = provider(fake.baseUrl(), fake.baseUrl(), otherKey);

        PushResult result = await(wrong.send(registration(fake.register(TOPIC), "sandbox"), background(PushMessage.Urgency.NORMAL)));

        assertEquals(new PushResult.Refused(403, "InvalidProviderToken"), result);
    }

    @Test
    void anUnregisteredDeviceIsGone() throws Exception {
        String token = fake.register(TOPIC);
        fake.unregister(token);

        assertEquals(new PushResult.Gone(410, "Unregistered"), send(registration(token, "production"), background(PushMessage.Urgency.NORMAL)));
    }

    @Test
    void anUnknownDeviceOrATokenOfAnotherAppIsGone() throws Exception {
        PushMessage message = background(PushMessage.Urgency.NORMAL);
        assertEquals(new PushResult.Gone(400, "BadDeviceToken"), send(registration("ab".repeat(32), "production"), message));

        PushRegistration otherApp = PushRegistration.of(null, null,
                new PushRegistration.Apns(fake.register("com.example.other"), TOPIC, "production"), 0);
        assertEquals(new PushResult.Gone(400, "DeviceTokenNotForTopic"), send(otherApp, message));
    }

    @Test
    void tooManyRequestsIsARetryAfterWhatApnsSaid() throws Exception {
        fake.failNext(429, "TooManyRequests", Duration.ofSeconds(30));

        assertEquals(new PushResult.Retry(429, "TooManyRequests", Duration.ofSeconds(30)), send(background(PushMessage.Urgency.NORMAL)));
    }

    @Test
    void serviceUnavailableIsARetry() throws Exception {
        fake.failNext(503, "ServiceUnavailable", null);

        PushResult.Retry retry = assertInstanceOf(PushResult.Retry.class, send(background(PushMessage.Urgency.NORMAL)));

        assertEquals(503, retry.status());
        assertNull(retry.retryAfter());
    }

    @Test
    void aPayloadTooLargeIsRefused() throws Exception {
        PushMessage big = new PushMessage("ev_3", "orders", 44, "{\"order\":9}".getBytes(StandardCharsets.UTF_8), "order-9",
                Duration.ofMinutes(1), PushMessage.Urgency.HIGH, new PushMessage.Alert("Big", "x".repeat(4_100)));

        assertEquals(new PushResult.Refused(413, "PayloadTooLarge"), send(big));
    }

    @Test
    void theRegistrationsEnvironmentPicksTheServer() throws Exception {
        URI closed;
        try (ApnsFake gone = ApnsFake.start(clock)) {
            closed = gone.baseUrl();
        }
        ApnsProvider sandboxOnly = provider(closed, fake.baseUrl(), fake.signingKeyPem());
        String token = fake.register(TOPIC);

        assertInstanceOf(PushResult.Sent.class, await(sandboxOnly.send(registration(token, "sandbox"), background(PushMessage.Urgency.NORMAL))));
        PushResult.Retry retry = assertInstanceOf(PushResult.Retry.class,
                await(sandboxOnly.send(registration(token, "production"), background(PushMessage.Urgency.NORMAL))));
        assertEquals(0, retry.status(), "a network failure has no status");
    }

    @Test
    void aPayloadThatIsNotJsonIsRefusedWithoutARequest() throws Exception {
        PushMessage broken = new PushMessage("ev_4", "orders", 45, "{not json".getBytes(StandardCharsets.UTF_8), "order-4",
                Duration.ofMinutes(1), PushMessage.Urgency.NORMAL, null);

        assertInstanceOf(PushResult.Refused.class, send(broken));
        assertTrue(fake.answers().isEmpty());
    }

    @Test
    void theFakeRefusesHttp1() throws Exception {
        HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(fake.clientSslContext()).build();
        HttpRequest request = HttpRequest.newBuilder(fake.baseUrl().resolve("/3/device/" + fake.register(TOPIC)))
                .POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{\"content-available\":1}}"))
                .timeout(Duration.ofSeconds(5))
                .build();

        HttpResponse<String> response = http1.send(request, HttpResponse.BodyHandlers.ofString());

        assertEquals(HttpClient.Version.HTTP_1_1, response.version());
        assertEquals(505, response.statusCode());
        assertEquals(1, fake.http1Refused());
    }
}
