package io.notify.push.sender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.common.config.Settings;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.PushConfig;
import io.notify.push.PushService;
import io.notify.push.PushTopics;
import io.notify.push.fake.WebPushFake;
import io.notify.push.fake.WebPushReceived;
import io.notify.push.webpush.VapidKeys;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.DlqFailure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The push sender against a real broker and a local Web Push service that checks what a real one
 * does (VAPID, aes128gcm): every outcome of docs/push.md, "Outcomes", from one batch.
 */
@ExtendWith(NotifyInfraExtension.class)
class PushSenderIT {

    static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void sentRetriedGoneRefusedAndNoRegistrationEachLeaveTheirRecord(Infra infra) throws Exception {
        PushTopics t = new PushTopics(infra);
        VapidKeys vapid = VapidKeys.generate();
        try (WebPushFake push = WebPushFake.start()) {
            PushRegistration.WebPush browser = push.subscribe(vapid.publicKeyBase64Url());
            PushRegistration.WebPush oldTab = push.subscribe(vapid.publicKeyBase64Url());
            push.unsubscribe(WebPushFake.idOf(oldTab)); // the push service forgot it: 410
            push.failNext(WebPushFake.idOf(browser), 1, 503, "0"); // one transient failure first
            PushRegistration ok = WebPushFake.registration(browser);
            PushRegistration gone = WebPushFake.registration(oldTab);
            PushRegistration phone = PushRegistration.of(null, new PushRegistration.Fcm("fcm-token-1"), null, 5); // no FCM credentials
            t.send(PushTopics.fallback("ann", "ev-1", 1, "push", List.of(ok, gone, phone)),
                    PushTopics.fallback("bob", "ev-2", 1, "push", List.of()),
                    PushTopics.fallback("ann", "ev-3", 2, "email", List.of()),
                    PushTopics.fallback("cy", "ev-old", 1, "push", List.of(ok), System.currentTimeMillis() - Duration.ofDays(2).toMillis()));

            try (PushService service = new PushService(PushConfig.load(Settings.of(t.settings(vapid)))).start()) {
                List<WebPushReceived> got = push.awaitMessages(WebPushFake.idOf(browser), 1, WAIT);
                JsonNode event = NotifyJson.mapper().readTree(got.get(0).plaintext());
                assertEquals("ev-1", event.path("id").asText());
                assertEquals("u:ann", event.path("stream").asText());
                assertEquals(1, event.path("seq").asLong());
                assertEquals("Order ev-1 shipped", event.path("data").path("title").asText(), "the payload is the event");
                assertEquals("ev-1", got.get(0).topic(), "the collapse id: a repeat replaces the first");
                assertEquals("high", got.get(0).urgency(), "a visible notification");

                List<PushOutcome> all = t.read(t.topics.pushOutcomes().name(), 6, WAIT).stream()
                        .map(r -> NotifySerdes.pushOutcome().deserializer().deserialize(null, r.value())).toList();
                PushOutcome old = all.stream().filter(o -> o.eventId().equals("ev-old")).findFirst().orElseThrow();
                assertEquals(PushOutcome.Outcome.GIVEN_UP, old.outcome(), "a fallback older than the push TTL is not pushed");
                Map<String, List<PushOutcome>> outcomes = all.stream().filter(o -> !o.eventId().equals("ev-old"))
                        .collect(Collectors.groupingBy(o -> o.registration() == null ? "none" : o.registration()));
                assertEquals(List.of(PushOutcome.Outcome.RETRY, PushOutcome.Outcome.SENT),
                        outcomes.get(ok.id()).stream().map(PushOutcome::outcome).toList(), "retried, then sent");
                assertEquals(503, outcomes.get(ok.id()).get(0).status());
                assertEquals(2, outcomes.get(ok.id()).get(1).attempt());
                assertEquals(PushOutcome.Outcome.GONE, outcomes.get(gone.id()).get(0).outcome());
                assertEquals(PushOutcome.Outcome.REFUSED, outcomes.get(phone.id()).get(0).outcome());
                assertEquals(PushOutcome.Outcome.NO_REGISTRATION, outcomes.get("none").get(0).outcome());
                assertEquals("ev-2", outcomes.get("none").get(0).eventId());
                assertEquals(5, outcomes.values().stream().mapToInt(List::size).sum(), "nothing for the e-mail fallback");

                ConsumerRecord<byte[], byte[]> removal = t.read(t.topics.pushChanges().name(), 1, WAIT).get(0);
                PushChange change = NotifySerdes.pushChange().deserializer().deserialize(null, removal.value());
                assertEquals(PushChange.Kind.GONE, change.kind());
                assertEquals(gone.id(), change.id(), "the registration the push service forgot is removed");
                assertEquals("u:ann", new String(removal.key(), StandardCharsets.UTF_8), "keyed by the user's stream");

                List<ConsumerRecord<byte[], byte[]>> dlq = t.read(t.topics.pushDlq().name(), 2, WAIT);
                assertEquals(List.of("given_up", "no_provider"), dlq.stream()
                        .map(r -> DlqFailure.readFrom(r.headers()).orElseThrow().kind()).sorted().toList());
                ConsumerRecord<byte[], byte[]> dead = dlq.stream()
                        .filter(r -> DlqFailure.readFrom(r.headers()).orElseThrow().kind().equals("no_provider")).findFirst().orElseThrow();
                DlqFailure why = DlqFailure.readFrom(dead.headers()).orElseThrow();
                assertEquals("no_provider", why.kind());
                assertTrue(why.error().contains("fcm"), why.error());
                FallbackRecord narrowed = NotifySerdes.fallbackRecord().deserializer().deserialize(null, dead.value());
                assertEquals(List.of(phone), narrowed.push(), "the DLQ record names only the device that failed");
                assertNotNull(dead.headers().lastHeader("notify.push.registration"));
            }
        }
    }
}
