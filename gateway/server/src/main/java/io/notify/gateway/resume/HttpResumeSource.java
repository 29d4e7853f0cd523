package io.notify.gateway.resume;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.common.auth.ServiceToken;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.schemas.NotifyJson;
import java.net.URI;
import java.net.http.HttpClient;
import javax.net.ssl.SSLContext;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The query API over HTTP ({@code java.net.http}, asynchronous). Each call tries the configured
 * base URLs in turn, starting from a rotating one, each attempt bounded by {@code timeout}; a 503,
 * a transport error or an unreadable answer moves on to the next URL, and when all failed the
 * stage completes with {@link FetchResult.Failed} (never exceptionally, never later than
 * {@code urls × timeout}). Several streams use the batch endpoint in one request. Every request
 * presents the node's service token ({@code Authorization: Bearer}); a 401 is counted as outcome
 * {@code unauthorized} and logged (at most once a minute, without the token): a token the query
 * API does not accept is a deployment error no retry mends.
 */
public final class HttpResumeSource implements ResumeSource {

    private static final Logger LOG = LoggerFactory.getLogger(HttpResumeSource.class);
    private static final long REFUSAL_LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final List<URI> baseUrls;
    private final String authorization;
    private final Duration timeout;
    private final GatewayMetrics metrics;
    private final ExecutorService executor;
    private final HttpClient client;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLong lastRefusalLog = new AtomicLong(System.nanoTime() - REFUSAL_LOG_INTERVAL_NANOS);

    public HttpResumeSource(List<URI> baseUrls, ServiceToken token, Duration timeout, GatewayMetrics metrics) {
        this(baseUrls, token, timeout, metrics, null);
    }

    /** As above; an https base URL is trusted by {@code tls} (null: the JVM's default trust store). */
    public HttpResumeSource(List<URI> baseUrls, ServiceToken token, Duration timeout, GatewayMetrics metrics, SSLContext tls) {
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

    @Override
    public CompletionStage<FetchResult> fetch(FetchRequest request) {
        return attempt(base -> HttpRequest.newBuilder(QueryApiCodec.eventsUri(base, request)).GET(),
                json -> QueryApiCodec.read(request.stream(), json),
                FetchResult.Failed.class::isInstance,
                detail -> new FetchResult.Failed(request.stream(), detail));
    }

    @Override
    public CompletionStage<List<FetchResult>> fetchAll(List<FetchRequest> requests) {
        if (requests.size() == 1) {
            return fetch(requests.get(0)).thenApply(List::of);
        }
        byte[] body = QueryApiCodec.batchBody(requests);
        return attempt(base -> HttpRequest.newBuilder(QueryApiCodec.batchUri(base))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)),
                json -> QueryApiCodec.readBatch(requests, json),
                results -> results.stream().allMatch(FetchResult.Failed.class::isInstance),
                detail -> {
                    List<FetchResult> failed = new ArrayList<>();
                    requests.forEach(r -> failed.add(new FetchResult.Failed(r.stream(), detail)));
                    return failed;
                });
    }

    private <T> CompletionStage<T> attempt(Function<URI, HttpRequest.Builder> request, Function<JsonNode, T> read,
                                           java.util.function.Predicate<T> failed, Function<String, T> failure) {
        int start = Math.floorMod(next.getAndIncrement(), baseUrls.size());
        return attempt(request, read, failed, failure, start, 0, "no query API URL");
    }

    private <T> CompletionStage<T> attempt(Function<URI, HttpRequest.Builder> request, Function<JsonNode, T> read,
                                           java.util.function.Predicate<T> failed, Function<String, T> failure,
                                           int start, int tried, String lastError) {
        if (tried >= baseUrls.size()) {
            return CompletableFuture.completedFuture(failure.apply(lastError));
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
                    String problem;
                    T result = null;
                    String outcome = "error";
                    if (error != null) {
                        problem = base + ": " + rootMessage(error);
                        outcome = "unreachable";
                    } else if (resp.statusCode() == 401) {
                        problem = base + ": HTTP 401: the query API refused this node's service token";
                        outcome = "unauthorized";
                        logRefusal(base);
                    } else if (resp.statusCode() != 200) {
                        problem = base + ": HTTP " + resp.statusCode();
                    } else {
                        try {
                            result = read.apply(NotifyJson.mapper().readTree(resp.body()));
                        } catch (Exception e) {
                            result = failure.apply(base + ": unreadable answer: " + e.getMessage());
                        }
                        problem = failed.test(result) ? base + ": failed answer" : null;
                    }
                    metrics.queryRequest(problem == null ? "ok" : outcome, System.nanoTime() - t0);
                    return problem == null ? CompletableFuture.completedFuture(result)
                            : attempt(request, read, failed, failure, start, tried + 1, problem);
                })
                .thenCompose(Function.identity());
    }

    private void logRefusal(URI base) {
        long now = System.nanoTime();
        long last = lastRefusalLog.get();
        if (now - last >= REFUSAL_LOG_INTERVAL_NANOS && lastRefusalLog.compareAndSet(last, now)) {
            LOG.error("the query API at {} answered 401 to this node's service token: resumes fail until "
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

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
