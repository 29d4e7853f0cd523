package io.notify.push.webpush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.fake.WebPushFake;
import io.notify.push.fake.WebPushReceived;
import io.notify.push.provider.PushMessage;
import io.notify.push.provider.PushResult;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The provider against a local push service that checks headers, VAPID and encryption as a real one does. */
class WebPushProviderTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String SUBJECT = "mailto:ops@notify.example";

    private final VapidKeys keys = VapidKeys.generate();
    private final WebPushFake fake = WebPushFake.start();
    private final WebPushProvider provider = new WebPushProvider(new WebPushSettings(SUBJECT, keys, Duration.ofSeconds(5), true));

    @AfterEach
    void stop() {
        provider.close();
        fake.close();
    }

    @Test
    void deliversAPayloadTheBrowserDecrypts() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe(keys.publicKeyBase64Url());
        String payload = "{\"eventId\":\"ev_1\",\"stream\":\"room:1\",\"seq\":7,\"text\":\"héllo\"}";

        PushResult result = send(sub, message(payload, "room-1"));

        PushResult.Sent sent = assertInstanceOf(PushResult.Sent.class, result);
        WebPushReceived got = fake.awaitMessages(WebPushFake.idOf(sub), 1, WAIT).get(0);
        assertEquals(payload, got.text());
        assertEquals(300, got.ttlSeconds());
        assertEquals("high", got.urgency());
        assertEquals("room-1", got.topic());
        assertEquals(new PushResult.Sent(201, "", fake.origin() + "/message/" + got.messageId()), sent);
    }

    @Test
    void hashesACollapseIdOver32CharactersIntoTheTopic() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        String collapseId = "ev_" + "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".substring(0, 61);
        String expected = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(MessageDigest.getInstance("SHA-256").digest(collapseId.getBytes(StandardCharsets.US_ASCII)))
                .substring(0, 32);

        send(sub, message("{\"n\":1}", collapseId));
        send(sub, message("{\"n\":2}", collapseId));

        String id = WebPushFake.idOf(sub);
        List<WebPushReceived> log = fake.awaitMessages(id, 2, WAIT);
        assertEquals(expected, log.get(0).topic());
        assertEquals(expected, log.get(1).topic());
        assertEquals(List.of("{\"n\":2}"), fake.held(id).stream().map(WebPushReceived::text).toList(), "the second replaced the first");
    }

    @Test
    void anUnsubscribedEndpointIsGone() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        PushRegistration.WebPush unknown = new PushRegistration.WebPush(fake.origin() + "/push/never-made", null, sub.keys());
        fake.unsubscribe(WebPushFake.idOf(sub));

        assertEquals(new PushResult.Gone(410, "unsubscribed"), send(sub, message("{}", "c1")));
        assertEquals(new PushResult.Gone(404, "no such subscription"), send(unknown, message("{}", "c1")));
    }

    @Test
    void aThrottledPushIsRetriedAfterTheServicesDelay() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        fake.failNext(WebPushFake.idOf(sub), 1, 429, "7");
        fake.failNext(WebPushFake.ANY, 1, 500, null);

        PushResult throttled = send(sub, message("{}", "c1"));
        PushResult failed = send(sub, message("{}", "c1"));
        PushResult sent = send(sub, message("{}", "c1"));

        assertEquals(new PushResult.Retry(429, "scripted failure 429", Duration.ofSeconds(7)), throttled);
        assertEquals(new PushResult.Retry(500, "scripted failure 500", null), failed);
        assertInstanceOf(PushResult.Sent.class, sent);
    }

    @Test
    void aBodyOverTheServicesLimitIsRefused() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        fake.maxBodyBytes(1024);

        PushResult result = send(sub, message("{\"x\":\"" + "a".repeat(2000) + "\"}", "c1"));

        assertEquals(new PushResult.Refused(413, "payload too large"), result);
        assertTrue(fake.log().isEmpty());
    }

    @Test
    void aSubscriptionMadeForAnotherVapidKeyIsRefused() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe(VapidKeys.generate().publicKeyBase64Url());

        PushResult result = send(sub, message("{}", "c1"));

        assertEquals(new PushResult.Refused(403, "k is not the applicationServerKey of this subscription"), result);
    }

    @Test
    void anHttpEndpointIsRefusedUnlessAllowed() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        try (WebPushProvider secure = new WebPushProvider(new WebPushSettings(SUBJECT, keys))) {

            PushResult result = secure.send(WebPushFake.registration(sub), message("{}", "c1")).get(WAIT.toSeconds(), TimeUnit.SECONDS);

            assertEquals(new PushResult.Refused(0, "http endpoint not allowed"), result);
            assertTrue(fake.answers().isEmpty(), "nothing was sent");
        }
    }

    @Test
    void anHttpsEndpointOnAPrivateAddressIsRefusedBeforeAnythingIsSent() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        String https = sub.endpoint().replace("http://", "https://"); // the name a user gave resolves to loopback
        PushRegistration.WebPush inside = new PushRegistration.WebPush(https, null, sub.keys());
        try (WebPushProvider secure = new WebPushProvider(new WebPushSettings(SUBJECT, keys))) {

            PushResult result = secure.send(WebPushFake.registration(inside), message("{}", "c1")).get(WAIT.toSeconds(), TimeUnit.SECONDS);

            assertTrue(result instanceof PushResult.Refused r && r.reason().contains("non-public address 127.0.0.1"), result.toString());
            assertTrue(fake.answers().isEmpty(), "nothing was sent");
        }
    }

    @Test
    void anUnreachableServiceIsRetried() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        fake.close();

        PushResult result = send(sub, message("{}", "c1"));

        PushResult.Retry retry = assertInstanceOf(PushResult.Retry.class, result);
        assertEquals(0, retry.status());
        assertNull(retry.retryAfter());
    }

    @Test
    void aServiceThatNeverAnswersIsRetriedAfterTheTimeout() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        HttpServer silent = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        silent.createContext("/", exchange -> {
            try {
                release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        silent.start();
        PushRegistration.WebPush sub = new PushRegistration.WebPush(
                "http://127.0.0.1:" + silent.getAddress().getPort() + "/push/x", null, fake.subscribe().keys());
        try (WebPushProvider impatient = new WebPushProvider(new WebPushSettings(SUBJECT, keys, Duration.ofMillis(300), true))) {

            PushResult result = impatient.send(WebPushFake.registration(sub), message("{}", "c1")).get(WAIT.toSeconds(), TimeUnit.SECONDS);

            assertEquals(new PushResult.Retry(0, "timeout after 300 ms", null), result);
        } finally {
            release.countDown();
            silent.stop(0);
        }
    }

    @Test
    void refusesWhatIsNotAWebPushRegistrationAndRetriesOnceClosed() throws Exception {
        PushRegistration fcm = PushRegistration.of(null, new PushRegistration.Fcm("token-1"), null, 0);
        PushRegistration sub = WebPushFake.registration(fake.subscribe());

        assertEquals(new PushResult.Refused(0, "not a webpush registration: fcm"), provider.send(fcm, message("{}", "c1")).get());
        provider.close();
        assertEquals(new PushResult.Retry(0, "webpush provider closed", null), provider.send(sub, message("{}", "c1")).get());
        assertEquals("webpush", provider.name());
    }

    private PushResult send(PushRegistration.WebPush sub, PushMessage message) throws Exception {
        return provider.send(WebPushFake.registration(sub), message).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static PushMessage message(String payload, String collapseId) {
        return new PushMessage("ev_1", "room:1", 7, payload.getBytes(StandardCharsets.UTF_8), collapseId, Duration.ofMinutes(5),
                PushMessage.Urgency.HIGH, null);
    }
}
