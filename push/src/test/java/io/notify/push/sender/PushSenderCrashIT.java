package io.notify.push.sender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.Settings;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.JavaProcess;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.PushMain;
import io.notify.push.PushTopics;
import io.notify.push.fake.WebPushFake;
import io.notify.push.fake.WebPushReceived;
import io.notify.push.webpush.VapidKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The push guarantee under {@code kill -9} of the sender (docs/push.md, "Guarantees"): the sender
 * runs in a child JVM and is killed while a batch of pushes is in flight (the push service took some
 * and had not answered). A second sender takes over the group: every event reaches its device, and
 * an event pushed twice was pushed with the same collapse id both times, so the push service holds
 * (and the device shows) one notification per event.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(180)
class PushSenderCrashIT {

    static final int EVENTS = 40;
    static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aKilledSendersBatchIsPushedAgainWithTheSameCollapseIdAndNothingIsLost(Infra infra, @TempDir Path dir) throws Exception {
        PushTopics t = new PushTopics(infra);
        VapidKeys vapid = VapidKeys.generate();
        try (WebPushFake pushService = WebPushFake.start()) {
            pushService.answerDelay(Duration.ofMillis(150)); // pushes stay in flight long enough to be killed mid-batch
            List<PushRegistration.WebPush> devices = new ArrayList<>();
            FallbackRecord[] records = new FallbackRecord[EVENTS];
            for (int i = 0; i < EVENTS; i++) {
                PushRegistration.WebPush device = pushService.subscribe(vapid.publicKeyBase64Url());
                devices.add(device);
                records[i] = PushTopics.fallback("crash-" + i, "crash-ev-" + i, 1, "push", List.of(WebPushFake.registration(device)));
            }
            t.send(records);
            Map<String, String> settings = new HashMap<>(t.settings(vapid));
            settings.put("notify.push.max-in-flight", "4");
            settings.put("notify.push.session-timeout", "6s"); // the killed member leaves the group sooner

            JavaProcess first = sender(settings, dir.resolve("first.log")).start();
            Await.until("the first sender pushed some, not all", WAIT, () -> pushService.log().size() >= 5);
            first.kill(); // kill -9 mid-batch: nothing of the batch committed
            int before = pushService.log().size();
            assertTrue(before < EVENTS, "killed before the batch was done: " + before);

            try (JavaProcess second = sender(settings, dir.resolve("second.log")).start()) {
                Await.until("every event pushed", WAIT, () -> received(pushService).size() == EVENTS);
            }
            Map<String, List<WebPushReceived>> bySubscription = new HashMap<>();
            pushService.log().forEach(m -> bySubscription.computeIfAbsent(m.subscriptionId(), k -> new ArrayList<>()).add(m));
            int repeated = 0;
            for (int i = 0; i < EVENTS; i++) {
                String id = WebPushFake.idOf(devices.get(i));
                List<WebPushReceived> got = bySubscription.get(id);
                Set<String> topics = new HashSet<>();
                got.forEach(m -> topics.add(m.topic()));
                assertEquals(Set.of("crash-ev-" + i), topics, "every push of one event carries its collapse id");
                assertEquals(1, pushService.held(id).size(), "the push service holds one notification per event");
                repeated += got.size() - 1;
            }
            assertTrue(repeated >= 1, "the killed sender's batch was pushed again (at least once per event, not exactly once)");
        }
    }

    private static Set<String> received(WebPushFake pushService) {
        Set<String> ids = new HashSet<>();
        for (WebPushReceived m : pushService.log()) {
            try {
                ids.add(NotifyJson.mapper().readTree(m.plaintext()).path("id").asText());
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return ids;
    }

    /** The sender as PushMain in a child JVM; secrets (the VAPID private key) in its environment, never on its command line. */
    private static JavaProcess sender(Map<String, String> settings, Path log) {
        List<String> args = new ArrayList<>();
        Map<String, String> env = new HashMap<>();
        settings.forEach((k, v) -> {
            if (Settings.isSecret(k, v)) {
                env.put(Settings.envName(k), v);
            } else {
                args.add(k + "=" + v);
            }
        });
        return new JavaProcess(PushMain.class.getName(), args, List.of("-Xmx256m"), log, env);
    }
}
