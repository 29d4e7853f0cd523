package io.notify.gateway.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.common.limits.TokenBucket;
import io.notify.devstack.Await;
import io.notify.gateway.support.RawWsClient;
import io.notify.protocol.frame.CloseCode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.StreamConnection;
import org.xnio.Xnio;
import org.xnio.XnioWorker;
import org.xnio.channels.AcceptingChannel;

/** The transport on a real loopback socket (XNIO, no Undertow): which close code a connection is counted with. */
@Timeout(30)
class WebSocketTransportTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private XnioWorker worker;
    private AcceptingChannel<StreamConnection> server;
    private final BlockingQueue<StreamConnection> accepted = new LinkedBlockingQueue<>();
    private StreamConnection connection; // the server side of the test's connection

    @BeforeEach
    void listen() throws IOException {
        worker = Xnio.getInstance().createWorker(OptionMap.create(Options.WORKER_IO_THREADS, 1));
        server = worker.createStreamConnectionServer(new InetSocketAddress("127.0.0.1", 0), ch -> {
            try {
                StreamConnection c = ch.accept();
                if (c != null) {
                    accepted.add(c);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, OptionMap.EMPTY);
        server.resumeAccepts();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
        worker.shutdownNow();
    }

    private int port() {
        return server.getLocalAddress(InetSocketAddress.class).getPort();
    }

    /** The server side of a new connection from {@code client}, framed by a transport that reports its close code. */
    private WebSocketTransport transport(CompletableFuture<Integer> closedWith) throws InterruptedException {
        connection = accepted.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        WsCodec codec = new WsCodec(1024, 16, Duration.ofSeconds(10));
        WebSocketTransport t = new WebSocketTransport(connection, new OutboundQueue(16, 1 << 20), codec,
                TokenBucket.system(10, 20), limit -> { }, null);
        t.listener(new Transport.Listener() {
            @Override
            public void written(OutboundFrame frame) {
            }

            @Override
            public void closed(int code) {
                closedWith.complete(code);
            }
        });
        t.start();
        return t;
    }

    @Test
    void aCloseDecidedWhileTheIoThreadLagsBehindAClientThatLeftIsCounted1006() throws Exception {
        Socket client = new Socket("127.0.0.1", port());
        CompletableFuture<Integer> closedWith = new CompletableFuture<>();
        WebSocketTransport t = transport(closedWith);
        CountDownLatch lagging = new CountDownLatch(1);
        CountDownLatch clientLeft = new CountDownLatch(1);
        connection.getIoThread().execute(() -> { // the node's I/O thread is busy (a handshake flood) ...
            lagging.countDown();
            try {
                clientLeft.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ByteBuffer probe = ByteBuffer.allocate(16);
            Await.until("the client's FIN reached the node", WAIT, () -> {
                try {
                    return connection.getSourceChannel().read(probe) < 0;
                } catch (IOException e) {
                    return true;
                }
            });
        });
        lagging.await();
        t.close(CloseCode.GOING_AWAY); // ... when the sweeper (missed pongs) or a drain decides to close
        client.close();                // and the client is already gone
        clientLeft.countDown();
        assertEquals(1006, closedWith.get(WAIT.toSeconds(), TimeUnit.SECONDS), "the client never saw a 1001");
    }

    @Test
    void aCloseFrameTheClientReadIsCountedWithItsCode() throws Exception {
        try (Socket client = new Socket("127.0.0.1", port())) {
            client.setSoTimeout((int) WAIT.toMillis());
            CompletableFuture<Integer> closedWith = new CompletableFuture<>();
            WebSocketTransport t = transport(closedWith);
            t.close(CloseCode.GOING_AWAY);
            byte[] head = client.getInputStream().readNBytes(4);
            assertEquals(0x88, head[0] & 0xFF, "a close frame");
            assertEquals(1001, ((head[2] & 0xFF) << 8) | (head[3] & 0xFF));
            client.getOutputStream().write(RawWsClient.frame(true, 0x8, new byte[]{0x03, (byte) 0xE9}));
            assertEquals(1001, closedWith.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        }
    }
}
