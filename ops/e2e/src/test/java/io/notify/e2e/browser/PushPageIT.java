package io.notify.e2e.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.platform.Platform;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.fake.WebPushFake;
import io.notify.push.fake.WebPushReceived;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Push from the demo page in real headless Chromium (docs/push.md): the page's "enable push"
 * (notify.js {@code client.push.register}) registers a subscription for the signed-in user, the tab
 * is closed, an event with a {@code push} fallback is published, and the push arrives at the push
 * service, encrypted for that subscription and decrypted there. Chromium's own push service is out
 * of reach here, so the page is handed a service worker registration whose {@code pushManager}
 * gives out a subscription the local Web Push service issued ({@code PushSubscription.toJSON()}'s
 * endpoint and keys); everything after it is the page's and notify.js's own code. Skipped where the
 * Debian chromium package is not installed.
 */
@ExtendWith(NotifyInfraExtension.class)
class PushPageIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    @Timeout(180)
    void aBrowserRegisteredOnTheDemoPageGetsThePushAfterItsTabClosed(Infra infra, @TempDir Path dir) throws Exception {
        Chromium.assumeInstalled();
        try (Platform stack = Platform.forTest(infra, dir).gateways("gw-p").browserOrigins()
                .fanout("notify.fanout.fallback.check-interval", "200ms").start();
             Chromium chromium = Chromium.launch(dir.resolve("chromium"));
             WebPushFake pushService = WebPushFake.start()) {
            String gw = Platform.http(stack.gateway("gw-p").port()).toString();
            DevToolsPage tab = chromium.open(DemoPageIT.demoUrl(stack, gw, List.of(gw), stack.token("88"), "ws"));
            tab.waitFor("the page connects", DemoPageIT.connectedTo("gw-p", "ws"), WAIT);

            PushRegistration.WebPush issued = pushService.subscribe(stack.config().vapid().publicKeyBase64Url());
            String subscription = NotifyJson.mapper().writeValueAsString(issued);
            JsonNode registered = tab.evaluate("(async () => {"
                    + " const json = " + subscription + ";"
                    + " const sub = { endpoint: json.endpoint, options: { applicationServerKey: null },"
                    + "   toJSON: () => json, unsubscribe: async () => true };"
                    + " const registration = { pushManager: { getSubscription: async () => null, subscribe: async () => sub } };"
                    + " const r = await window.notifyDemo.enablePush(registration);"
                    + " return { id: r.id, provider: r.provider }; })()");
            assertEquals("webpush", registered.path("provider").asText(), registered.toString());
            tab.waitFor("the page shows the registration", "document.getElementById('push-state').dataset.state === 'on'", WAIT);

            tab.call("Page.close", NotifyJson.mapper().createObjectNode()); // the tab is gone: nobody acks what comes next
            var data = NotifyJson.mapper().createObjectNode().put("title", "Your order shipped").put("body", "It arrives Monday");
            stack.publisher().publish(EventEnvelope.durable("order.shipped", data, "88").withId("pp-1")
                    .withFallback(new Fallback("10s", "push"))).get(30, TimeUnit.SECONDS);

            List<WebPushReceived> got = pushService.awaitMessages(WebPushFake.idOf(issued), 1, WAIT);
            JsonNode event = NotifyJson.mapper().readTree(got.get(0).plaintext());
            assertEquals("pp-1", event.path("id").asText(), "decrypted with the subscription's keys: the event");
            assertEquals("It arrives Monday", event.path("data").path("body").asText());
            assertEquals("pp-1", got.get(0).topic());
        }
    }
}
