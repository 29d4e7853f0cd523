package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.schemas.protocol.EventFrame;
import io.notify.schemas.protocol.ResetFrame;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The NIO client against a scripted server on a real loopback socket (written here by hand, not
 * with {@link WsCodec}, so the client's bytes are checked independently): the upgrade with
 * notify.v1 and the bearer token, welcome → resume with the client's position, events split
 * across TCP writes, an application ping answered with a masked pong, and a 503 with Retry-After.
 */
@Timeout(30)
class NioDriverTest {

    private static final String WELCOME = "{\"t\":\"welcome\",\"protocol\":\"notify.v1\",\"nodeId\":\"gw-t\","
            + "\"connectionId\":\"c-1\",\"streams\":[\"u:gw-user-7\"],\"pingIntervalMs\":25000,\"serverTime\":1764410130123}";

    private final List<String> serverSaw = new CopyOnWriteArrayList<>();
    private final List<String> ended = new ArrayList<>();
    private final List<Long> seqs = new ArrayList<>();
    private int established;
    private ServerSocket server;

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    @Test
    void handshakeWelcomeResumeEventsAndPings() throws Exception {
        server = serve(s -> {
            List<String> head = readHead(s);
            serverSaw.addAll(head);
            String key = head.stream().filter(h -> h.startsWith("Sec-WebSocket-Key: ")).findFirst().orElseThrow().substring(19);
            String accept = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
                    .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII)));
            OutputStream out = s.getOutputStream();
            out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
                    + accept + "\r\nSec-WebSocket-Protocol: notify.v1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(text(WELCOME));
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            serverSaw.add(readClientText(in));
            byte[] events = concat(text(event(6)), text(event(7)), text(event(8)), text("{\"t\":\"ping\"}"));
            out.write(events, 0, 50); // a frame split over two TCP writes
            out.flush();
            Thread.sleep(50);
            out.write(events, 50, events.length - 50);
            out.flush();
            serverSaw.add(readClientText(in));
            Thread.sleep(2000); // stay open: the client must not see an end of stream before the test looks
        });
        ClientConn c = client();
        c.tally.expect(3);
        try (NioDriver driver = new NioDriver(target(), false, listener())) {
            driver.schedule(c, System.nanoTime());
            pollUntil(driver, () -> serverSaw.contains("{\"t\":\"pong\"}"));
        }
        assertEquals("GET /v1/ws HTTP/1.1", serverSaw.get(0));
        assertTrue(serverSaw.contains("Authorization: Bearer token-7"));
        assertTrue(serverSaw.contains("Sec-WebSocket-Protocol: notify.v1"));
        assertTrue(serverSaw.contains("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:gw-user-7\",\"epoch\":\"ep1\",\"seq\":5}]}"));
        assertEquals(1, established);
        assertEquals(List.of(6L, 7L, 8L), seqs);
        assertTrue(c.tally.complete());
        assertEquals(0, c.tally.lost());
        assertEquals(List.of(), ended);
    }

    @Test
    void refusalReportsStatusAndRetryAfter() throws Exception {
        server = serve(s -> {
            readHead(s);
            s.getOutputStream().write(("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 3\r\nContent-Length: 2\r\n\r\n{}")
                    .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            Thread.sleep(1000);
        });
        try (NioDriver driver = new NioDriver(target(), false, listener())) {
            driver.schedule(client(), System.nanoTime());
            pollUntil(driver, () -> !ended.isEmpty());
        }
        assertEquals(List.of("http 503 503 3"), ended);
        assertEquals(0, established);
    }

    interface Script {
        void run(Socket s) throws Exception;
    }

    private ServerSocket serve(Script script) throws IOException {
        ServerSocket ss = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            try (Socket s = ss.accept()) {
                script.run(s);
            } catch (Exception e) {
                serverSaw.add("server failed: " + e);
            }
        }, "scripted-server");
        t.setDaemon(true);
        t.start();
        return ss;
    }

    private static List<String> readHead(Socket s) throws IOException {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = s.getInputStream().read()) != -1) {
            if (b == '\n') {
                String l = line.toString().strip();
                if (l.isEmpty()) {
                    break;
                }
                lines.add(l);
                line.setLength(0);
            } else {
                line.append((char) b);
            }
        }
        return lines;
    }

    /** One masked client text frame (payload < 126 bytes), unmasked by hand. */
    private static String readClientText(DataInputStream in) throws IOException {
        int b0 = in.readUnsignedByte();
        int b1 = in.readUnsignedByte();
        assertEquals(0x81, b0, "FIN + text");
        assertEquals(0x80, b1 & 0x80, "client frames are masked");
        byte[] key = in.readNBytes(4);
        byte[] p = in.readNBytes(b1 & 0x7F);
        for (int i = 0; i < p.length; i++) {
            p[i] ^= key[i % 4];
        }
        return new String(p, StandardCharsets.UTF_8);
    }

    private static byte[] text(String s) {
        return WsCodecTest.serverFrame(WsCodec.TEXT, s);
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int i = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, i, p.length);
            i += p.length;
        }
        return out;
    }

    private static String event(int seq) {
        return "{\"t\":\"event\",\"stream\":\"u:gw-user-7\",\"epoch\":\"ep1\",\"seq\":" + seq
                + ",\"id\":\"e-" + seq + "\",\"type\":\"bench.gateway\",\"class\":\"durable\",\"data\":{\"n\":" + seq + "}}";
    }

    private static ClientConn client() throws IOException {
        return new ClientConn(7, BenchUsers.user(7), InetAddress.getByName("127.0.0.2"), "token-7", new ResumeTally("ep1", 5));
    }

    private InetSocketAddress target() {
        return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    }

    private NioDriver.Listener listener() {
        return new NioDriver.Listener() {
            @Override
            public void established(ClientConn c, long nowNanos) {
                established++;
            }

            @Override
            public void event(ClientConn c, EventFrame e, long nowNanos) {
                seqs.add(e.seq());
                c.tally.onEvent(e.epoch(), e.seq());
            }

            @Override
            public void reset(ClientConn c, ResetFrame r) {
                c.tally.onReset();
            }

            @Override
            public void ended(ClientConn c, String reason, int status, int retryAfterSeconds) {
                ended.add(reason + " " + status + " " + retryAfterSeconds);
            }
        };
    }

    private void pollUntil(NioDriver driver, BooleanSupplier done) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out; server saw " + serverSaw + ", ended " + ended
                    + ", seqs " + seqs + ", established " + established);
            driver.poll(20);
        }
    }
}
