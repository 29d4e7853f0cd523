package io.notify.cli.bench.gateway;

import static io.notify.cli.bench.gateway.AgentOut.emit;
import static io.notify.cli.bench.gateway.AgentOut.emitJson;
import static io.notify.cli.bench.gateway.AgentOut.retryDelayMs;

import io.notify.cli.bench.LatencySummary;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.ResetFrame;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.HdrHistogram.Histogram;

/**
 * A load generator in a JVM of its own (own heap, own fd budget): holds a range of simulated
 * clients on one {@link NioDriver} thread and runs the phases its parent sends on stdin, one line
 * each ({@link AgentProcess} is the other side):
 * <pre>
 *   open &lt;count&gt; &lt;rate/s&gt; &lt;maxPending&gt; &lt;deadlineMs&gt;   connect the first count clients → "opened {PhaseReport}"
 *   close                                                close every connection → "closed &lt;n&gt;"
 *   storm &lt;t0EpochMs&gt; &lt;jitterMs&gt; &lt;replay&gt; &lt;deadlineMs&gt;   all reconnect and resume → "storm {PhaseReport}"
 *   counts                                               events received → "counts {Counts}"
 *   verify &lt;published&gt; &lt;modulus&gt;                         per-client check of a delivery → "verified {Verified}"
 *   reset                                                zero the event counts and latency histogram → "reset"
 *   track &lt;run&gt; &lt;users&gt;                                  reset, then count only the first delivery of each
 *                                                        event of that run, by id → "tracking"
 *   check-ids &lt;acceptedFile&gt; &lt;users&gt;                     the tracked run's by-id check ({@link IdCheck}) against
 *                                                        the generator's accepted numbers (a BitSet) → "checked {IdCheck}"
 *   hold on|off                                          reconnect, with its position and the SDK's backoff, any
 *                                                        client a gateway closes outside a phase → "hold"
 *   histogram                                            the latency histogram (µs), compressed, base64 → "histogram &lt;b64&gt;"
 *   targets &lt;port,port,...&gt;                              new attempts go to one of these nodes at random → "targets &lt;n&gt;"
 *   subscribe &lt;stream&gt;                                   every open client subscribes to a room or b:all → "subscribing &lt;n&gt;"
 *   subscribed                                           subscribed answers received so far → "subscribed &lt;n&gt;"
 *   room-verify &lt;published&gt;                             per-client check of the room's events → "verified {Verified}"
 *   acks on &lt;intervalMs&gt;|off                            every client acks its user stream's position, at most once
 *                                                        per interval ({@link AckPacer}) → "acks on|off"
 *   exit
 * </pre>
 * It prints "ready" once its tokens are minted and "progress ..." every second. It exits by
 * itself at end of stdin (parent gone) or after its lifetime.
 *
 * <p>Arguments: host port[,port...] ws|sse workDir firstIndex count sourceAddresses(comma) positionsFile|- lifetimeSeconds
 */
public final class LoadAgent implements NioDriver.Listener {

    /**
     * Durable and ephemeral events received (frames an SDK drops as already processed, and, when a
     * run is tracked, repeats of an id and events of other runs, are left out), first/last arrival
     * (epoch ms) and data.sentAtMs → arrival latency; connections ended outside a phase, how many of
     * them were reconnected (hold mode), and duplicate frames dropped by position.
     */
    record Counts(long events, long firstMs, long lastMs, LatencySummary latencyMs, long droppedOutsidePhases,
                  long reconnects, long positionDrops) {
    }

    /** Per-client check of a delivery run: event n went to client n % modulus. */
    record Verified(long missing, long extra, long duplicates, List<Integer> shortClients) {
    }

