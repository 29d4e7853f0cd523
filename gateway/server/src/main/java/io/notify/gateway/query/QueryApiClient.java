package io.notify.gateway.query;

import io.notify.common.auth.ServiceToken;
import io.notify.gateway.metrics.GatewayMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's HTTP client of the fanout-streams query API (docs/query-api.md), shared by resume
 * ({@code resume.HttpResumeSource}) and the inbox API ({@code inbox.HttpInboxSource}):
 * {@code java.net.http}, asynchronous, HTTP/1.1, with the node's service token, query URLs, TLS trust
 * and timeout. Each call tries the base URLs in turn, starting from a rotating one, each attempt
 * bounded by {@code timeout}; a transport error, a 401 or any answer its {@link Reader} does not keep
 * moves on to the next URL, and when all failed the stage completes with the caller's failure value —
 * never exceptionally, never later than {@code urls × timeout}. A 401 is counted as outcome
 * {@code unauthorized} and logged at most once a minute, without the token: a token the query API
 * does not accept is a deployment error no retry mends. Every attempt is counted in
 * {@code query_requests_total{outcome}} and timed in {@code query_latency_seconds}.
 */
public final class QueryApiClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueryApiClient.class);
    private static final long REFUSAL_LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    /** What a caller makes of one answer: keep it ({@link #done}) or try the next URL ({@link #next}). */
    public sealed interface Answer<T> {
        /** The result of the call. */
        record Done<T>(T result) implements Answer<T> {
        }

        /** Not usable (why, for the failure value if every URL answers so): try the next URL. */
        record Next<T>(String problem) implements Answer<T> {
        }
    }

    public static <T> Answer<T> done(T result) {
        return new Answer.Done<>(result);
    }

    public static <T> Answer<T> next(String problem) {
        return new Answer.Next<>(problem);
    }

    /** Reads one answer other than a 401; may throw (then the next URL is tried). */
    @FunctionalInterface
    public interface Reader<T> {
        Answer<T> read(HttpResponse<byte[]> response) throws Exception;
    }

    private final List<URI> baseUrls;
    private final String authorization;
    private final Duration timeout;
    private final GatewayMetrics metrics;
    private final ExecutorService executor;
    private final HttpClient client;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLong lastRefusalLog = new AtomicLong(System.nanoTime() - REFUSAL_LOG_INTERVAL_NANOS);

    /** An https base URL is trusted by {@code tls} (null: the JVM's default trust store). */
    public QueryApiClient(List<URI> baseUrls, ServiceToken token, Duration timeout, GatewayMetrics metrics, SSLContext tls) {
        if (baseUrls.isEmpty()) {
            throw new IllegalArgumentException("at least one query API base URL is required");
        }
        this.baseUrls = List.copyOf(baseUrls);
        this.authorization = token.authorization();
        this.timeout = timeout;
        this.metrics = metrics;
        this.executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "gateway-query-client");
            t.setDaemon(true);
            return t;
        });
        HttpClient.Builder client = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .executor(executor)
                .version(HttpClient.Version.HTTP_1_1);
        this.client = (tls == null ? client : client.sslContext(tls)).build();
    }

    /**
     * One call: {@code request} builds the request for a base URL (the token, {@code Accept} and the
     * timeout are added here), {@code read} judges each answer, {@code failure} makes the result when
     * no URL gave one (from the last problem).
     */
    public <T> CompletionStage<T> call(Function<URI, HttpRequest.Builder> request, Reader<T> read, Function<String, T> failure) {
        int start = Math.floorMod(next.getAndIncrement(), baseUrls.size());
        return attempt(request, read, failure, start, 0, "no query API URL");
    }

    private <T> CompletionStage<T> attempt(Function<URI, HttpRequest.Builder> request, Reader<T> read, Function<String, T> failure,
                                           int start, int tried, String lastProblem) {
        if (tried >= baseUrls.size()) {
            return CompletableFuture.completedFuture(failure.apply(lastProblem));
        }
        URI base = baseUrls.get((start + tried) % baseUrls.size());
        HttpRequest req = request.apply(base).timeout(timeout).header("Accept", "application/json")
                .header("Authorization", authorization).build();
        long t0 = System.nanoTime();
        CompletableFuture<HttpResponse<byte[]>> call;
        try {
            call = client.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray());
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failure.apply("cannot send: " + e));
        }
        return call.orTimeout(timeout.toMillis() + 100, TimeUnit.MILLISECONDS)
                .handle((resp, error) -> {
                    Answer<T> answer;
                    String outcome = "error";
                    if (error != null) {
                        answer = next(base + ": " + rootMessage(error));
                        outcome = "unreachable";
                    } else if (resp.statusCode() == 401) {
                        answer = next(base + ": HTTP 401: the query API refused this node's service token");
                        outcome = "unauthorized";
                        logRefusal(base);
                    } else {
                        try {
                            answer = read.read(resp);
                        } catch (Exception e) {
                            answer = next("unreadable answer: " + e.getMessage());
                        }
                        if (answer instanceof Answer.Next<T> n) {
                            answer = next(base + ": " + n.problem());
                        }
                    }
                    metrics.queryRequest(answer instanceof Answer.Done<T> ? "ok" : outcome, System.nanoTime() - t0);
                    return answer instanceof Answer.Done<T> d ? CompletableFuture.completedFuture(d.result())
                            : attempt(request, read, failure, start, tried + 1, ((Answer.Next<T>) answer).problem());
                })
                .thenCompose(Function.identity());
    }

    private void logRefusal(URI base) {
        long now = System.nanoTime();
        long last = lastRefusalLog.get();
        if (now - last >= REFUSAL_LOG_INTERVAL_NANOS && lastRefusalLog.compareAndSet(last, now)) {
            LOG.error("the query API at {} answered 401 to this node's service token: resumes and inbox requests fail until "
                    + "notify.gateway.query-token is one of that instance's notify.fanout.query.tokens", base);
        }
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c.getClass().getSimpleName() + (c.getMessage() == null ? "" : ": " + c.getMessage());
    }

    /** Stops the client's threads; idempotent. Calls in flight complete with their failure value or not at all. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
