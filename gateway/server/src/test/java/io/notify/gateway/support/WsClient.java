package io.notify.gateway.support;

import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.PresenceResultFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.WelcomeFrame;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@code java.net.http} WebSocket client that collects frames and the close code. */
public final class WsClient implements WebSocket.Listener, AutoCloseable {

    public static final HttpClient HTTP = HttpClient.newHttpClient();

    private final BlockingQueue<ServerFrame> frames = new LinkedBlockingQueue<>();
    private final CompletableFuture<Integer> closeCode = new CompletableFuture<>();
    private final StringBuilder partial = new StringBuilder();
    private WebSocket socket;

    /** Connects with a bearer token and the notify.v1 subprotocol. */
    public static WsClient connect(URI uri, String token) {
        return connect(uri, Map.of("Authorization", "Bearer " + token));
    }

    public static WsClient connect(URI uri, Map<String, String> headers) {
        return connect(HTTP, uri, headers);
    }

    /** Connects through {@code http} (e.g. one whose TLS context trusts a test certificate, for wss://). */
    public static WsClient connect(HttpClient http, URI uri, Map<String, String> headers) {
        WsClient client = new WsClient();
        WebSocket.Builder b = http.newWebSocketBuilder().subprotocols("notify.v1").connectTimeout(Duration.ofSeconds(5));
        headers.forEach(b::header);
        try {
            client.socket = b.buildAsync(uri, client).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("handshake failed: " + e, e);
        }
        return client;
    }

