package io.notify.gateway.support;

import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.ServerFrame;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** An SSE client: parses the stream into messages (id, data, retry) on a reader thread. */
public final class SseClient implements AutoCloseable {

    private final java.util.concurrent.atomic.AtomicInteger comments = new java.util.concurrent.atomic.AtomicInteger();

    /** One SSE message; {@code id} is null when the message had no id line. */
    public record Message(String id, String data, Long retry) {
        public ServerFrame frame() {
            return data == null ? null : FrameCodec.v1().decodeServerFrame(data);
        }
    }

    private final BlockingQueue<Message> messages = new LinkedBlockingQueue<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final int status;
    private final HttpResponse<Stream<String>> response;
    private final Stream<String> lines;

    private SseClient(HttpResponse<Stream<String>> response) {
        this.response = response;
        this.status = response.statusCode();
        this.lines = response.body();
        Thread reader = new Thread(this::read, "sse-test-reader");
        reader.setDaemon(true);
        reader.start();
    }

    public static SseClient connect(URI uri, Map<String, String> headers) {
        return connect(WsClient.HTTP, uri, headers);
    }

    /** Connects through {@code http} (e.g. one whose TLS context trusts a test certificate). */
    public static SseClient connect(java.net.http.HttpClient http, URI uri, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream").GET();
        headers.forEach(b::header);
        try {
            return new SseClient(http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void read() {
        String id = null;
        String data = null;
        Long retry = null;
        boolean any = false;
        try {
            for (var it = lines.iterator(); it.hasNext(); ) {
                String line = it.next();
                if (line.isEmpty()) {
                    if (any) {
                        messages.add(new Message(id, data, retry));
                    }
                    id = null;
                    data = null;
                    retry = null;
                    any = false;
                } else if (line.startsWith(":")) {
                    comments.incrementAndGet(); // a keep-alive
                    continue;
                } else {
                    int colon = line.indexOf(':');
                    String field = colon < 0 ? line : line.substring(0, colon);
                    String value = colon < 0 ? "" : line.substring(colon + 1).startsWith(" ")
                            ? line.substring(colon + 2) : line.substring(colon + 1);
                    any = true;
                    switch (field) {
                        case "id" -> id = value;
                        case "data" -> data = value;
                        case "retry" -> retry = Long.parseLong(value);
                        default -> { }
                    }
                }
            }
        } catch (RuntimeException e) {
            // the stream was closed
        } finally {
            ended.complete(null);
        }
    }

    /** Comment lines received so far (the gateway's keep-alives). */
    public int comments() {
        return comments.get();
    }

    public int status() {
        return status;
    }

    public HttpResponse<Stream<String>> response() {
        return response;
    }

    public Message next(Duration timeout) {
        try {
            Message m = messages.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (m == null) {
                throw new AssertionError("no SSE message within " + timeout.toMillis() + " ms");
            }
            return m;
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The next message that carries a frame other than a ping (comments and pings are skipped), each within {@code timeout}. */
    public Message nextFrame(Duration timeout) {
        Message m = next(timeout);
        while (m.data() == null || m.frame() instanceof PingFrame) {
            m = next(timeout);
        }
        return m;
    }

    /** The next {@code n} messages carrying event frames, with their ids. */
    public List<Message> events(int n, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Message> out = new ArrayList<>();
        while (out.size() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("got " + out.size() + " of " + n + " SSE events");
            }
            Message m = next(Duration.ofNanos(left));
            if (m.data() != null && m.frame() instanceof EventFrame) {
                out.add(m);
            }
        }
        return out;
    }

    /** Every message received and not yet taken, without waiting. */
    public List<Message> received() {
        List<Message> out = new ArrayList<>();
        messages.drainTo(out);
        return out;
    }

    /** Waits for the server to end the stream. */
    public void awaitEnd(Duration timeout) {
        ended.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).join();
    }

    public boolean hasEnded() {
        return ended.isDone();
    }

    @Override
    public void close() {
        lines.close();
    }
}
