package io.notify.platform;

import io.notify.common.auth.ServiceToken;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * One fanout-streams query API (docs/query-api.md) as the kit's tests and tools call it directly —
 * reading inbox heads or looking for a lost event — with the platform's service token on every
 * request, as a gateway sends it. {@link Platform#queryApi()}, {@link PlatformStack#queryApi}.
 */
public final class QueryApi {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final URI base;
    private final String authorization;

    public QueryApi(URI base, String token) {
        this.base = base;
        this.authorization = new ServiceToken(token).authorization();
    }

    /** {@code GET pathAndQuery} (e.g. {@code /v1/streams/u:42/events?after=0}); any status is returned. */
    public HttpResponse<String> get(String pathAndQuery, Duration timeout) throws IOException, InterruptedException {
        return HTTP.send(request(pathAndQuery, timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code POST} of a JSON body (the batch form, {@code /v1/streams:events}); any status is returned. */
    public HttpResponse<String> post(String path, String json, Duration timeout) throws IOException, InterruptedException {
        return HTTP.send(request(path, timeout).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path, Duration timeout) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).header("Authorization", authorization);
    }

    @Override
    public String toString() {
        return "QueryApi[" + base + "]";
    }
}
