package io.notify.cli.chaos;

import io.notify.platform.DevKeys;
import io.notify.protocol.NotifyJson;
import io.notify.schemas.publish.NotifyPublisher;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The load generator and verifier of a chaos run, in a JVM of its own: {@link Devices} (real SDK
 * clients), a {@link SteadyProducer} straight to Kafka, and the {@link Verifier} between them. Runs
 * the commands its parent ({@link ChaosRun}) sends on stdin, one per line, and answers on stdout:
 * <pre>
 *   produce &lt;events/s&gt;          set the publish rate (0 stops)                  → "producing &lt;rate&gt;"
 *   status                       {@link Status}                                       → "status {json}"
 *   fault &lt;node|*&gt;              mark the devices on a node before a fault            → "marked &lt;devices&gt;"
 *   resumed &lt;boundMs&gt;           wait until every marked device is connected again   → "resumed {json}"
 *   pauses                       delivery pauses since the mark                       → "pauses {json}"
 *   warmup &lt;boundMs&gt;            one event per user per round until every device got one → "warm {json}"
 *   verify &lt;settleMs&gt;           stop producing, wait for acks and deliveries, judge  → "verdict {json}"
 *   exit
 * </pre>
 * It prints "ready &lt;devices&gt;" once every device is connected, "progress ..." every second, and
 * exits by itself at end of stdin (the parent is gone) or after its lifetime.
 *
 * <p>Arguments (key=value): gateways (comma-separated base URLs), bootstrap, prefix, keys (dev key
 * dir), users, devices, rooms (0: none), lifetime (seconds), and the withheld shares
 * ({@link Withheld.Shares#args}: expireEvery, ttlMs, recallEvery, recallAfterMs; absent: none).
 */
public final class ChaosAgent {

    /** What the agent sees now. */
    record Status(long devices, long connected, Map<String, Integer> perNode, long published, long inFlight,
                  long skipped, long retries, long resets, long errors) {
    }

    /** How long it took the marked devices to be connected again; -1 when not within the bound. */
    record Resumed(int devices, long resumedMs) {
    }

    /** Warm-up rounds until every device had an event (each device then has a position and is live). */
    record Warm(int rounds, long ms, int devicesWithEvents) {
    }

    private static final Duration READY_BOUND = Duration.ofSeconds(120);
    private static final long ROUND_NANOS = 3_000_000_000L;

    private final Verifier verifier;
    private final DeliveryPauses pauses = new DeliveryPauses();
    private final Devices devices;
    private final SteadyProducer producer;
    private Devices.FaultMark mark = new Devices.FaultMark(List.of(), System.nanoTime());

    private ChaosAgent(Map<String, String> a) throws IOException {
        Audience audience = new Audience(Integer.parseInt(a.get("users")),
                Integer.parseInt(a.get("devices")), Integer.parseInt(a.getOrDefault("rooms", "0")));
        DevKeys keys = DevKeys.existing(Path.of(a.get("keys")));
        this.verifier = new Verifier(audience);
        this.producer = new SteadyProducer(NotifyPublisher.builder().bootstrapServers(a.get("bootstrap"))
                .topicPrefix(a.get("prefix")).clientId("chaos-producer").build(), a.get("bootstrap"), verifier,
                Withheld.Shares.fromArgs(a));
        this.devices = new Devices(Arrays.asList(a.get("gateways").split(",")), audience,
                u -> keys.token(userId(u), Duration.ofHours(6), List.of(ROOM_PREFIX + "*")), verifier, pauses);
    }

    private static final String ROOM_PREFIX = "chaos-room-";

    static String userId(int user) {
        return "chaos-user-" + user;
    }

    static String roomName(int room) {
        return ROOM_PREFIX + room;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        long lifetimeNanos = Long.parseLong(a.getOrDefault("lifetime", "3600")) * 1_000_000_000L;
        BlockingQueue<String> commands = readCommands();
        ChaosAgent agent = new ChaosAgent(a);
        agent.awaitReady();
        agent.loop(commands, System.nanoTime() + lifetimeNanos);
        System.exit(0);
    }

    private static BlockingQueue<String> readCommands() {
        BlockingQueue<String> q = new LinkedBlockingQueue<>(1024); // the parent sends one command at a time
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    q.put(line.trim()); // blocks the reader, not the agent, if commands pile up
                }
            } catch (IOException | InterruptedException e) {
                // the parent is gone
            }
            while (!q.offer("exit")) { // end of stdin: the parent is gone, so is this agent
                q.poll();
            }
        }, "agent-commands");
        t.setDaemon(true);
        t.start();
        return q;
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + READY_BOUND.toNanos();
        while (devices.connected() < devices.size()) {
            if (System.nanoTime() - deadline > 0) {
                emit("error only " + devices.connected() + " of " + devices.size() + " devices connected within " + READY_BOUND);
                return;
            }
            TimeUnit.MILLISECONDS.sleep(100); // poll interval of a bounded wait
        }
        emit("ready " + devices.size());
    }

    private void loop(BlockingQueue<String> commands, long endNanos) throws Exception {
        long nextProgress = System.nanoTime();
        try {
            while (System.nanoTime() - endNanos < 0) {
                String cmd = commands.poll(200, TimeUnit.MILLISECONDS);
                if (cmd != null && !command(cmd.split(" "))) {
                    return;
                }
                if (System.nanoTime() - nextProgress > 0) {
                    Status s = status();
                    emit("progress connected=" + s.connected() + "/" + s.devices() + " published=" + s.published()
                            + " inFlight=" + s.inFlight() + " nodes=" + s.perNode());
                    nextProgress = System.nanoTime() + 1_000_000_000L;
                }
            }
            emit("error lifetime expired");
        } finally {
            producer.close();
            devices.close();
        }
    }

    private boolean command(String[] c) throws Exception {
        switch (c[0]) {
            case "produce" -> {
                producer.rate(Double.parseDouble(c[1]));
                emit("producing " + c[1]);
            }
            case "status" -> emitJson("status", status());
            case "fault" -> {
                mark = devices.mark(c[1]);
                emit("marked " + mark.devices().size());
            }
            case "resumed" -> emitJson("resumed", awaitResumed(Long.parseLong(c[1])));
            case "pauses" -> emitJson("pauses", pauses.after(mark.atNanos(), System.nanoTime()));
            case "warmup" -> emitJson("warm", warmup(Long.parseLong(c[1])));
            case "verify" -> emitJson("verdict", verify(Long.parseLong(c[1])));
            case "exit" -> {
                return false;
            }
            default -> emit("error unknown command: " + String.join(" ", c));
        }
        return true;
    }

    private Status status() {
        return new Status(devices.size(), devices.connected(), devices.perNode(), producer.published(), producer.inFlight(),
                producer.skipped(), producer.retries(), devices.resets(), devices.errors());
    }

    private Resumed awaitResumed(long boundMs) throws InterruptedException {
        long deadline = System.nanoTime() + boundMs * 1_000_000L;
        long took;
        while ((took = devices.resumedAfter(mark)) < 0 && System.nanoTime() - deadline < 0) {
            TimeUnit.MILLISECONDS.sleep(50); // poll interval of a bounded wait
        }
        return new Resumed(mark.devices().size(), took < 0 ? -1 : took / 1_000_000);
    }

    /**
     * Publishes one event to every user per round until every device has received one (a device
     * that connected without a position starts at the head as its gateway reads it, so this is the
     * condition for "every device is live"), then settles and drops the warm-up window.
     */
    private Warm warmup(long boundMs) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + boundMs * 1_000_000L;
        int rounds = 0;
        while (verifier.devicesWithEvents() < devices.size() && System.nanoTime() - deadline < 0) {
            producer.oneEach();
            rounds++;
            long roundEnd = Math.min(deadline, System.nanoTime() + ROUND_NANOS);
            while (verifier.devicesWithEvents() < devices.size() && System.nanoTime() - roundEnd < 0) {
                TimeUnit.MILLISECONDS.sleep(50); // poll interval of a bounded wait
            }
        }
        int ready = verifier.devicesWithEvents();
        verify(Math.max(0, (deadline - System.nanoTime()) / 1_000_000L)); // the warm-up window is not judged
        return new Warm(rounds, (System.nanoTime() - start) / 1_000_000, ready);
    }

    /**
     * Stops producing, waits (within the bound) for every ack and every recall's ack, and then every
     * expected delivery, and judges the window.
     */
    private Verifier.Verdict verify(long settleMs) throws InterruptedException {
        producer.rate(0);
        long deadline = System.nanoTime() + settleMs * 1_000_000L;
        while ((producer.inFlight() > 0 || producer.recallsPending() > 0 || verifier.missing() > 0)
                && System.nanoTime() - deadline < 0) {
            TimeUnit.MILLISECONDS.sleep(250); // poll interval of a bounded settle
        }
        verifier.missingByDevice().forEach((device, n) ->
                System.err.println("verify: " + devices.describe(device) + " is missing " + n + " event(s)"));
        return verifier.verdict();
    }

    private static synchronized void emit(String line) {
        System.out.println(line);
        System.out.flush();
    }

    private static void emitJson(String prefix, Object value) throws IOException {
        emit(prefix + " " + NotifyJson.mapper().writeValueAsString(value));
    }
}
