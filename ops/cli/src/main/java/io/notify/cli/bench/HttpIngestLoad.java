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
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop HTTP/1.1 load on {@code POST /v1/events}: {@code concurrency} lanes, each a thread
 * with one keep-alive connection, sending its next request when the previous one is answered,
 * until the duration is over. Counts only events answered 202 (each one acknowledged by Kafka);
 * latency is per request. Plain sockets on purpose: java.net.http's client tops out near 1k
 * requests/s on two cores and would measure itself instead of the server.
 */
final class HttpIngestLoad {

    private HttpIngestLoad() {
    }

    static LoadResult run(String name, InetSocketAddress server, String apiKey, BenchEvents events, Duration duration,
                          int concurrency, int batch) throws InterruptedException {
        Histogram micros = LatencySummary.newHistogram();
        AtomicLong accepted = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong seq = new AtomicLong();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        String run = Long.toString(System.nanoTime(), 36);
        List<Thread> lanes = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            Thread t = new Thread(() -> lane(server, apiKey, events, batch, run, end, micros, accepted, failed, seq),
                    "load-" + i);
            t.setDaemon(true);
            t.start();
            lanes.add(t);
        }
        for (Thread t : lanes) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new LoadResult(name, accepted.get(), failed.get(), seconds, LatencySummary.of(micros));
    }

    private static void lane(InetSocketAddress server, String apiKey, BenchEvents events, int batch, String run,
                             long end, Histogram micros, AtomicLong accepted, AtomicLong failed, AtomicLong seq) {
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
                String id = "b-" + run + "-" + seq.getAndIncrement();
                byte[] body = batch == 1 ? events.value(id) : events.ndjson(id + "-", batch);
                byte[] head = ("POST /v1/events HTTP/1.1\r\nHost: " + server.getHostString() + "\r\n"
                        + "Authorization: Bearer " + apiKey + "\r\n"
                        + "Content-Type: " + (batch == 1 ? "application/json" : "application/x-ndjson") + "\r\n"
                        + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                long sent = System.nanoTime();
                OutputStream out = socket.getOutputStream();
                out.write(head);
                out.write(body);
                out.flush();
                int status = readResponse(in);
                if (status == 202) {
                    accepted.addAndGet(batch);
                    synchronized (micros) {
                        micros.recordValue(Math.max(1, (System.nanoTime() - sent) / 1000));
                    }
                } else {
                    failed.addAndGet(batch);
                }
            } catch (IOException e) {
                failed.addAndGet(batch);
                closeQuietly(socket);
                socket = null;
            }
        }
        closeQuietly(socket);
    }

    /** Reads one response (status line, headers, Content-Length body) and returns its status. */
    static int readResponse(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int status = -1;
        long contentLength = 0;
        boolean first = true;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed mid-response");
            }
            if (c == '\n') {
                String l = line.toString().trim();
                line.setLength(0);
                if (first) {
                    status = Integer.parseInt(l.split(" ")[1]);
                    first = false;
                } else if (l.isEmpty()) {
                    break;
                } else if (l.regionMatches(true, 0, "content-length:", 0, 15)) {
                    contentLength = Long.parseLong(l.substring(15).trim());
                }
            } else {
                line.append((char) c);
            }
        }
        in.skipNBytes(contentLength);
        return status;
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
