package io.notify.gateway.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Await;
import io.notify.protocol.frame.CloseCode;
import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.WeakReference;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An SSE stream on a real Undertow listener: once its headers and first frame are out, the
 * transport owns the socket and Undertow's exchange is garbage, while frames, the client's close
 * and the node's close still work.
 */
class SseTransportTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final BlockingQueue<SseTransport> transports = new LinkedBlockingQueue<>();
    private final BlockingQueue<Integer> closed = new LinkedBlockingQueue<>();
    private volatile WeakReference<HttpServerExchange> lastExchange;
    private Undertow server;
    private int port;

    @BeforeEach
    void start() {
        server = Undertow.builder()
                .addHttpListener(0, "127.0.0.1")
                .setHandler(this::stream)
                .build();
        server.start();
        port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    /** What SseEndpoint does once a client is admitted. */
    private void stream(HttpServerExchange exchange) {
        exchange.setStatusCode(200);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/event-stream; charset=UTF-8");
        exchange.setPersistent(false);
        SseTransport transport = new SseTransport(exchange, new OutboundQueue(16, 64 * 1024), Duration.ofHours(1),
                Duration.ofSeconds(1), SseStart.NONE);
        transport.listener(new Transport.Listener() {
            @Override
            public void written(OutboundFrame frame) {
            }

            @Override
            public void closed(int code) {
                SseTransportTest.this.closed.add(code);
            }
        });
        lastExchange = new WeakReference<>(exchange);
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> {
            transport.start(); // the retry hint first
            transports.add(transport);
        });
    }

    @Test
    void theStreamOutlivesUndertowsExchange() throws Exception {
        try (Client client = new Client(port)) {
            String head = client.readUntil("retry: 1000\n\n");
            assertTrue(head.startsWith("HTTP/1.1 200 "), head);
            assertTrue(head.toLowerCase().contains("connection: close"), "close-delimited: " + head);
            assertFalse(head.toLowerCase().contains("transfer-encoding"), "no chunked framing: " + head);
            SseTransport transport = transports.poll(10, TimeUnit.SECONDS);

            Await.until("Undertow's exchange collected", WAIT, () -> {
                System.gc();
                return lastExchange.get() == null;
            });

            transport.send(OutboundFrame.sseMeta("data: {\"t\":\"x\"}\n\n", null));
            assertEquals("data: {\"t\":\"x\"}\n\n", client.readUntil("\n\n"), "frames still go out, on the socket itself");
            assertTrue(transport.isOpen());
        }
        assertEquals(1006, closed.poll(10, TimeUnit.SECONDS), "the client's close is noticed without a write");
    }

    @Test
    void theNodesCloseEndsTheStreamWithItsCode() throws Exception {
        try (Client client = new Client(port)) {
            client.readUntil("retry: 1000\n\n");
            SseTransport transport = transports.poll(10, TimeUnit.SECONDS);
            transport.close(CloseCode.GOING_AWAY);
            String tail = client.readToEnd();
            assertTrue(tail.matches("retry: \\d+\n\n"), "a drain's spread hint, then the end: " + tail);
            assertEquals(CloseCode.GOING_AWAY.code(), closed.poll(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aClientThatSendsAfterItsRequestIsDisconnected() throws Exception {
        try (Client client = new Client(port)) {
            client.readUntil("retry: 1000\n\n");
            SseTransport transport = transports.poll(10, TimeUnit.SECONDS);
            Await.until("the stream taken over", WAIT, () -> {
                System.gc();
                return lastExchange.get() == null;
            });
            client.out.write("GET /again HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            client.out.flush();
            assertEquals("", client.readToEnd(), "the stream ends");
            assertEquals(1006, closed.poll(10, TimeUnit.SECONDS));
            assertFalse(transport.isOpen());
        }
    }

    /** A raw HTTP/1.1 client: the test reads the bytes exactly as they are on the wire. */
    private static final class Client implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        final OutputStream out;

        Client(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(10_000);
            in = socket.getInputStream();
            out = socket.getOutputStream();
            out.write("GET /v1/sse HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        /** Bytes up to and including {@code end}. */
        String readUntil(String end) throws IOException {
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            while (!read.toString(StandardCharsets.UTF_8).endsWith(end)) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("the stream ended after " + read.toString(StandardCharsets.UTF_8));
                }
                read.write(b);
            }
            return read.toString(StandardCharsets.UTF_8);
        }

        String readToEnd() throws IOException {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