    /**
     * 101 when a handshake with {@code token} is accepted (the welcome frame is read, then the
     * connection closed), else the HTTP status that refused it.
     */
    public static int handshakeStatus(URI uri, String token) {
        WsClient client;
        try {
            client = connect(uri, token);
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof ExecutionException x && x.getCause() instanceof WebSocketHandshakeException h) {
                return h.getResponse().statusCode();
            }
            throw e;
        }
        try (client) {
            ServerFrame first = client.next(Duration.ofSeconds(10));
            if (!(first instanceof WelcomeFrame)) {
                throw new AssertionError("accepted, but the first frame is " + first);
            }
            return 101;
        }
    }

    /** The HTTP status of a refused handshake (fails if the handshake succeeded). */
    public static int refusedStatus(URI uri, Map<String, String> headers) {
        WebSocket.Builder b = HTTP.newWebSocketBuilder().subprotocols("notify.v1").connectTimeout(Duration.ofSeconds(5));
        headers.forEach(b::header);
        try {
            WebSocket ws = b.buildAsync(uri, new WebSocket.Listener() { }).get(10, TimeUnit.SECONDS);
            ws.abort();
            throw new AssertionError("handshake was accepted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException h) {
                return h.getResponse().statusCode();
            }
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            frames.add(FrameCodec.v1().decodeServerFrame(partial.toString()));
            partial.setLength(0);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closeCode.complete(statusCode);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closeCode.complete(1006);
    }

    public void send(String text) {
        socket.sendText(text, true).orTimeout(5, TimeUnit.SECONDS).join();
    }

    public void resumeLive() {
        send("{\"t\":\"resume\",\"streams\":[]}");
    }

    public void resume(String stream, String epoch, long seq) {
        send("{\"t\":\"resume\",\"streams\":[{\"stream\":\"" + stream + "\",\"epoch\":\"" + epoch + "\",\"seq\":" + seq + "}]}");
    }

    /** Sends {@code {"t":"subscribe","stream":...}}, from a position when epoch is not null. */
    public void subscribe(String stream, String epoch, long seq) {
        send("{\"t\":\"subscribe\",\"stream\":\"" + stream + "\"" + (epoch == null ? "" : ",\"epoch\":\"" + epoch
                + "\",\"seq\":" + seq) + "}");
    }

    public void subscribe(String stream) {
        subscribe(stream, null, 0);
    }

    public void unsubscribe(String stream) {
        send("{\"t\":\"unsubscribe\",\"stream\":\"" + stream + "\"}");
    }

    /** The next frame that is not a ping, which must be a {@code type}. */
    public <T extends ServerFrame> T expect(Class<T> type, Duration timeout) {
        ServerFrame f = next(timeout);
        while (f instanceof io.notify.protocol.frame.PingFrame) {
            f = next(timeout);
        }
        if (!type.isInstance(f)) {
            throw new AssertionError("expected a " + type.getSimpleName() + ", got " + f);
        }
        return type.cast(f);
    }

    /** The next frame, waiting at most {@code timeout}. */
    public ServerFrame next(Duration timeout) {
        try {
            ServerFrame f = frames.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (f == null) {
                throw new AssertionError("no frame within " + timeout.toMillis() + " ms");
            }
            return f;
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The next {@code n} frames other than pings, each within {@code timeout}. */
    public List<ServerFrame> frames(int n, Duration timeout) {
        List<ServerFrame> out = new ArrayList<>();
        while (out.size() < n) {
            ServerFrame f = next(timeout);
            if (!(f instanceof PingFrame)) {
                out.add(f);
            }
        }
        return out;
    }

    /** The next {@code n} event frames (other frames such as pings are skipped). */
    public List<EventFrame> events(int n, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<EventFrame> out = new ArrayList<>();
        while (out.size() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("got " + out.size() + " of " + n + " events: " + out);
            }
            ServerFrame f;
            try {
                f = next(Duration.ofNanos(left));
            } catch (AssertionError timedOut) {
                throw new AssertionError("got " + out.size() + " of " + n + " events within " + timeout.toMillis() + " ms: " + out);
            }
            if (f instanceof EventFrame e) {
                out.add(e);
            }
        }
        return out;
    }

    /** The next event frame of {@code type}, skipping other events and frames; fails after {@code timeout}. */
    public EventFrame nextEvent(String type, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            EventFrame e = events(1, Duration.ofNanos(Math.max(1, deadline - System.nanoTime()))).get(0);
            if (e.type().equals(type)) {
                return e;
            }
        }
        throw new AssertionError("no " + type + " event within " + timeout.toMillis() + " ms");
    }

    /** Asks for a page of {@code stream}'s presence; its answer, after the room's own presence events and pings. */
    public PresenceResultFrame presence(String stream, String after, Integer limit, Duration timeout) {
        send("{\"t\":\"presence\",\"stream\":\"" + stream + "\"" + (after == null ? "" : ",\"after\":\"" + after + "\"")
                + (limit == null ? "" : ",\"limit\":" + limit) + "}");
        while (true) {
            ServerFrame f = next(timeout);
            if (f instanceof PresenceResultFrame r) {
                return r;
            }
            if (!(f instanceof EventFrame e && e.type().startsWith("presence.") || f instanceof io.notify.protocol.frame.PingFrame)) {
                throw new AssertionError("expected a presence_result, got " + f);
            }
        }
    }

    /** The event frames received and not read yet, without waiting (e.g. everything a closed connection got). */
    public List<EventFrame> receivedEvents() {
        List<ServerFrame> all = new ArrayList<>();
        frames.drainTo(all);
        return all.stream().filter(EventFrame.class::isInstance).map(EventFrame.class::cast).toList();
    }

    /** True when no frame other than ping arrives within {@code quiet}. */
    public boolean quiet(Duration quiet) {
        long deadline = System.nanoTime() + quiet.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return true;
                }
                ServerFrame f = frames.poll(left, TimeUnit.NANOSECONDS);
                if (f != null && !(f instanceof io.notify.protocol.frame.PingFrame)) {
                    return false;
                }
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    public int closeCode(Duration timeout) {
        return closeCode.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).join();
    }

    public boolean isClosed() {
        return closeCode.isDone();
    }

    @Override
    public void close() {
        if (socket != null && !socket.isOutputClosed()) {
            socket.sendClose(1000, "bye").orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
    }
}
