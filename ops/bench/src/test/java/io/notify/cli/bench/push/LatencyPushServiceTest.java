package io.notify.cli.bench.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.push.PushRegistration;
import io.notify.push.provider.PushMessage;
import io.notify.push.provider.PushResult;
import io.notify.push.sender.PushMessages;
import io.notify.push.webpush.VapidKeys;
import io.notify.push.webpush.WebPushProvider;
import io.notify.push.webpush.WebPushSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The bench's push service: takes what the real Web Push provider sends, answers after the latency, refuses what a push service would. */
class LatencyPushServiceTest {

    private final VapidKeys vapid = VapidKeys.generate();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void takesTheSendersPushAndAnswersAfterTheLatency() throws Exception {
        try (LatencyPushService receiver = LatencyPushService.start(Duration.ofMillis(150));
             WebPushProvider provider = new WebPushProvider(new WebPushSettings(PushRun.SUBJECT, vapid, Duration.ofSeconds(5), true))) {
            List<List<PushRegistration>> users = List.of(List.of(receiver.subscribe(vapid.publicKeyBase64Url())),
                    List.of(receiver.subscribe(vapid.publicKeyBase64Url())));
            PushMessage message = PushMessages.of(FallbackLoad.record("r1-", 1, users, System.currentTimeMillis()), Duration.ofDays(1));
            assertEquals("r1-1", message.webPushTopic(), "the event id is the Topic: how the bench keys an arrival");
            long t0 = System.nanoTime();
            PushResult result = provider.send(users.get(1).get(0), message).get(10, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertInstanceOf(PushResult.Sent.class, result, result.toString());
            assertTrue(ms >= 150, "answered after the latency: " + ms + " ms");
            List<LatencyPushService.Arrival> arrivals = receiver.tally().arrivals();
            assertEquals(1, arrivals.size());
            assertEquals(1, arrivals.get(0).device(), "user 1's device is the second subscribed");
            assertEquals("r1-1", arrivals.get(0).topic());
            assertEquals(1, receiver.accepted(users.get(1).get(0)));
            assertEquals(0, receiver.tally().rejectedCount());
        }
    }

    @Test
    void refusesWhatAPushServiceRefuses() throws Exception {
        try (LatencyPushService receiver = LatencyPushService.start(Duration.ofMillis(20))) {
            PushRegistration device = receiver.subscribe(vapid.publicKeyBase64Url());
            URI endpoint = URI.create(device.webpush().endpoint());
            String auth = ReceiverBaseline.vapidHeader(vapid, receiver.origin(), PushRun.SUBJECT);
            Map<String, String> good = Map.of("TTL", "60", "Content-Encoding", "aes128gcm", "Topic", "ev1", "Authorization", auth);
            byte[] body = ReceiverBaseline.body(300);

            assertEquals(201, post(endpoint, good, body));
            assertEquals(404, post(URI.create(receiver.origin() + "/push/nope"), good, body));
            assertEquals(400, post(endpoint, without(good, "TTL"), body));
            assertEquals(400, post(endpoint, with(good, "Content-Encoding", "aesgcm"), body));
            assertEquals(400, post(endpoint, with(good, "Topic", "x".repeat(33)), body));
            assertEquals(400, post(endpoint, good, new byte[50]), "too short for aes128gcm");
            assertEquals(413, post(endpoint, good, ReceiverBaseline.body(LatencyPushService.MAX_BODY + 1)));
            assertEquals(401, post(endpoint, without(good, "Authorization"), body));
            VapidKeys other = VapidKeys.generate();
            assertEquals(403, post(endpoint, with(good, "Authorization", ReceiverBaseline.vapidHeader(other, receiver.origin(),
                    PushRun.SUBJECT)), body), "signed by another key than the subscription's");
            String forged = auth.replace("k=" + vapid.publicKeyBase64Url(), "k=" + other.publicKeyBase64Url());
            assertEquals(403, post(endpoint, with(good, "Authorization", forged), body));
            String otherOrigin = ReceiverBaseline.vapidHeader(vapid, "http://127.0.0.1:1", PushRun.SUBJECT);
            assertEquals(403, post(endpoint, with(good, "Authorization", otherOrigin), body), "aud is another origin");

            assertEquals(1, receiver.tally().accepted());
            assertEquals(10, receiver.tally().rejectedCount(), receiver.tally().rejected().toString());
            assertTrue(receiver.tally().rejected().keySet().stream().anyMatch(k -> k.startsWith("413 ")));
            LatencyPushService.Tally fresh = receiver.startTally();
            assertEquals(0, fresh.accepted());
            assertEquals(201, post(endpoint, good, body));
            assertEquals(1, fresh.arrivals().size());
            assertEquals(2, receiver.accepted(device), "per subscription, every tally");
        }
    }

    @Test
    void theBaselineClientDrivesTheReceiverAtItsLatency() throws Exception {
        try (LatencyPushService receiver = LatencyPushService.start(Duration.ofMillis(50))) {
            List<PushRegistration> devices = List.of(receiver.subscribe(vapid.publicKeyBase64Url()),
                    receiver.subscribe(vapid.publicKeyBase64Url()));
            ReceiverBaseline.Result r = ReceiverBaseline.run(receiver, devices, vapid, PushRun.SUBJECT, 300, 8, Duration.ofMillis(250),
                    Duration.ofMillis(1250));
            assertEquals(0, r.failed());
            assertEquals(0, receiver.tally().rejectedCount(), receiver.tally().rejected().toString());
            // 8 in flight at 50 ms: at most 160 pushes/s
            assertTrue(r.pushesPerSecond() > 40 && r.pushesPerSecond() <= 170, r.toString());
            assertTrue(r.meanAnswerMs() >= 50 && r.meanAnswerMs() < 200, r.toString());
        }
    }

    private int post(URI to, Map<String, String> headers, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(to).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(b::header);
        return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static Map<String, String> without(Map<String, String> m, String key) {
        Map<String, String> out = new java.util.HashMap<>(m);
        out.remove(key);
        return out;
    }

    private static Map<String, String> with(Map<String, String> m, String key, String value) {
        Map<String, String> out = new java.util.HashMap<>(m);
        out.put(key, value);
        return out;
    }
}
