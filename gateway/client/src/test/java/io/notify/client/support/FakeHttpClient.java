package io.notify.client.support;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * An {@link HttpClient} that never touches the network, for unit tests of the SDK's HTTP calls
 * ({@code NotifyClientBuilder.httpClient}): every request is recorded as a {@link Sent} (method, URI,
 * headers, body) and answered by the next queued {@link Answer}, else by {@link #fallback}. The
 * answer's body goes through the request's own body handler, as the real client's would.
 */
public final class FakeHttpClient extends HttpClient {

    /** One request as it would have gone out. */
    public record Sent(String method, URI uri, HttpHeaders headers, String body) {
        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        /** {@code METHOD path} (with the query, if any). */
        public String line() {
            return method + " " + uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        }
    }

    /** A scripted answer; {@code headers} as name → value. */
    public record Answer(int status, Map<String, String> headers, String body) {
        public static Answer json(int status, String body) {
            return new Answer(status, Map.of("Content-Type", "application/json"), body);
        }

        public static Answer problem(int status, String type, String detail) {
            return new Answer(status, Map.of("Content-Type", "application/problem+json"), "{\"type\":\"urn:notify:problem:" + type
                    + "\",\"title\":\"x\",\"status\":" + status + ",\"detail\":\"" + detail + "\"}");
        }

        public static Answer noContent() {
            return new Answer(204, Map.of(), "");
        }
    }

    public final List<Sent> sent = new CopyOnWriteArrayList<>();
    public final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
    /** What answers a request when no answer is queued. */
    public volatile Function<Sent, Answer> fallback = s -> Answer.json(200, "{}");

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        Sent s = new Sent(request.method(), request.uri(), request.headers(), body(request));
        sent.add(s);
        Answer a = answers.poll();
        if (a == null) {
            a = fallback.apply(s);
        }
        Map<String, List<String>> map = new java.util.HashMap<>();
        a.headers().forEach((k, v) -> map.put(k, List.of(v)));
        HttpHeaders headers = HttpHeaders.of(map, (k, v) -> true);
        int status = a.status();
        HttpResponse.BodySubscriber<T> subscriber = handler.apply(new HttpResponse.ResponseInfo() {
            @Override
            public int statusCode() {
                return status;
            }

            @Override
            public HttpHeaders headers() {
                return headers;
            }

            @Override
            public Version version() {
                return Version.HTTP_1_1;
            }
        });
        subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
            }

            @Override
            public void cancel() {
            }
        });
        subscriber.onNext(List.of(ByteBuffer.wrap(a.body().getBytes(StandardCharsets.UTF_8))));
        subscriber.onComplete();
        return subscriber.getBody().toCompletableFuture().thenApply(body -> new Response<>(request, status, headers, body));
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                            HttpResponse.PushPromiseHandler<T> push) {
        return sendAsync(request, handler);
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException {
        return sendAsync(request, handler).join();
    }

    /** The request's body as text ("" without one). */
    private static String body(HttpRequest request) {
        if (request.bodyPublisher().isEmpty()) {
            return "";
        }
        List<ByteBuffer> parts = new ArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        request.bodyPublisher().get().subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer item) {
                parts.add(item);
            }

            @Override
            public void onError(Throwable throwable) {
                done.completeExceptionally(throwable);
            }

            @Override
            public void onComplete() {
                done.complete(null);
            }
        });
        done.join();
        StringBuilder text = new StringBuilder();
        for (ByteBuffer b : parts) {
            text.append(StandardCharsets.UTF_8.decode(b));
        }
        return text.toString();
    }

    private record Response<T>(HttpRequest request, int statusCode, HttpHeaders headers, T body) implements HttpResponse<T> {
        @Override
        public Optional<HttpResponse<T>> previousResponse() {
            return Optional.empty();
        }

        @Override
        public Optional<SSLSession> sslSession() {
            return Optional.empty();
        }

        @Override
        public URI uri() {
            return request.uri();
        }

        @Override
        public Version version() {
            return Version.HTTP_1_1;
        }
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return Optional.empty();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return Optional.empty();
    }

    @Override
    public Redirect followRedirects() {
        return Redirect.NEVER;
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return Optional.empty();
    }

    @Override
    public SSLContext sslContext() {
        return null;
    }

    @Override
    public SSLParameters sslParameters() {
        return null;
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return Optional.empty();
    }

    @Override
    public Version version() {
        return Version.HTTP_1_1;
    }

    @Override
    public Optional<Executor> executor() {
        return Optional.empty();
    }
}
