package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.gateway.ClientFleet;
import io.notify.protocol.NotifyJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The open-loop ingest load generator, a JVM of its own (run through
 * {@link io.notify.cli.stack.ChildAgent}): a pacing thread forms, every {@value #TICK_MS} ms, one
 * NDJSON batch (at most {@value #MAX_BATCH} events) of the events due at the offered rate, each
 * addressed to user {@code n % users} with {@code data.sentAtMs} = the batch's forming time; HTTP
 * lanes (keep-alive sockets, each bound to one of several 127.0.0.x source addresses) post them.
 * A batch waiting for a free lane still counts its wait in the latency (no coordinated omission).
 * Event n of a run carries {@code data.run} = the run's tag and {@code data.n} = n; the numbers of
 * the accepted ones are written, as a {@link BitSet}, to {@code workDir/accepted-<tag>.bits}.
 * <pre>
 *   run &lt;rate/s&gt; &lt;durationMs&gt; &lt;runTag&gt;   → "ran {Ran}" once every batch is answered (bounded)
 *   exit
 * </pre>
 * Prints "ready" and "progress &lt;accepted&gt;" every second; exits at end of stdin or after its lifetime.
 *
 * <p>Arguments: host port apiKey sourceAddresses(comma) lanes users lifetimeSeconds workDir
 */
public final class PacedIngestLoad {

    /**
     * One paced run: events offered (formed into batches), accepted with 202, failed; seconds of
     * pacing; the file holding the accepted events' numbers.
     */
    public record Ran(long offered, long accepted, long failed, long requests, double seconds, long queuedAtEnd,
                      String acceptedIds) {
    }

    static final int TICK_MS = 5;
    static final int MAX_BATCH = 100;
    private static final long DRAIN_BOUND_NANOS = TimeUnit.SECONDS.toNanos(60);
    private final BlockingQueue<IngestLane.Batch> queue = new ArrayBlockingQueue<>(10_000);
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final int users;
    private final Path workDir;
    /** Every how many events one is of type {@value #MUTED_TYPE} with a push fallback (0: none). */
    private final long mutedEvery;

    /** The type of the events users' preferences may mute (bench pipeline --muted-share, --preferences). */
    public static final String MUTED_TYPE = "bench.muted";

    private PacedIngestLoad(int users, Path workDir, long mutedEvery) {
        this.users = users;
        this.workDir = workDir;
        this.mutedEvery = mutedEvery;
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        String apiKey = args[2];
        String[] sources = args[3].split(",");
        int lanes = Integer.parseInt(args[4]);
        PacedIngestLoad load = new PacedIngestLoad(Integer.parseInt(args[5]), Path.of(args[7]),
                args.length > 8 ? Long.parseLong(args[8]) : 0);
        long endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[6]));
        for (int i = 0; i < lanes; i++) {
            IngestLane lane = new IngestLane(server, InetAddress.getByName(sources[i % sources.length]), apiKey, load.queue,
                    load.accepted, load.failed, load.answered, load.requests);
            Thread t = new Thread(lane, "ingest-lane-" + i);
            t.setDaemon(true);
            t.start();
        }
        Thread progress = new Thread(() -> {
            while (true) {
                emit("progress " + load.accepted.get());
                try {
                    TimeUnit.SECONDS.sleep(1); // progress report interval
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "ingest-progress");
        progress.setDaemon(true);
        progress.start();
        Thread lifetime = new Thread(() -> {
            try {
                TimeUnit.NANOSECONDS.sleep(Math.max(0, endNanos - System.nanoTime()));
            } catch (InterruptedException e) {
                return;
            }
            emit("error lifetime expired");
            System.exit(3);
        }, "ingest-lifetime");
        lifetime.setDaemon(true);
        lifetime.start();
        emit("ready");
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] a = line.trim().split(" ");
                if (a[0].equals("exit")) {
                    break;
                } else if (a[0].equals("run")) {
                    emit("ran " + NotifyJson.mapper().writeValueAsString(
                            load.run(Double.parseDouble(a[1]), Long.parseLong(a[2]), a[3])));
                } else {
                    emit("error unknown command: " + line);
                }
            }
        }
        System.exit(0);
    }

    private Ran run(double rate, long durationMs, String tag) throws InterruptedException, IOException {
        BitSet acceptedIds = new BitSet();
        long a0 = accepted.get();
        long f0 = failed.get();
        long r0 = requests.get();
        long answered0 = answered.get();
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(durationMs);
        long n = 0;
        long now;
        while ((now = System.nanoTime()) - end < 0) {
            long due = PipelineMath.due(rate, now - start);
            while (n < due) {
                int size = (int) Math.min(MAX_BATCH, due - n);
                long sentAtMs = System.currentTimeMillis();
                StringBuilder body = new StringBuilder(size * 130);
                for (int i = 0; i < size; i++, n++) {
                    boolean muted = mutedEvery > 0 && n % mutedEvery == 0;
                    body.append(muted ? "{\"type\":\"" + MUTED_TYPE + "\",\"fallback\":{\"after\":\"7d\",\"channel\":\"push\"}," : "{\"type\":\"bench.pipeline\",")
                            .append("\"to\":{\"users\":[\"")
                            .append(ClientFleet.user((int) (n % users))).append("\"]},\"class\":\"durable\",\"data\":{\"run\":\"")
                            .append(tag).append("\",\"n\":").append(n).append(",\"sentAtMs\":").append(sentAtMs).append("}}\n");
                }
                if (!queue.offer(new IngestLane.Batch(body.toString().getBytes(StandardCharsets.US_ASCII), size, n - size,
                        acceptedIds))) {
                    failed.addAndGet(size); // every lane stuck and 10,000 batches waiting: shed, counted as failed
                    answered.addAndGet(size);
                }
            }
            TimeUnit.MILLISECONDS.sleep(TICK_MS); // pacing tick of an open-loop generator
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long drainEnd = System.nanoTime() + DRAIN_BOUND_NANOS;
        while (answered.get() - answered0 < n && System.nanoTime() - drainEnd < 0) {
            TimeUnit.MILLISECONDS.sleep(10); // poll interval of a bounded wait for the last answers
        }
        Path ids = workDir.resolve("accepted-" + tag + ".bits");
        synchronized (acceptedIds) {
            Files.write(ids, acceptedIds.toByteArray());
        }
        return new Ran(n, accepted.get() - a0, failed.get() - f0, requests.get() - r0, seconds, queue.size(), ids.toString());
    }

    static void emit(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** The lanes' source addresses: 127.0.0.2 and up. */
    static List<String> sources(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("127.0.0." + (2 + i));
        }
        return out;
    }
}
