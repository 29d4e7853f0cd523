package io.notify.gateway.resume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.common.auth.ServiceToken;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.QueryApiStub;
import io.notify.gateway.support.TestConfig;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The HTTP resume source against a stub of docs/query-api.md: failover, paging, batch, failure, its service token. */
@Timeout(30)
class HttpResumeSourceIT {

    private static final StreamId U = StreamId.forUser("42");
    private static final StreamId V = StreamId.forUser("43");
    private static final URI DEAD = URI.create("http://127.0.0.1:9"); // discard port: connection refused
    private static final ServiceToken TOKEN = new ServiceToken(TestConfig.QUERY_TOKEN);

    @Test
    void failsOverToTheNextUrlPagesAndBatches() throws Exception {
        GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
        try (QueryApiStub stub = new QueryApiStub();
             HttpResumeSource source = new HttpResumeSource(List.of(DEAD, stub.url()), TOKEN, Duration.ofSeconds(2), metrics)) {
            stub.append(Events.range(U, "e", 1, 5));
            stub.append(Events.range(V, "f", 1, 2));
            for (int i = 0; i < 2; i++) { // whichever URL the rotation starts with, the answer comes
                FetchResult.Page page = assertInstanceOf(FetchResult.Page.class, source.fetch(new FetchRequest(U, new Position("e", 1), 3))
                        .toCompletableFuture().get(10, TimeUnit.SECONDS));
                assertEquals(List.of(2L, 3L, 4L), page.events().stream().map(e -> e.seq()).toList());
                assertTrue(page.more());
            }
            List<FetchResult> batch = source.fetchAll(List.of(new FetchRequest(U, new Position("e", 4), 10),
                    new FetchRequest(V, new Position("other", 1), 10))).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertEquals(List.of(5L), assertInstanceOf(FetchResult.Page.class, batch.get(0)).events().stream().map(e -> e.seq()).toList());
            assertEquals(V, assertInstanceOf(FetchResult.Reset.class, batch.get(1)).stream());
            assertTrue(metrics.count("notify.gateway.query.requests", "outcome", "unreachable") >= 1);
        }
    }

    @Test
    void reportsAFailureWhenNoUrlAnswers() throws Exception {
        GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
        try (QueryApiStub stub = new QueryApiStub();
             HttpResumeSource source = new HttpResumeSource(List.of(DEAD, stub.url()), TOKEN, Duration.ofSeconds(2), metrics)) {
            stub.failNext(10);
            FetchResult r = source.fetch(new FetchRequest(U, new Position("e", 1), 3)).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertEquals(U, assertInstanceOf(FetchResult.Failed.class, r).stream());
        }
    }

    @Test
    void presentsItsServiceTokenOnEveryRequestAndCountsARefusal() throws Exception {
        GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
        try (QueryApiStub stub = new QueryApiStub();
             QueryApiStub rotated = new QueryApiStub("another-query-token-0123456789");
             HttpResumeSource source = new HttpResumeSource(List.of(stub.url()), TOKEN, Duration.ofSeconds(2), metrics);
             HttpResumeSource refused = new HttpResumeSource(List.of(rotated.url()), TOKEN, Duration.ofSeconds(2), metrics)) {
            stub.append(Events.range(U, "e", 1, 2));
            stub.append(Events.range(V, "f", 1, 2));
            assertInstanceOf(FetchResult.Page.class, source.fetch(new FetchRequest(U, new Position("e", 1), 3))
                    .toCompletableFuture().get(10, TimeUnit.SECONDS));
            source.fetchAll(List.of(new FetchRequest(U, new Position("e", 1), 3), new FetchRequest(V, new Position("f", 1), 3)))
                    .toCompletableFuture().get(10, TimeUnit.SECONDS)
                    .forEach(r -> assertInstanceOf(FetchResult.Page.class, r));
            assertEquals(2, stub.requests());
            assertEquals(0, stub.refused(), "the single and the batch request both carried the token");

            FetchResult r = refused.fetch(new FetchRequest(U, new Position("e", 1), 3)).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertTrue(assertInstanceOf(FetchResult.Failed.class, r).detail().contains("HTTP 401"), r.toString());
            assertEquals(1, rotated.refused());
            assertEquals(1.0, metrics.count("notify.gateway.query.requests", "outcome", "unauthorized"));
        }
    }
}
