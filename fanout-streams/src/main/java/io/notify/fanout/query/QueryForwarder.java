package io.notify.fanout.query;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Forwards a query to the instance that owns the stream. Asynchronous, with a timeout; the
 * forwarded request carries {@link #FORWARDED_HEADER} so the owner answers from its own stores
 * or says 503 — a request is forwarded at most once, so two instances that disagree about
 * ownership during a rebalance cannot bounce it between them. It also carries the caller's own
 * {@code Authorization} header, which the owner checks again: during a token rotation the caller
 * sends the token every instance accepts, so a forward never depends on which token this
 * instance would have picked.
 */
public final class QueryForwarder {

    public static final String FORWARDED_HEADER = "X-Notify-Forwarded";

    /** The owner's answer, passed through as is. */
    public record Forwarded(int status, String contentType, String retryAfter, byte[] body) {
    }

    private final HttpClient http;
    private final Duration timeout;
    private final String scheme;

    public QueryForwarder(Duration timeout) {
        this(timeout, null);
    }

    /** Forwards over HTTPS trusting {@code tls} when it is not null (the instances' query API speaks TLS). */
    public QueryForwarder(Duration timeout, SSLContext tls) {
        this.timeout = timeout;
        this.scheme = tls == null ? "http" : "https";
        HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout);
        this.http = (tls == null ? b : b.sslContext(tls)).build();
    }

    /** GET {@code pathAndQuery} of {@code owner}, presenting {@code authorization} (the caller's header). */
    public CompletableFuture<Forwarded> get(HostInfo owner, String pathAndQuery, String authorization) {
        return send(HttpRequest.newBuilder(uri(owner, pathAndQuery)).GET(), authorization);
    }

    /** POST {@code json} to {@code path} of {@code owner}, presenting {@code authorization} (the caller's header). */
    public CompletableFuture<Forwarded> post(HostInfo owner, String path, byte[] json, String authorization) {
        return send(HttpRequest.newBuilder(uri(owner, path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json)), authorization);
    }

    private CompletableFuture<Forwarded> send(HttpRequest.Builder request, String authorization) {
        HttpRequest forwarded = request.timeout(timeout).header(FORWARDED_HEADER, "1")
                .header("Authorization", authorization).build();
        return http.sendAsync(forwarded, HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(r -> new Forwarded(r.statusCode(),
                        r.headers().firstValue("content-type").orElse("application/json"),
                        r.headers().firstValue("retry-after").orElse(null), r.body()));
    }

    private URI uri(HostInfo owner, String pathAndQuery) {
        return URI.create(scheme + "://" + owner.host() + ":" + owner.port() + pathAndQuery);
    }
}
