package io.notify.client.internal;

import io.notify.client.InboxCounts;
import io.notify.client.InboxPage;
import io.notify.client.NotifyClientException;
import io.notify.protocol.inbox.ReceiptKind;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The inbox API's requests ({@code /v1/inbox}, docs/inbox-openapi.yaml) on {@code java.net.http},
 * asynchronous end to end, to the gateway the client currently uses: the token from {@link Tokens}
 * as {@code Authorization: Bearer}; a 401 replaced once by a fresh token (not repeated when the
 * supplier hands back the same one); 503 and 429 repeated up to {@link #MAX_RETRIES} times after
 * their {@code Retry-After} (1 s without one, at most {@link #MAX_RETRY_DELAY}, plus up to a quarter
 * of jitter); any other unexpected status a {@link NotifyClientException} of kind {@code INBOX}
 * ({@link InboxJson#problem}). Futures complete on the HTTP client's threads. The push API
 * ({@code /v1/push}, {@link PushHttp}) and the user's preferences ({@code /v1/preferences},
 * {@link PreferencesHttp}) are called the same way ({@link #call}), with kinds {@code PUSH} and {@code PREFERENCES}.
 */
public final class InboxHttp {

    public static final int MAX_RETRIES = 3;
    static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);
    static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(1);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

    private final HttpClient http;
    private final Supplier<Endpoints> gateway;
    private final Tokens tokens;
    private final String device;
    private volatile boolean closed;

    InboxHttp(HttpClient http, Supplier<Endpoints> gateway, Tokens tokens, String device) {
        this.http = http;
        this.gateway = gateway;
        this.tokens = tokens;
        this.device = device;
    }

    public CompletableFuture<InboxPage> page(Long before, int limit, String archived) {
        String query = "?limit=" + limit + "&archived=" + archived + (before == null ? "" : "&before=" + before);
        return inbox("GET /v1/inbox", Endpoints.INBOX_PATH + query, null, 200, InboxJson::page);
    }

    public CompletableFuture<InboxCounts> counts() {
        return inbox("GET /v1/inbox/unread", Endpoints.INBOX_PATH + "/unread", null, 200, InboxJson::counts);
    }

    /** A mark: {@code upTo} or {@code ids}; {@code epoch} when the caller knows the history its seq belongs to. */
    public CompletableFuture<Void> mark(ReceiptKind kind, Long upTo, List<String> ids, String epoch) {
        String path = Endpoints.INBOX_PATH + "/" + kind.wireName();
        return inbox("POST " + path, path, InboxJson.mark(upTo, ids, epoch, device), 202, body -> null);
    }

    private <T> CompletableFuture<T> inbox(String name, String path, String body, int expected, Function<String, T> read) {
        return call(NotifyClientException.Kind.INBOX, body == null ? "GET" : "POST", name, path, body, expected, read);
    }

    /** Refuses every later request (the client closed); requests under way finish. */
    void close() {
        closed = true;
    }

    /**
     * One logical request of the gateway's user API ({@code /v1/inbox}, {@code /v1/push}, {@code /v1/preferences}): its
     * attempts, then the answer read by {@code read} (the body; "" for a 204) or the failure, a
     * {@link NotifyClientException} of {@code kind}. {@code body}: JSON, or null for none.
     */
    <T> CompletableFuture<T> call(NotifyClientException.Kind kind, String method, String name, String path, String body,
                                  int expected, Function<String, T> read) {
        CompletableFuture<T> out = new CompletableFuture<>();
        if (closed) {
            out.completeExceptionally(NotifyClientException.failed(kind, name, "the client is closed", null));
            return out;
        }
        tokens.current()
                .thenCompose(token -> attempt(method, path, body, token, false, 0))
                .whenComplete((response, error) -> {
                    if (error != null) {
                        Throwable t = Handshakes.unwrap(error);
                        out.completeExceptionally(t instanceof NotifyClientException n ? n
                                : NotifyClientException.failed(kind, name, Handshakes.rootMessage(t), t));
                    } else if (response.statusCode() != expected) {
                        out.completeExceptionally(InboxJson.problem(kind, name, response.statusCode(),
                                response.headers().firstValue("Content-Type"), response.body()));
                    } else {
                        try {
                            out.complete(read.apply(response.body()));
                        } catch (RuntimeException e) {
                            out.completeExceptionally(NotifyClientException.failed(kind, name, "unreadable answer: " + e.getMessage(), e));
                        }
                    }
                });
        return out;
    }

    private CompletableFuture<HttpResponse<String>> attempt(String method, String path, String body, String token, boolean refreshed,
                                                            int retries) {
        return http.sendAsync(request(method, path, body, token), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                .thenCompose(response -> {
                    int status = response.statusCode();
                    if (status == 401 && !refreshed) {
                        return tokens.fresh(token).thenCompose(fresh -> fresh.equals(token)
                                ? CompletableFuture.completedFuture(response) // the supplier cannot refresh: the 401 stands
                                : attempt(method, path, body, fresh, true, retries));
                    }
                    if ((status == 503 || status == 429) && retries < MAX_RETRIES) {
                        long delay = retryDelay(response).toMillis();
                        return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS))
                                .thenCompose(x -> attempt(method, path, body, token, refreshed, retries + 1));
                    }
                    return CompletableFuture.completedFuture(response);
                });
    }

    private HttpRequest request(String method, String path, String body, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(gateway.get().inbox(path))
                .timeout(REQUEST_TIMEOUT)
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json");
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        }
        return b.build();
    }

    /** Retry-After (default 1 s, at most 30 s) plus up to a quarter of it at random, so clients refused together spread out. */
    static Duration retryDelay(HttpResponse<?> response) {
        Duration d = Handshakes.retryAfter(response.headers()).orElse(DEFAULT_RETRY_DELAY);
        if (d.compareTo(MAX_RETRY_DELAY) > 0) {
            d = MAX_RETRY_DELAY;
        }
        return d.plusMillis(ThreadLocalRandom.current().nextLong(d.toMillis() / 4 + 1));
    }
}