    private static final long ATTEMPT_TIMEOUT_NANOS = Duration.ofSeconds(30).toNanos();
    private final List<ClientConn> clients;
    private final NioDriver driver;
    private final ConcurrentLinkedQueue<String> commands = new ConcurrentLinkedQueue<>();
    private final SplittableRandom random = new SplittableRandom();
    private final Histogram latencyMicros = LatencySummary.newHistogram();
    private final long endNanos;
    private AgentPhase phase;
    private long events;
    private long firstEventMs;
    private long lastEventMs;
    private long droppedOutsidePhase;
    private final IdLedger ledger = new IdLedger();
    private boolean hold;
    private long reconnects;
    private long positionDrops;
    private long subscribedAnswers;

    private final InetAddress host;
    private final AckPacer acks;

    private LoadAgent(List<ClientConn> clients, InetAddress host, String ports, boolean sse, Duration lifetime) throws IOException {
        this.clients = clients;
        this.host = host;
        this.driver = new NioDriver(nodes(host, ports), sse, this);
        this.acks = new AckPacer(clients, driver::write);
        this.endNanos = System.nanoTime() + lifetime.toNanos();
    }

    public static void main(String[] args) throws Exception {
        List<ClientConn> clients = AgentClients.create(Path.of(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                args[6], args[7].equals("-") ? null : Path.of(args[7]));
        LoadAgent agent = new LoadAgent(clients, InetAddress.getByName(args[0]), args[1], args[2].equals("sse"),
                Duration.ofSeconds(Long.parseLong(args[8])));
        agent.readCommands();
        emit("ready " + clients.size());
        agent.loop();
    }

    /** {@code host} at each of the comma-separated {@code ports}. */
    static List<InetSocketAddress> nodes(InetAddress host, String ports) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (String p : ports.split(",")) {
            out.add(new InetSocketAddress(host, Integer.parseInt(p.trim())));
        }
        return out;
    }

