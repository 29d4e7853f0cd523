package io.notify.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.drain.DrainReport;
import io.notify.devstack.Await;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.WsClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** SIGTERM's drain: readiness off, handshakes refused, every connection closed with 1001, spread over the window. */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(60)
class GatewayDrainIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int WS_CLIENTS = 8;
    private static final long WINDOW_MS = 2_000;

    @Test
    void drainClosesEveryConnectionWith1001SpreadOverTheWindow(Infra infra) throws Exception {
        try (GatewayHarness gateway = new GatewayHarness(infra, "gw-drain",
                     Map.of("notify.gateway.drain-window", WINDOW_MS + "ms", "notify.gateway.drain-grace", "3s"));
             AutoCloseableRedis redis = closeable(RedisClient.create(infra.redisUri()));
             StatefulRedisConnection<String, String> conn = redis.connect()) {
            List<WsClient> ws = new ArrayList<>();
            List<CompletableFuture<Long>> closedAt = new ArrayList<>();
            for (int i = 0; i < WS_CLIENTS; i++) {
                WsClient c = WsClient.connect(gateway.ws(), gateway.tokens().valid("drain-" + i));
                c.next(WAIT);
                c.resumeLive();
                ws.add(c);
                closedAt.add(CompletableFuture.supplyAsync(() -> {
                    c.closeCode(Duration.ofSeconds(20));
                    return System.nanoTime();
                }));
            }
            SseClient sse = SseClient.connect(gateway.http("/v1/sse"), Map.of("Authorization", "Bearer " + gateway.tokens().valid("drain-sse")));
            assertEquals(200, sse.status());
            Await.until("all registered", WAIT, () -> gateway.server().sessions().size() == WS_CLIENTS + 1);
            String key = infra.prefix() + "nf:conns:{u:drain-0}";
            Await.until("registered in Redis", WAIT, () -> conn.sync().zcard(key) == 1);

            long start = System.nanoTime();
            CompletableFuture<DrainReport> drain = CompletableFuture.supplyAsync(() -> gateway.server().drain());
            Await.until("readiness off", WAIT, () -> status(gateway, "/readyz") == 503);
            assertEquals(503, status(gateway, "/v1/sse"), "no handshakes while draining");

            for (WsClient c : ws) {
                assertEquals(1001, c.closeCode(Duration.ofSeconds(10)));
            }
            sse.awaitEnd(Duration.ofSeconds(10));
            List<SseClient.Message> received = sse.received();
            SseClient.Message last = received.get(received.size() - 1);
            assertTrue(last.retry() != null && last.data() == null && last.retry() <= 1000,
                    "the SSE stream ends with a retry hint of 0-1 s: " + received);
            DrainReport report = drain.get(10, TimeUnit.SECONDS);
            assertTrue(report.complete(), report.toString());
            assertEquals(WS_CLIENTS + 1, report.connections());
            assertTrue(report.tookMillis() < WINDOW_MS + 3_000, report.toString());

            List<Long> offsetsMs = new ArrayList<>();
            for (CompletableFuture<Long> f : closedAt) {
                offsetsMs.add(TimeUnit.NANOSECONDS.toMillis(f.get(5, TimeUnit.SECONDS) - start));
            }
            offsetsMs.sort(Long::compare);
            long span = offsetsMs.get(offsetsMs.size() - 1) - offsetsMs.get(0);
            // 9 connections over 2 s: one every ~222 ms, the last at ~1.8 s
            assertTrue(span >= WINDOW_MS / 2 && offsetsMs.get(offsetsMs.size() - 1) <= WINDOW_MS + 1_000,
                    "closes spread over the window: " + offsetsMs);
            assertEquals(0L, conn.sync().zcard(key), "registrations removed");
            assertNotNull(report);
        }
    }

    private static int status(GatewayHarness gateway, String path) {
        try {
            return WsClient.HTTP.send(HttpRequest.newBuilder(gateway.http(path)).GET().timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static AutoCloseableRedis closeable(RedisClient client) {
        return new AutoCloseableRedis(client);
    }

    /** RedisClient is not AutoCloseable. */
    private static final class AutoCloseableRedis implements AutoCloseable {
        private final RedisClient client;

        AutoCloseableRedis(RedisClient client) {
            this.client = client;
        }

        StatefulRedisConnection<String, String> connect() {
            return client.connect();
        }

        @Override
        public void close() {
            client.shutdown();
        }
    }
}
