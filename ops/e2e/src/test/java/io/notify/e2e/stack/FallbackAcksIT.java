package io.notify.e2e.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.client.ClientEvent;
import io.notify.client.NotifyClient;
import io.notify.client.TransportMode;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.GatewayServer;
import io.notify.platform.FallbackTopic;
import io.notify.platform.Platform;
import io.notify.platform.ServiceProcess;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A device that received an event is never the reason its offline fallback fires (issue 38): an SSE
 * client, which cannot send ack frames, acks over HTTP; a WebSocket client whose ack died with its
 * gateway (kill -9 while the ack sat in the gateway's receipt batch) acks again after its next
 * welcome, on another node. A user with no device gets the fallback, once: the control that shows
 * fallbacks fire here at all. Java SDK clients against the real stack.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(180)
class FallbackAcksIT {

    static final Duration WAIT = Duration.ofSeconds(30);
    /** Long enough for a reconnect and a 5 s receipt batch, short enough for a test. */
    static final Fallback AFTER_20S = new Fallback("20s", "push");

    @Test
    void neitherAnSseDeviceNorOneWhoseAckDiedWithItsGatewayTriggersTheFallback(Infra infra, @TempDir Path dir) throws Exception {
        try (Platform stack = Platform.forTest(infra, dir)
                .fanout("notify.fanout.fallback.check-interval", "200ms")
                .gateway("notify.gateway.inbox.ack-flush-interval", "5s") // acks wait in the gateway long enough to die with it
                .start()) {
            GatewayServer survivor = stack.startGateway("gw-survivor");
            ServiceProcess doomed = stack.startChildGateway("gw-doomed");
            Set<String> seen = ConcurrentHashMap.newKeySet();

            try (NotifyClient phone = client(stack, "fa-ws", TransportMode.WEBSOCKET, seen,
                    URI.create("ws://127.0.0.1:" + doomed.port()), URI.create("ws://127.0.0.1:" + survivor.port()));
                 NotifyClient laptop = client(stack, "fa-sse", TransportMode.SSE, seen,
                         URI.create("ws://127.0.0.1:" + survivor.port()))) {
                Await.until("both devices connected", WAIT, () -> phone.nodeId().isPresent() && laptop.nodeId().isPresent());
                publish(stack, "fa-ws", "fa-killed");
                publish(stack, "fa-sse", "fa-sse-1");
                publish(stack, "fa-nobody", "fa-missed");
                Await.until("both devices got their event", WAIT, () -> seen.containsAll(List.of("fa-killed", "fa-sse-1")));
                Await.until("the phone's ack reached its gateway (held in its receipt batch)", WAIT, () -> acks(doomed) >= 1);
                doomed.kill(); // kill -9: the batch with the phone's ack is gone
                Await.until("the phone on the other node", WAIT, () -> phone.nodeId().filter("gw-survivor"::equals).isPresent());

                List<String> fired = FallbackTopic.readUntil(stack.config().bootstrapServers(), stack.config().topics(),
                        read -> read.stream().anyMatch(r -> r.event().id().equals("fa-missed")), Duration.ofSeconds(2),
                        Duration.ofSeconds(90)).stream().map(r -> r.event().id()).toList();
                assertEquals(List.of("fa-missed"), fired, "only the event no device received falls back");
            }
        }
    }

    private static NotifyClient client(Platform stack, String user, TransportMode mode, Set<String> seen, URI... gateways) {
        return NotifyClient.builder()
                .gateways(List.of(gateways))
                .token(stack.token(user))
                .transport(mode)
                .sseFallback(false)
                .device("dev-" + user)
                .ackInterval(Duration.ofMillis(100))
                .backoff(Duration.ofMillis(200), Duration.ofSeconds(1))
                .listener((ClientEvent e) -> seen.add(e.id()))
                .connect();
    }

    private static void publish(Platform stack, String user, String id) throws Exception {
        stack.publisher().publish(EventEnvelope.durable("order.shipped", null, user).withId(id).withFallback(AFTER_20S))
                .get(30, TimeUnit.SECONDS);
    }

    private static double acks(ServiceProcess gateway) {
        try {
            for (String line : gateway.metrics(Duration.ofSeconds(5)).body().split("\n")) {
                if (line.startsWith("notify_gateway_acks_total")) {
                    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        } catch (Exception e) {
            return 0;
        }
        return 0;
    }

}
