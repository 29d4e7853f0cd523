package io.notify.client.internal;

import io.notify.client.TransportMode;
import io.notify.client.reconnect.Disconnect;
import io.notify.protocol.frame.ClientFrame;
import io.notify.protocol.frame.FrameCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@code notify.v1} Server-Sent Events stream on {@code java.net.http}: {@code GET /v1/sse} with
 * the token as a bearer header and the resume position as {@code Last-Event-ID}. Lines are pulled
 * one at a time and the next is requested only after the loop handled the current message, so a
 * slow listener slows reading. A non-200 answer is a {@code Refused(status, Retry-After)}; the end
 * of the stream is a {@code StreamEnded} carrying the drain's {@code retry:} when that was the last
 * thing the gateway wrote; a broken stream is {@code Unreachable}.
 */
public final class SseTransport implements Transport, Flow.Subscriber<String> {

    private final TransportEvents events;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final SseParser parser;
    private volatile Flow.Subscription subscription;
    private volatile boolean closing;
    private volatile CompletableFuture<?> exchange;
    // the three below are touched by the subscriber callbacks only, which java.net.http serialises
    private long lastRetry = -1;
    private boolean retryWasLast;
    private boolean dispatched;

    private SseTransport(TransportEvents events) {
        this.events = events;
        this.parser = new SseParser(new SseParser.Sink() {
            @Override
            public void message(String id, String data) {
                retryWasLast = false;
                deliver(data);
            }

            @Override
            public void retry(long millis) {
                lastRetry = millis;
                retryWasLast = true;
            }
        }, FrameCodec.MAX_SERVER_FRAME_CHARS);
    }

    /** Starts the request; the outcome arrives through {@code events}. */
    public static SseTransport connect(HttpClient http, URI uri, String token, Optional<String> lastEventId,
                                       TransportEvents events) {
        SseTransport t = new SseTransport(events);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .header("Accept", "text/event-stream")
                .header("Cache-Control", "no-cache")
                .header("Authorization", "Bearer " + token)
                .GET(); // no request timeout: it could cut a healthy stream; the loop's welcome deadline bounds the wait
        lastEventId.ifPresent(id -> request.header("Last-Event-ID", id)); // a position, or the composite cursor of §8
        t.exchange = http.sendAsync(request.build(), t::handler);
        t.exchange.whenComplete((response, error) -> {
                    if (error != null) {
                        t.end(Handshakes.classify(error, false));
                    }
                });
        return t;
    }

    private HttpResponse.BodySubscriber<Void> handler(HttpResponse.ResponseInfo info) {
        if (info.statusCode() != 200) {
            end(new Disconnect.Refused(info.statusCode(), Handshakes.retryAfter(info.headers()), false, ""));
            return HttpResponse.BodySubscribers.replacing(null);
        }
        String type = info.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("text/event-stream")) {
            end(new Disconnect.Refused(200, Optional.empty(), false, "Content-Type '" + type + "', not an event stream"));
            return HttpResponse.BodySubscribers.replacing(null);
        }
        return HttpResponse.BodySubscribers.fromLineSubscriber(this);
    }

    @Override
    public TransportMode mode() {
        return TransportMode.SSE;
    }

    @Override
    public boolean canSend() {
        return false;
    }

    @Override
    public void send(ClientFrame frame) {
        // SSE is one way: no resume, ack or pong frames
    }

    @Override
    public void close() {
        closing = true;
        ended.set(true);
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
        CompletableFuture<?> e = exchange;
        if (e != null) {
            e.cancel(true); // a request still waiting for its response headers
        }
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (closing) {
            s.cancel();
        } else {
            s.request(1);
        }
    }

    @Override
    public void onNext(String line) {
        dispatched = false;
        try {
            parser.line(line);
        } catch (IllegalStateException e) {
            subscription.cancel();
            end(new Disconnect.BadFrame(e.getMessage()));
            return;
        }
        if (!dispatched) {
            subscription.request(1); // a message in progress: the loop's completion requests the next line instead
        }
    }

    private void deliver(String data) {
        dispatched = true;
        events.frame(data).whenComplete((v, e) -> {
            if (!closing) {
                subscription.request(1);
            }
        });
    }

    @Override
    public void onError(Throwable error) {
        end(new Disconnect.Unreachable("stream broke: " + Handshakes.rootMessage(error)));
    }

    @Override
    public void onComplete() {
        end(new Disconnect.StreamEnded(retryWasLast && lastRetry >= 0 ? Optional.of(Duration.ofMillis(lastRetry)) : Optional.empty()));
    }

    private void end(Disconnect why) {
        if (ended.compareAndSet(false, true)) {
            events.ended(why);
        }
    }
}
