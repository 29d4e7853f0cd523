package io.notify.cli.bench;

import io.notify.cli.bench.wire.Http1Responses;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop HTTP/1.1 load: {@code concurrency} lanes, each a thread with one keep-alive
 * connection, sending its next request when the previous one is answered, until the duration is
 * over. A request counts its {@code weight} (e.g. events in a batch) as done when answered with
 * the expected status, as failed otherwise; latency is per request. Plain sockets on purpose:
 * java.net.http's client tops out near 1k requests/s on two cores and would measure itself.
 */
final class ClosedLoopHttp {

    /** One request on the wire, the status that means success, and how much it counts. */
    record Request(byte[] head, byte[] body, int expectedStatus, int weight) {
    }

    /** Produces a lane's requests; called only from that lane's thread. */
    @FunctionalInterface
    interface Requests {
        Request next();
    }

    private ClosedLoopHttp() {
    }

    static LoadResult run(String name, InetSocketAddress server, int concurrency, Duration duration,
                          IntFunction<Requests> laneRequests) throws InterruptedException {
        Histogram micros = LatencySummary.newHistogram();
        AtomicLong done = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        List<Thread> lanes = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            Requests requests = laneRequests.apply(i);
            Thread t = new Thread(() -> lane(server, requests, end, micros, done, failed), name + "-" + i);
            t.setDaemon(true);
            t.start();
            lanes.add(t);
        }
        for (Thread t : lanes) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new LoadResult(name, done.get(), failed.get(), seconds, LatencySummary.of(micros));
    }

    private static void lane(InetSocketAddress server, Requests requests, long end, Histogram micros,
                             AtomicLong done, AtomicLong failed) {
        Socket socket = null;
        InputStream in = null;
        while (System.nanoTime() < end) {
            Request r = requests.next();
            try {
                if (socket == null) {
                    socket = new Socket();
                    socket.setTcpNoDelay(true);
                    socket.setSoTimeout(30_000);
                    socket.connect(server, 5_000);
                    in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
                }
                long sent = System.nanoTime();
                OutputStream out = socket.getOutputStream();
                out.write(r.head());
                if (r.body() != null) {
                    out.write(r.body());
                }
                out.flush();
                if (Http1Responses.status(in) == r.expectedStatus()) {
                    done.addAndGet(r.weight());
                    synchronized (micros) {
                        micros.recordValue(Math.max(1, (System.nanoTime() - sent) / 1000));
                    }
                } else {
                    failed.addAndGet(r.weight());
                }
            } catch (IOException e) {
                failed.addAndGet(r.weight());
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
