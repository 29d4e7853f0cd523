package io.notify.push.sender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.common.config.Settings;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.PushConfig;
import io.notify.push.PushService;
import io.notify.push.PushTopics;
import io.notify.push.fake.ApnsFake;
import io.notify.push.fake.FcmFake;
import io.notify.push.fake.WebPushFake;
import io.notify.push.webpush.VapidKeys;
import io.notify.schemas.serde.NotifySerdes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sender, configured only by its settings (as PushMain is), against local FCM and APNs services
 * that check what the real ones check (an OAuth-signed FCM v1 message; HTTP/2 over TLS with a
 * .p8-signed provider token): one user with an Android phone and an iPhone gets the event once on
 * each, with the collapse id, TTL and priority mapped; a token the provider reports unregistered is
 * removed; a 429 with {@code Retry-After} is tried again no sooner than it said.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class PushProvidersIT {

    static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void fcmAndApnsEachGetTheEventOnceAndAGoneTokenIsRemoved(Infra infra) throws Exception {
        PushTopics t = new PushTopics(infra);
        try (FcmFake fcm = FcmFake.start(); ApnsFake apns = ApnsFake.start()) {
            String android = fcm.register();
            String iphone = apns.register("com.example.app");
            String oldPhone = fcm.register();
            fcm.unregister(oldPhone);
            PushRegistration a = PushRegistration.of(null, new PushRegistration.Fcm(android), null, 1);
            PushRegistration i = PushRegistration.of(null, null, new PushRegistration.Apns(iphone, "com.example.app", "production"), 2);
            PushRegistration gone = PushRegistration.of(null, new PushRegistration.Fcm(oldPhone), null, 3);
            Map<String, String> settings = new java.util.HashMap<>(t.settings(VapidKeys.generate()));
            settings.put("notify.push.fcm.service-account", fcm.serviceAccountJson());
            settings.put("notify.push.fcm.base-url", fcm.baseUrl().toString());
            settings.put("notify.push.apns.team-id", apns.teamId());
            settings.put("notify.push.apns.key-id", apns.keyId());
            settings.put("notify.push.apns.signing-key", apns.signingKeyPem());
            settings.put("notify.push.apns.production-url", apns.baseUrl().toString());
            settings.put("notify.push.apns.sandbox-url", apns.baseUrl().toString());
            settings.put("notify.push.apns.ca-file", apns.certificateFile().toString());
            t.send(PushTopics.fallback("dana", "ev-mobile", 4, "push", List.of(a, i, gone)));

            try (PushService service = new PushService(PushConfig.load(Settings.of(settings))).start()) {
                Await.until("the Android phone got it", WAIT, () -> fcm.messages().size() == 1);
                Await.until("the iPhone got it", WAIT, () -> apns.deliveries().size() == 1);
                JsonNode message = fcm.messages().get(0).message();
                assertEquals(android, message.path("token").asText());
                assertEquals("ev-mobile", message.path("data").path("id").asText());
                assertEquals("ev-mobile", NotifyJson.mapper().readTree(message.path("data").path("event").asText()).path("id").asText(),
                        "the event, as the inbox lists it");
                assertEquals("ev-mobile", message.path("android").path("collapse_key").asText());
                assertEquals("86400s", message.path("android").path("ttl").asText(), "the default TTL, a day");
                assertEquals("Order ev-mobile shipped", message.path("notification").path("title").asText());
                ApnsFake.Delivery delivery = apns.deliveries().get(0);
                assertEquals("alert", delivery.pushType());
                assertEquals("10", delivery.priority(), "a visible notification is urgent");
                assertEquals("ev-mobile", delivery.collapseId());
                assertEquals("HTTP/2.0", delivery.protocol());

                List<PushOutcome> outcomes = t.read(t.topics.pushOutcomes().name(), 3, WAIT).stream()
                        .map(r -> NotifySerdes.pushOutcome().deserializer().deserialize(null, r.value())).toList();
                assertEquals(Map.of(a.id(), PushOutcome.Outcome.SENT, i.id(), PushOutcome.Outcome.SENT, gone.id(), PushOutcome.Outcome.GONE),
                        outcomes.stream().collect(java.util.stream.Collectors.toMap(PushOutcome::registration, PushOutcome::outcome)));
                PushChange removal = NotifySerdes.pushChange().deserializer().deserialize(null,
                        t.read(t.topics.pushChanges().name(), 1, WAIT).get(0).value());
                assertEquals(PushChange.gone(removal.stream(), gone.id(), removal.reason(), removal.at()), removal);
                assertTrue(removal.reason().contains("UNREGISTERED"), removal.reason());
            }
        }
    }

    @Test
    void a429IsTriedAgainNoSoonerThanItsRetryAfter(Infra infra) throws Exception {
        PushTopics t = new PushTopics(infra);
        VapidKeys vapid = VapidKeys.generate();
        try (WebPushFake push = WebPushFake.start()) {
            PushRegistration.WebPush browser = push.subscribe(vapid.publicKeyBase64Url());
            push.failNext(WebPushFake.idOf(browser), 1, 429, "2");
            t.send(PushTopics.fallback("eli", "ev-busy", 1, "push", List.of(WebPushFake.registration(browser))));
            try (PushService service = new PushService(PushConfig.load(Settings.of(t.settings(vapid)))).start()) {
                push.awaitMessages(WebPushFake.idOf(browser), 1, WAIT);
                List<PushOutcome> outcomes = t.read(t.topics.pushOutcomes().name(), 2, WAIT).stream()
                        .map(r -> NotifySerdes.pushOutcome().deserializer().deserialize(null, r.value())).toList();
                assertEquals(List.of(PushOutcome.Outcome.RETRY, PushOutcome.Outcome.SENT), outcomes.stream().map(PushOutcome::outcome).toList());
                assertEquals(429, outcomes.get(0).status());
                long waited = outcomes.get(1).at() - outcomes.get(0).at();
                assertTrue(waited >= 2_000, "Retry-After: 2 honoured (the backoff alone is 50 ms here): " + waited + " ms");
            }
        }
    }
}
