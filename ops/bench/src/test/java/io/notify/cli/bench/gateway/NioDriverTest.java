package io.notify.cli.bench.gateway;

import static io.notify.cli.bench.gateway.ScriptedWsServer.readClientText;
import static io.notify.cli.bench.gateway.ScriptedWsServer.readHead;
import static io.notify.cli.bench.gateway.ScriptedWsServer.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.ResetFrame;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The NIO client against a {@link ScriptedWsServer} on a real loopback socket: the upgrade with
 * notify.v1 and the bearer token, welcome → resume with the client's position, events split
 * across TCP writes, an application ping answered with a masked pong, and a 503 with Retry-After.
 */
@Timeout(30)
class NioDriverTest {

    private static final String WELCOME = ScriptedWsServer.welcome(BenchUsers.user(7));

    private final List<String> ended = new ArrayList<>();
    private final List<Long> seqs = new ArrayList<>();
    private int established;
    private ScriptedWsServer server;

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    @Test
    void handshakeWelcomeResumeEventsAndPings() throws Exception {
        server = new ScriptedWsServer((self, s) -> {
            self.accept(s);
            OutputStream out = s.getOutputStream();
            out.write(text(WELCOME));
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            self.saw.add(readClientText(in));
            byte[] events = concat(text(event(6)), text(event(7)), text(event(8)), text("{\"t\":\"ping\"}"));
            out.write(events, 0, 50); // a frame split over two TCP writes
            out.flush();
            Thread.sleep(50);
            out.write(events, 50, events.length - 50);
            out.flush();
            self.saw.add(readClientText(in));
            Thread.sleep(2000); // stay open: the client must not see an end of stream before the test looks
        });
        ClientConn c = client();
        c.tally.expect(3);
        try (NioDriver driver = new NioDriver(target(), false, listener())) {
            driver.schedule(c, System.nanoTime());
            pollUntil(driver, () -> server.saw.contains("{\"t\":\"pong\"}"));
        }
        assertEquals("GET /v1/ws HTTP/1.1", server.saw.get(0));
        assertTrue(server.saw.contains("Authorization: Bearer token-7"));
        assertTrue(server.saw.contains("Sec-WebSocket-Protocol: notify.v1"));
        assertTrue(server.saw.contains("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:gw-user-7\",\"epoch\":\"ep1\",\"seq\":5}]}"));
        assertEquals(1, established);
        assertEquals(List.of(6L, 7L, 8L), seqs);
        assertTrue(c.tally.complete());
        assertEquals(0, c.tally.lost());
        assertEquals(List.of(), ended);
    }

    @Test
    void refusalReportsStatusAndRetryAfter() throws Exception {
        server = new ScriptedWsServer((self, s) -> {
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

    @Test
    void newAttemptsGoToTheNodesGivenLastAsBehindALoadBalancer() throws Exception {
        ScriptedWsServer.Script refuse = (self, s) -> {
            self.saw.add(readHead(s).get(0));
            s.getOutputStream().write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
        };
        server = new ScriptedWsServer(refuse);
        try (ScriptedWsServer joined = new ScriptedWsServer(refuse);
             NioDriver driver = new NioDriver(target(), false, listener())) {
            ClientConn c = client();
            driver.schedule(c, System.nanoTime());
            pollUntil(driver, () -> ended.size() == 1);
            assertEquals(server.address(), c.node);
            driver.targets(List.of(joined.address()));
            driver.schedule(c, System.nanoTime());
            pollUntil(driver, () -> ended.size() == 2);
            assertEquals(joined.address(), c.node);
            assertEquals(List.of("GET /v1/ws HTTP/1.1"), joined.saw);
        }
        assertEquals(List.of("GET /v1/ws HTTP/1.1"), server.saw, "one attempt each: the first node got none after the switch");
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
        return ScriptedWsServer.event(BenchUsers.user(7), seq, "{\"n\":" + seq + "}");
    }

    private static ClientConn client() throws IOException {
        return new ClientConn(7, BenchUsers.user(7), InetAddress.getByName("127.0.0.2"), "token-7", new ResumeTally("ep1", 5));
    }

    private List<InetSocketAddress> target() {
        return List.of(server.address());
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
            assertTrue(System.nanoTime() < deadline, "timed out; server saw " + server.saw + ", ended " + ended
                    + ", seqs " + seqs + ", established " + established);
            driver.poll(20);
        }
    }
}
