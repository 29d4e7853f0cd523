package io.notify.cli.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop reads of the fanout-streams query API, run as its own JVM: {@code concurrency}
 * lanes, each a thread with one HTTP/1.1 keep-alive connection, each sending
 * {@code GET /v1/streams/u:<random user>/events?after=0&limit=10} when the previous answer is in,
 * until the duration is over. Counts 200 answers as reads, anything else as a failure; latency
 * is per request. Plain sockets for the reason given in {@link HttpIngestLoad}.
 *
 * <pre>query &lt;host:port&gt; &lt;users&gt; &lt;durationMs&gt; &lt;concurrency&gt;</pre>
 */
public final class QueryLoad {

    private QueryLoad() {
    }

    public static void main(String[] args) throws InterruptedException {
        String[] hp = args[0].split(":");
        ChildLoad.emit(run(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), Integer.parseInt(args[1]),
                Duration.ofMillis(Long.parseLong(args[2])), Integer.parseInt(args[3])));
    }

    static LoadResult run(InetSocketAddress server, int users, Duration duration, int concurrency)
            throws InterruptedException {
        Histogram micros = LatencySummary.newHistogram();
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        List<Thread> lanes = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            SplittableRandom random = new SplittableRandom(i * 7919L + 1);
            Thread t = new Thread(() -> lane(server, users, random, end, micros, ok, failed), "query-" + i);
            t.setDaemon(true);
            t.start();
            lanes.add(t);
        }
        for (Thread t : lanes) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new LoadResult("query", ok.get(), failed.get(), seconds, LatencySummary.of(micros));
    }

    private static void lane(InetSocketAddress server, int users, SplittableRandom random, long end, Histogram micros,
                             AtomicLong ok, AtomicLong failed) {
        Socket socket = null;
        InputStream in = null;
        while (System.nanoTime() < end) {
            try {
                if (socket == null) {
                    socket = new Socket();
                    socket.setTcpNoDelay(true);
                    socket.setSoTimeout(30_000);
                    socket.connect(server, 5_000);
                    in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
                }
                String user = FanoutEvents.user(random.nextInt(users));
                byte[] request = ("GET /v1/streams/u:" + user + "/events?after=0&limit=10 HTTP/1.1\r\nHost: "
                        + server.getHostString() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                long sent = System.nanoTime();
                OutputStream out = socket.getOutputStream();
                out.write(request);
                out.flush();
                if (HttpIngestLoad.readResponse(in) == 200) {
                    ok.incrementAndGet();
                    synchronized (micros) {
                        micros.recordValue(Math.max(1, (System.nanoTime() - sent) / 1000));
                    }
                } else {
                    failed.incrementAndGet();
                }
            } catch (IOException e) {
                failed.incrementAndGet();
                closeQuietly(socket);
                socket = null;
            }
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing a failed connection: nothing left to do
            }
        }
    }
}
