package io.notify.client.support;

import io.notify.client.NotifyClient;
import io.notify.client.NotifyClientBuilder;
import io.notify.client.NotifyListener;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.StreamId;
import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import io.undertow.websockets.WebSocketConnectionCallback;
import io.undertow.websockets.WebSocketProtocolHandshakeHandler;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedTextMessage;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import io.undertow.websockets.core.protocol.version13.Hybi13Handshake;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A scriptable stand-in for a gateway (Undertow on port 0): each {@code /v1/ws} handshake is
 * refused with a queued status or upgraded to {@code notify.v1} and handed to the test as a
 * {@link Session}; each {@code /v1/sse} request is refused with a queued status or handed over as an
 * {@link SseRequest} whose response the test writes byte by byte; each request under
 * {@code /v1/inbox} is recorded and answered with the next queued {@link InboxAnswer} (by default
 * 200 with zero counts to a GET, 202 to a POST); each under {@code /v1/push} likewise, from
 * {@link #pushRequests} and {@link #pushAnswers} (by default an empty listing, no Web Push config,
 * 201 with a registration of the id {@link #PUSH_ID} to a POST, 204 to a DELETE); each to
 * {@code /v1/preferences} likewise, from {@link #preferenceRequests} and {@link #preferenceAnswers} (by
 * default 200 with no preferences to a GET or PUT, 204 to a DELETE). For wire-level
 * behaviour the real gateway cannot be made to show on demand (close codes, refusals, silence, a
 * proxy without WebSocket, inbox and push errors).
 */
public final class FakeGateway implements AutoCloseable {

    /** A refusal: HTTP status and optional Retry-After seconds. */
    public record Refusal(int status, String retryAfter) {
    }

    /** One handshake as the gateway saw it; {@code query} is the raw query string ("" without one). */
    public record Handshake(String path, String query, String authorization, String lastEventId, long atNanos) {
    }

    /** One inbox API request as the gateway saw it. */
    public record InboxRequest(String method, String path, String query, String authorization, String contentType,
                               String body, long atNanos) {
    }

    /** A scripted inbox answer; {@code retryAfter} may be null. */
    public record InboxAnswer(int status, String contentType, String body, String retryAfter) {
        public static InboxAnswer problem(int status, String type, String detail, String retryAfter) {
            return new InboxAnswer(status, "application/problem+json", "{\"type\":\"urn:notify:problem:" + type
                    + "\",\"title\":\"x\",\"status\":" + status + ",\"detail\":\"" + detail + "\"}", retryAfter);
        }

        public static InboxAnswer json(int status, String body) {
            return new InboxAnswer(status, "application/json", body, null);
        }
    }

    public final Queue<Refusal> wsRefusals = new ConcurrentLinkedQueue<>();
    public final List<Handshake> handshakes = new CopyOnWriteArrayList<>();
    public final Queue<InboxAnswer> inboxAnswers = new ConcurrentLinkedQueue<>();
    public final BlockingQueue<InboxRequest> inboxRequests = new LinkedBlockingQueue<>();
    /** The id of the registration a POST under /v1/push is answered with by default. */
    public static final String PUSH_ID = "pr_FakeGatewayFakeGateway";
    public final Queue<InboxAnswer> pushAnswers = new ConcurrentLinkedQueue<>();
    public final BlockingQueue<InboxRequest> pushRequests = new LinkedBlockingQueue<>();
    public final Queue<InboxAnswer> preferenceAnswers = new ConcurrentLinkedQueue<>();
    public final BlockingQueue<InboxRequest> preferenceRequests = new LinkedBlockingQueue<>();
    private final BlockingQueue<Session> sessions = new LinkedBlockingQueue<>();
    private final BlockingQueue<SseRequest> sseRequests = new LinkedBlockingQueue<>();
    private final List<SseRequest> openStreams = new CopyOnWriteArrayList<>();
    private final Undertow server;

    public FakeGateway() {
        WebSocketProtocolHandshakeHandler upgrade = new WebSocketProtocolHandshakeHandler(
                List.of(new Hybi13Handshake(Set.of(WelcomeFrame.PROTOCOL_V1), false)),
                (WebSocketConnectionCallback) (exchange, channel) -> sessions.add(new Session(channel)));
        this.server = Undertow.builder()
                .addHttpListener(0, "127.0.0.1")
                .setHandler(Handlers.path()
                        .addExactPath("/v1/ws", exchange -> {
                            handshakes.add(handshake(exchange));
                            Refusal r = wsRefusals.poll();
                            if (r != null) {
                                refuse(exchange, r);
                            } else {
                                upgrade.handleRequest(exchange);
                            }
                        })
                        .addExactPath("/v1/sse", this::sse)
                        .addPrefixPath("/v1/inbox", this::inbox)
                        .addPrefixPath("/v1/push", this::push)
                        .addPrefixPath("/v1/preferences", this::preferences))
                .build();
        server.start();
    }

    /** A client of this gateway: token {@code t1}, {@code listener}, backoff 10..200 ms, prompt reconnects within 20 ms. */
    public NotifyClientBuilder client(NotifyListener listener) {
        return NotifyClient.builder().gateways(List.of(url())).token("t1").listener(listener)
                .backoff(Duration.ofMillis(10), Duration.ofMillis(200)).promptReconnectWindow(Duration.ofMillis(20));
    }

    /** The {@code welcome} of a connection serving {@code u:42}, encoded. */
    public static String welcome() {
        return FrameCodec.v1().encode(WelcomeFrame.v1("gw-fake", "c-1", List.of(StreamId.forUser("42")), 25_000,
                System.currentTimeMillis()));
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort());
    }

    private static Handshake handshake(HttpServerExchange exchange) {
        return new Handshake(exchange.getRequestPath(), exchange.getQueryString(), exchange.getRequestHeaders().getFirst("Authorization"),
                exchange.getRequestHeaders().getFirst("Last-Event-ID"), System.nanoTime());
    }

    private static void refuse(HttpServerExchange exchange, Refusal r) {
        exchange.setStatusCode(r.status());
        if (r.retryAfter() != null) {
            exchange.getResponseHeaders().put(new HttpString("Retry-After"), r.retryAfter());
        }
        exchange.endExchange();
    }

    private void sse(HttpServerExchange exchange) throws InterruptedException {
        if (exchange.isInIoThread()) {
            exchange.dispatch(this::sse);
            return;
        }
        handshakes.add(handshake(exchange));
        exchange.setStatusCode(200);
        exchange.getResponseHeaders().put(new HttpString("Content-Type"), "text/event-stream; charset=UTF-8");
        exchange.startBlocking();
        SseRequest request = new SseRequest(exchange.getRequestHeaders().getFirst("Last-Event-ID"), exchange.getOutputStream());
        openStreams.add(request);
        sseRequests.add(request);
        request.ended.await(60, TimeUnit.SECONDS); // returning ends the response: the stream's end
    }

    private void inbox(HttpServerExchange exchange) throws IOException {
        if (exchange.isInIoThread()) {
            exchange.dispatch(this::inbox);
            return;
        }
        api(exchange, inboxRequests, inboxAnswers, method -> method.equals("POST")
                ? InboxAnswer.json(202, "{\"stream\":\"u:42\",\"accepted\":true}")
                : InboxAnswer.json(200, "{\"unread\":0,\"unseen\":0,\"version\":0,\"head\":null}"));
    }

    private void push(HttpServerExchange exchange) throws IOException {
        if (exchange.isInIoThread()) {
            exchange.dispatch(this::push);
            return;
        }
        boolean config = exchange.getRequestPath().equals("/v1/push/config");
        api(exchange, pushRequests, pushAnswers, method -> switch (method) {
            case "POST" -> InboxAnswer.json(201, "{\"id\":\"" + PUSH_ID + "\",\"provider\":\"fcm\",\"createdAt\":1764410100000}");
            case "DELETE" -> new InboxAnswer(204, "application/json", "", null);
            default -> InboxAnswer.json(200, config ? "{}" : "{\"registrations\":[]}");
        });
    }

    private void preferences(HttpServerExchange exchange) throws IOException {
        if (exchange.isInIoThread()) {
            exchange.dispatch(this::preferences);
            return;
        }
        api(exchange, preferenceRequests, preferenceAnswers, method -> method.equals("DELETE")
                ? new InboxAnswer(204, "application/json", "", null)
                : InboxAnswer.json(200, "{\"types\":{},\"categories\":{}}"));
    }

    /** Records a request of the user API and answers it with the next queued answer, else the default for its method. */
    private static void api(HttpServerExchange exchange, BlockingQueue<InboxRequest> requests, Queue<InboxAnswer> answers,
                            java.util.function.Function<String, InboxAnswer> defaults) throws IOException {
        exchange.startBlocking();
        String body = new String(exchange.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String method = exchange.getRequestMethod().toString();
        requests.add(new InboxRequest(method, exchange.getRequestPath(), exchange.getQueryString(),
                exchange.getRequestHeaders().getFirst("Authorization"), exchange.getRequestHeaders().getFirst("Content-Type"),
                body, System.nanoTime()));
        InboxAnswer a = answers.poll();
        if (a == null) {
            a = defaults.apply(method);
        }
        exchange.setStatusCode(a.status());
        exchange.getResponseHeaders().put(new HttpString("Content-Type"), a.contentType());
        if (a.retryAfter() != null) {
            exchange.getResponseHeaders().put(new HttpString("Retry-After"), a.retryAfter());
        }
        if (!a.body().isEmpty()) {
            exchange.getOutputStream().write(a.body().getBytes(StandardCharsets.UTF_8));
        }
        exchange.endExchange();
    }

    /** The next inbox request. */
    public InboxRequest nextInbox(Duration timeout) throws InterruptedException {
        return next(inboxRequests, "inbox", timeout);
    }

    /** The next push API request. */
    public InboxRequest nextPush(Duration timeout) throws InterruptedException {
        return next(pushRequests, "push", timeout);
    }

    /** The next preferences request. */
    public InboxRequest nextPreferences(Duration timeout) throws InterruptedException {
        return next(preferenceRequests, "preferences", timeout);
    }

    private static InboxRequest next(BlockingQueue<InboxRequest> requests, String api, Duration timeout) throws InterruptedException {
        InboxRequest r = requests.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) {
            throw new AssertionError("no " + api + " request within " + timeout.toMillis() + " ms");
        }
        return r;
    }

    /** The next upgraded WebSocket connection. */
    public Session nextSession(Duration timeout) throws InterruptedException {
        Session s = sessions.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (s == null) {
            throw new AssertionError("no WebSocket connection within " + timeout.toMillis() + " ms");
        }
        return s;
    }

    /** True when no WebSocket connection arrives within {@code quiet} (asserting an absence). */
    public boolean noSessionWithin(Duration quiet) throws InterruptedException {
        return sessions.poll(quiet.toMillis(), TimeUnit.MILLISECONDS) == null;
    }

    public SseRequest nextSse(Duration timeout) throws InterruptedException {
        SseRequest r = sseRequests.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) {
            throw new AssertionError("no SSE request within " + timeout.toMillis() + " ms");
        }
        return r;
    }

    @Override
    public void close() {
        openStreams.forEach(SseRequest::end);
        server.stop();
    }

    /** One upgraded connection: what the client sent, and the means to answer. */
    public static final class Session {
        private final WebSocketChannel channel;
        private final BlockingQueue<String> received = new LinkedBlockingQueue<>();

        Session(WebSocketChannel channel) {
            this.channel = channel;
            channel.getReceiveSetter().set(new AbstractReceiveListener() {
                @Override
                protected void onFullTextMessage(WebSocketChannel ch, BufferedTextMessage message) {
                    received.add(message.getData());
                }
            });
            channel.resumeReceives();
        }

        public void send(String frame) throws IOException {
            WebSockets.sendTextBlocking(frame, channel);
        }

        public void close(int code, String reason) {
            WebSockets.sendClose(code, reason, channel, null);
        }

        /** The next frame the client sent. */
        public String next(Duration timeout) throws InterruptedException {
            String f = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (f == null) {
                throw new AssertionError("the client sent nothing within " + timeout.toMillis() + " ms");
            }
            return f;
        }

        public boolean isOpen() {
            return channel.isOpen() && !channel.isCloseFrameReceived();
        }
    }

    /** One SSE request: its Last-Event-ID, and its response body. */
    public static final class SseRequest {
        public final String lastEventId;
        private final OutputStream out;
        private final CountDownLatch ended = new CountDownLatch(1);

        SseRequest(String lastEventId, OutputStream out) {
            this.lastEventId = lastEventId;
            this.out = out;
        }

        /** Writes raw event-stream text (lines and blank lines) and flushes it. */
        public void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        /** Ends the response: the client sees the stream end. */
        public void end() {
            ended.countDown();
        }
    }
}
