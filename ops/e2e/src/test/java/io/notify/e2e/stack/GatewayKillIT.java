package io.notify.e2e.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.GatewayServer;
import io.notify.gateway.support.WsClient;
import io.notify.platform.Platform;
import io.notify.platform.ServiceProcess;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.lease.NodeRegistryConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway killed with SIGKILL loses no durable event for its clients once they resume on another
 * node, and its registrations stop receiving routes within the liveness TTL (4 s by default).
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(240)
class GatewayKillIT {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final long ALIVE_TTL_MS = NodeRegistryConfig.defaults().aliveTtl().toMillis();

    @Test
    void killedNodeLosesNothingAndItsRoutesStop(Infra infra, @TempDir Path dir) throws Exception {
        String user = "kill-user";
        try (Platform stack = Platform.forTest(infra, dir).start()) {
            TwoNodeStackIT.stack = stack;
            ServiceProcess doomed = stack.startChildGateway("gw-doomed");
            GatewayServer survivor = stack.startGateway("gw-survivor");
            EventFrame last;
            List<String> published = new ArrayList<>();
            try (WsClient client = WsClient.connect(Platform.ws(doomed.port()), stack.token(user))) {
                assertTrue(client.next(WAIT) instanceof WelcomeFrame);
                client.resumeLive();
                for (int i = 0; i < 3; i++) {
                    stack.publish(user, "k-" + i);
                    published.add("k-" + i);
                }
                List<EventFrame> got = client.events(3, WAIT);
                last = got.get(2);
                doomed.kill();
            }
            long killedAt = System.currentTimeMillis();
            // Keep publishing through the liveness window and beyond.
            long until = killedAt + ALIVE_TTL_MS + 4_000;
            int i = 3;
            while (System.currentTimeMillis() < until) {
                stack.publish(user, "k-" + i);
                published.add("k-" + i);
                i++;
                TimeUnit.MILLISECONDS.sleep(250); // publish pacing, not synchronization
            }

            try (WsClient resumed = WsClient.connect(Platform.ws(survivor.port()), stack.token(user))) {
                assertTrue(resumed.next(WAIT) instanceof WelcomeFrame);
                resumed.resume(last.stream().value(), last.epoch(), last.seq());
                int missed = published.size() - 3;
                List<EventFrame> replayed = resumed.events(missed, WAIT);
                assertEquals(LongStream.rangeClosed(4, published.size()).boxed().toList(),
                        replayed.stream().map(EventFrame::seq).toList(), "no loss, no duplicate, in order");
                assertEquals(published.subList(3, published.size()).stream().sorted().toList(),
                        replayed.stream().map(EventFrame::id).sorted().toList());
                assertTrue(resumed.quiet(Duration.ofSeconds(1)));
            }

            List<DeliveryMessage> toDoomed = TwoNodeStackIT.deliveries("gw-doomed", StreamId.forUser(user),
                    Duration.ofSeconds(5), published.size());
            long lastRoutedAfterKill = toDoomed.stream().mapToLong(DeliveryMessage::routedAt).max().orElse(0) - killedAt;
            System.out.printf("GatewayKillIT: routes to the killed node stopped %d ms after the kill (liveness TTL %d ms)%n",
                    Math.max(0, lastRoutedAfterKill), ALIVE_TTL_MS);
            assertTrue(lastRoutedAfterKill <= ALIVE_TTL_MS + 2_000,
                    "routes to the dead node stop within the liveness TTL; last one " + lastRoutedAfterKill + " ms after the kill");
        }
    }
}
