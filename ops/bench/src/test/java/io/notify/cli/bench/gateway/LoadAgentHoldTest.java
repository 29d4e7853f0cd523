package io.notify.cli.bench.gateway;

import static io.notify.cli.bench.gateway.ScriptedWsServer.event;
import static io.notify.cli.bench.gateway.ScriptedWsServer.readClientText;
import static io.notify.cli.bench.gateway.ScriptedWsServer.text;
import static io.notify.cli.bench.gateway.ScriptedWsServer.welcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.platform.DevKeys;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load agent (its own JVM) holding its clients: a gateway that closes a connection sees the
 * client back, resuming from its position as the SDK does; the duplicate frame the gateway then
 * replays is dropped by position, and the by-id check finds every accepted event once.
 */
@Timeout(60)
class LoadAgentHoldTest {

    private static final int USER = 7;
    private static final int USERS = 8;

    @TempDir
    Path work;

    @Test
    void aClosedClientReconnectsWithItsPositionAndTheRunIsCheckedById() throws Exception {
        String user = BenchUsers.user(USER);
        CountDownLatch released = new CountDownLatch(1);
        ScriptedWsServer server = new ScriptedWsServer((self, s) -> {
            self.accept(s);
            OutputStream out = s.getOutputStream();
            out.write(text(welcome(user)));
            out.flush();
            self.saw.add("first: " + readClientText(new DataInputStream(s.getInputStream())));
            out.write(text(event(user, 1, data(USER))));
            out.flush(); // then the connection ends, as a gateway that closes it
        }, (self, s) -> {
            self.accept(s);
            OutputStream out = s.getOutputStream();
            out.write(text(welcome(user)));
            out.flush();
            self.saw.add("second: " + readClientText(new DataInputStream(s.getInputStream())));
            out.write(text(event(user, 1, data(USER)))); // already processed: a duplicate frame
            out.write(text(event(user, 2, data(USER + USERS))));
            out.flush();
            released.await(30, TimeUnit.SECONDS);
        });
        DevKeys.inDataDir(work);
        try (server; AgentProcess agent = AgentProcess.start(List.of("-Xmx64m"), List.of("127.0.0.1",
                Integer.toString(server.address().getPort()), "ws", work.toString(), Integer.toString(USER), "1", "127.0.0.1", "-",
                "60"), work.resolve("agent.log"))) {
            agent.await("ready", Duration.ofSeconds(20));
            agent.send("track m1 " + USERS);
            agent.await("tracking", Duration.ofSeconds(10));
            agent.send("hold on");
            agent.await("hold", Duration.ofSeconds(10));
            agent.send("open 1 100 10 10000");
            agent.await("opened", Duration.ofSeconds(20));
            LoadAgent.Counts counts = awaitEvents(agent, 2);
            assertEquals(1, counts.reconnects(), "the closed client came back once");
            assertEquals(1, counts.positionDrops(), "seq 1 replayed after the resume is dropped by position");
            assertTrue(server.saw.contains("first: {\"t\":\"resume\",\"streams\":[]}"), server.saw.toString());
            assertTrue(server.saw.contains("second: {\"t\":\"resume\",\"streams\":[{\"stream\":\"u:" + user
                    + "\",\"epoch\":\"ep1\",\"seq\":1}]}"), server.saw.toString());

            BitSet accepted = new BitSet();
            accepted.set(USER);
            accepted.set(USER + USERS);
            accepted.set(USER + 2 * USERS); // accepted, never sent by the server: lost
            Path ids = Files.write(work.resolve("accepted.bits"), accepted.toByteArray());
            agent.send("check-ids " + ids + " " + USERS);
            IdCheck check = agent.awaitJson("checked", IdCheck.class, Duration.ofSeconds(10));
            assertEquals(3, check.expected());
            assertEquals(2, check.delivered());
            assertEquals(1, check.lost());
            assertEquals(List.of((long) (USER + 2 * USERS)), check.lostSamples());
            assertEquals(0, check.duplicates());
            assertEquals(List.of("ep1:2"), check.lostPositions(), "the client had processed seq 2 when checked");
        } finally {
            released.countDown();
        }
    }

    private static String data(int n) {
        return "{\"run\":\"m1\",\"n\":" + n + ",\"sentAtMs\":" + System.currentTimeMillis() + "}";
    }

    private static LoadAgent.Counts awaitEvents(AgentProcess agent, long events) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            agent.send("counts");
            LoadAgent.Counts c = agent.awaitJson("counts", LoadAgent.Counts.class, Duration.ofSeconds(10));
            if (c.events() >= events || System.nanoTime() - deadline > 0) {
                assertEquals(events, c.events(), "events the app got");
                return c;
            }
            TimeUnit.MILLISECONDS.sleep(100); // poll interval of a bounded wait for the reconnect (backoff < 1 s)
        }
    }
}
