package io.notify.gateway.resume;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.common.auth.ServiceToken;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.query.QueryApiClient;
import io.notify.protocol.NotifyJson;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;

/**
 * The query API's events endpoints as a {@link ResumeSource}, over the node's {@link QueryApiClient}
 * (which tries the base URLs in turn and presents the service token). An answer other than a 200,
 * an unreadable one, or one that is a failure for every stream it names, moves on to the next URL;
 * when all failed the stage completes with {@link FetchResult.Failed} (never exceptionally, never later
 * than {@code urls × timeout}). Several streams use the batch endpoint in one request.
 */
public final class HttpResumeSource implements ResumeSource {

    private final QueryApiClient client;

    public HttpResumeSource(QueryApiClient client) {
        this.client = client;
    }

    public HttpResumeSource(List<URI> baseUrls, ServiceToken token, Duration timeout, GatewayMetrics metrics) {
        this(baseUrls, token, timeout, metrics, null);
    }

    /** A source with a client of its own; an https base URL is trusted by {@code tls} (null: the JVM's default trust store). */
    public HttpResumeSource(List<URI> baseUrls, ServiceToken token, Duration timeout, GatewayMetrics metrics, SSLContext tls) {
        this(new QueryApiClient(baseUrls, token, timeout, metrics, tls));
    }

    @Override
    public CompletionStage<FetchResult> fetch(FetchRequest request) {
        return call(base -> HttpRequest.newBuilder(QueryApiCodec.eventsUri(base, request)).GET(),
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
        return call(base -> HttpRequest.newBuilder(QueryApiCodec.batchUri(base))
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

    /** A 200 read by {@code read}; anything else, or a result {@code failed} says is one, tries the next URL. */
    private <T> CompletionStage<T> call(Function<URI, HttpRequest.Builder> request, Function<JsonNode, T> read,
                                        Predicate<T> failed, Function<String, T> failure) {
        return client.call(request, response -> {
            if (response.statusCode() != 200) {
                return QueryApiClient.next("HTTP " + response.statusCode());
            }
            T result = read.apply(NotifyJson.mapper().readTree(response.body()));
            return failed.test(result) ? QueryApiClient.next("failed answer") : QueryApiClient.done(result);
        }, failure);
    }

    @Override
    public void close() {
        client.close();
    }
}
