package io.notify.registry.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.RegistryTesting;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** A node's pipelined bulk writes against the shared real Redis. */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LeaseBatchIT {

    private static final Duration WAIT = Duration.ofSeconds(5);

    @Test
    void aBatchLetsTheLivenessKeyBeRefreshedBetweenItsFlushes(Infra infra) throws Exception {
        java.util.concurrent.atomic.AtomicInteger between = new java.util.concurrent.atomic.AtomicInteger();
        try (var t = new RegistryTesting(infra.redisUri(), infra.prefix());
             var c = t.client().connect()) {
            LeaseBatch batch = new LeaseBatch(c, 4, Duration.ofSeconds(2), between::incrementAndGet);
            Map<String, List<String>> members = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 10; i++) {
                members.put(t.keys.connections(StreamId.forUser("lb" + i)), List.of("gw-x|inc|c" + i));
            }
            // ZADD + PEXPIRE per key: 20 commands, flushed 4 at a time
            assertEquals(10L, batch.upsert(members, t.clock.millis() + 60_000, false, 60_000, System.nanoTime() + WAIT.toNanos()));
            assertEquals(5, between.get(), "called after every full flush, never mid-flush");
            assertEquals(Map.of(), batch.missing(members, System.nanoTime() + WAIT.toNanos()));
            t.raw().zrem(t.keys.connections(StreamId.forUser("lb3")), "gw-x|inc|c3");
            assertEquals(Map.of(t.keys.connections(StreamId.forUser("lb3")), List.of("gw-x|inc|c3")),
                    batch.missing(members, System.nanoTime() + WAIT.toNanos()));
        }
    }
}