    private void readCommands() {
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    commands.add(line.trim());
                    driver.selector().wakeup();
                }
            } catch (IOException e) {
                // the parent is gone
            }
            System.exit(0); // end of stdin: the parent is gone, so is this agent
        }, "agent-commands");
        t.setDaemon(true);
        t.start();
    }

    private void loop() throws IOException {
        long nextProgress = System.nanoTime();
        long nextExpiry = System.nanoTime();
        while (System.nanoTime() - endNanos < 0) {
            driver.poll(acks.waitMs(System.nanoTime(), 50));
            long now = System.nanoTime();
            String cmd;
            while ((cmd = commands.poll()) != null) {
                if (!command(cmd, now)) {
                    return;
                }
            }
            acks.sweep(now);
            if (phase != null) {
                for (int n = phase.dueStarts(now, driver.attempting()); n > 0; n--) {
                    driver.schedule(phase.nextStart(now), now);
                }
                if (phase.settled(now)) {
                    finishPhase();
                }
            }
            if (now - nextExpiry > 0) {
                driver.expireAttempts(ATTEMPT_TIMEOUT_NANOS);
                nextExpiry = now + 500_000_000L;
            }
            if (now - nextProgress > 0) {
                progress();
                nextProgress = now + 1_000_000_000L;
            }
        }
        emit("expired lifetime");
    }

    /** Runs one command; false on exit. */
    private boolean command(String line, long now) {
        String[] a = line.split(" ");
        switch (a[0]) {
            case "open" -> {
                int count = Math.min(Integer.parseInt(a[1]), clients.size());
                List<ClientConn> members = new ArrayList<>();
                for (ClientConn c : clients.subList(0, count)) {
                    if (!(c.state == ClientConn.State.OPEN && c.done)) {
                        members.add(c);
                    }
                }
                phase = new AgentPhase(AgentPhase.OPEN, members, Double.parseDouble(a[2]), Integer.parseInt(a[3]), now,
                        now + Long.parseLong(a[4]) * 1_000_000L, 5);
            }
            case "storm" -> {
                long t0 = now + (Long.parseLong(a[1]) - System.currentTimeMillis()) * 1_000_000L;
                long jitterNanos = Long.parseLong(a[2]) * 1_000_000L;
                long replay = Long.parseLong(a[3]);
                phase = new AgentPhase(AgentPhase.STORM, clients, 0, Integer.MAX_VALUE, t0,
                        t0 + Long.parseLong(a[4]) * 1_000_000L, Integer.MAX_VALUE);
                for (ClientConn c : clients) {
                    if (c.state != ClientConn.State.IDLE) {
                        driver.close(c);
                    }
                    c.tally.expect(replay);
                    c.phaseStartNanos = t0 + (jitterNanos <= 0 ? 0 : random.nextLong(jitterNanos));
                    driver.schedule(c, c.phaseStartNanos);
                }
                phase.toStart.clear();
            }
            case "close" -> {
                phase = null;
                int n = 0;
                for (ClientConn c : clients) {
                    if (c.state != ClientConn.State.IDLE) {
                        driver.close(c);
                        n++;
                    }
                }
                emit("closed " + n);
            }
            case "counts" -> emitJson("counts", new Counts(events, firstEventMs, lastEventMs,
                    LatencySummary.of(latencyMicros), droppedOutsidePhase, reconnects, positionDrops));
            case "verify" -> emitJson("verified", AgentChecks.users(clients, Long.parseLong(a[1]), Integer.parseInt(a[2])));
            case "reset" -> {
                resetCounts();
                emit("reset");
            }
            case "track" -> {
                resetCounts();
                ledger.track(a[1], Integer.parseInt(a[2]));
                emit("tracking");
            }
            case "check-ids" -> {
                try {
                    BitSet accepted = BitSet.valueOf(Files.readAllBytes(Path.of(a[1])));
                    int first = clients.get(0).index;
                    IdCheck check = ledger.check(accepted, first, clients.size());
                    List<String> positions = new ArrayList<>();
                    for (long n : check.lostSamples()) {
                        ResumeTally t = clients.get((int) (n % Integer.parseInt(a[2])) - first).tally;
                        positions.add((t.epoch() == null ? "none" : t.epoch() + ":" + t.position())
                                + (ledger.arrivedLate(n) ? ", its frame arrived after a later seq and was dropped" : ""));
                    }
                    emitJson("checked", check.withLostPositions(positions));
                } catch (IOException e) {
                    emit("error cannot read accepted ids " + a[1] + ": " + e);
                }
            }
            case "hold" -> {
                hold = a[1].equals("on");
                emit("hold");
            }
            case "targets" -> {
                driver.targets(nodes(host, a[1]));
                emit("targets " + a[1].split(",").length);
            }
            case "histogram" -> emit("histogram " + AgentHistograms.encode(latencyMicros));
            case "subscribe" -> {
                int n = 0;
                String frame = "{\"t\":\"subscribe\",\"stream\":\"" + a[1] + "\"}";
                for (ClientConn c : clients) {
                    if (c.state == ClientConn.State.OPEN) {
                        c.roomStream = a[1];
                        c.room = null; // set by the subscribed answer, at the stream's head
                        driver.write(c, WsCodec.text(frame, random.nextInt()));
                        n++;
                    }
                }
                emit("subscribing " + n);
            }
            case "room-verify" -> emitJson("verified", AgentChecks.rooms(clients, Long.parseLong(a[1])));
            case "acks" -> emit(acks.command(a));
            case "subscribed" -> emit("subscribed " + subscribedAnswers);
            case "exit" -> {
                return false;
            }
            default -> emit("error unknown command: " + line);
        }
        return true;
    }

    private void resetCounts() {
        events = 0;
        firstEventMs = 0;
        lastEventMs = 0;
        reconnects = 0;
        positionDrops = 0;
        droppedOutsidePhase = 0;
        latencyMicros.reset();
    }

    @Override
    public void subscribed(ClientConn c, io.notify.protocol.frame.SubscribedFrame f) {
        if (f.stream().value().equals(c.roomStream) && c.room == null) {
            c.room = f.head() == null ? new ResumeTally(null, 0) : new ResumeTally(f.head().epoch(), f.head().seq());
            subscribedAnswers++;
        }
    }

    private void finishPhase() {
        AgentPhase p = phase;
        phase = null;
        for (ClientConn c : p.members) {
            if (!c.done && c.state == ClientConn.State.WAITING) {
                c.state = ClientConn.State.IDLE; // a retry still scheduled past the deadline: cancelled
            }
        }
        emitJson(p.kind.equals(AgentPhase.OPEN) ? "opened" : "storm", p.report());
    }

    private void progress() {
        int open = 0;
        for (ClientConn c : clients) {
            if (c.state == ClientConn.State.OPEN) {
                open++;
            }
        }
        AgentPhase p = phase;
        emit("progress " + open + " " + (p == null ? 0 : p.done()) + " " + (p == null ? 0 : p.failedSoFar()) + " "
                + (p == null ? 0 : p.rejected()) + " " + events);
    }

    @Override
    public void established(ClientConn c, long nowNanos) {
        c.holdRetries = 0;
        if (phase != null && phase.kind.equals(AgentPhase.OPEN) && c.phaseId == phase.id && !c.done) {
            phase.markDone(c, nowNanos);
        }
    }

    @Override
    public void event(ClientConn c, EventFrame e, long nowNanos) {
        if (!e.stream().isUser()) {
            roomEvent(c, e);
            return;
        }
        String run = e.data().path("run").asText("");
        long n = e.data().path("n").asLong(-1);
        if (e.seq() != null && !c.tally.onEvent(e.epoch(), e.seq())) {
            positionDrops++; // already processed: an SDK drops it before the app
            ledger.late(c.index, run, n);
        } else {
            if (e.seq() != null) {
                acks.received(c, nowNanos); // the position moved: an ack is due (when acks are on)
            }
            if (!ledger.tracking() || ledger.record(c.index, run, n)) {
                counted(e);
            }
        }
        if (phase != null && phase.kind.equals(AgentPhase.STORM) && !c.done && c.tally.complete()) {
            phase.markDone(c, nowNanos);
        }
    }

    /** A room's (or b:all's) event: counted once per client and seq, with its latency, as the SDK's dedup would. */
    private void roomEvent(ClientConn c, EventFrame e) {
        if (c.room == null || !e.stream().value().equals(c.roomStream)) {
            return; // not subscribed (any more), or before the subscribed answer: the cursor held it back then
        }
        if (e.seq() != null && !c.room.onEvent(e.epoch(), e.seq())) {
            positionDrops++;
            return;
        }
        counted(e);
    }

    /** An event the app would see: counted, its arrival time kept, its latency from data.sentAtMs recorded. */
    private void counted(EventFrame e) {
        long nowMs = System.currentTimeMillis();
        events++;
        firstEventMs = firstEventMs == 0 ? nowMs : firstEventMs;
        lastEventMs = nowMs;
        long sentAtMs = e.data().path("sentAtMs").asLong(0);
        if (sentAtMs > 0) {
            latencyMicros.recordValue(Math.max(1, Math.min(60_000_000L, (nowMs - sentAtMs) * 1000)));
        }
    }

    @Override
    public void reset(ClientConn c, ResetFrame r) {
        c.tally.onReset();
    }

    @Override
    public void ended(ClientConn c, String reason, int status, int retryAfterSeconds) {
        AgentPhase p = phase != null && c.phaseId == phase.id ? phase : null;
        if (p == null || c.done) {
            if (p != null) {
                p.dropped();
                p.failed("after goal: " + reason, status);
            } else {
                droppedOutsidePhase++;
            }
            if (hold) {
                reconnects++; // as the SDK does: back off, reconnect, resume from the position
                driver.schedule(c, System.nanoTime() + retryDelayMs(++c.holdRetries, retryAfterSeconds, random.nextDouble()) * 1_000_000L);
            }
            return;
        }
        p.failed(reason, status);
        long now = System.nanoTime();
        if (c.attempts < p.maxAttempts && now - p.deadlineNanos < 0) {
            driver.schedule(c, now + retryDelayMs(c.attempts, retryAfterSeconds, random.nextDouble()) * 1_000_000L);
        } else {
            p.gaveUp();
        }
    }
}
