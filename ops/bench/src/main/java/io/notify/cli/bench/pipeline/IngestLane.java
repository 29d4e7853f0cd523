package io.notify.cli.bench.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.NotifyJson;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One HTTP lane of {@link PacedIngestLoad}: a keep-alive socket from a fixed source address that
 * posts the next waiting NDJSON batch and reads the answer: 202 accepts the whole batch, 207 the
 * results whose status is 202 (by index), anything else (or an I/O error) fails the batch. The
 * numbers of the accepted events are set in the batch's run's {@code accepted} set.
 */
final class IngestLane implements Runnable {

    /** An NDJSON body, its event count, the number of its first event, and its run's set of accepted numbers. */
    record Batch(byte[] body, int events, long first, BitSet accepted) {
    }

    private final InetSocketAddress server;
    private final InetAddress source;
    private final String apiKey;
    private final BlockingQueue<Batch> queue;
    private final AtomicLong accepted;
    private final AtomicLong failed;
    private final AtomicLong answered;
    private final AtomicLong requests;
    private Socket socket;
    private InputStream in;

    IngestLane(InetSocketAddress server, InetAddress source, String apiKey, BlockingQueue<Batch> queue, AtomicLong accepted,
               AtomicLong failed, AtomicLong answered, AtomicLong requests) {
        this.server = server;
        this.source = source;
        this.apiKey = apiKey;
        this.queue = queue;
        this.accepted = accepted;
        this.failed = failed;
        this.answered = answered;
        this.requests = requests;
    }

    @Override
    public void run() {
        while (true) {
            Batch b;
            try {
                b = queue.poll(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (b == null) {
                continue;
            }
            BitSet ok = new BitSet();
            try {
                ok = post(b);
            } catch (IOException | RuntimeException e) {
                close();
            }
            synchronized (b.accepted()) {
                for (int i = ok.nextSetBit(0); i >= 0; i = ok.nextSetBit(i + 1)) {
                    b.accepted().set((int) (b.first() + i));
                }
            }
            accepted.addAndGet(ok.cardinality());
            failed.addAndGet(b.events() - ok.cardinality());
            requests.incrementAndGet();
            answered.addAndGet(b.events());
        }
    }

    private BitSet post(Batch b) throws IOException {
        if (socket == null) {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            socket.bind(new InetSocketAddress(source, 0));
            socket.connect(server, 5_000);
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        }
        OutputStream out = socket.getOutputStream();
        out.write(("POST /v1/events HTTP/1.1\r\nHost: " + server.getHostString() + "\r\nAuthorization: Bearer " + apiKey
                + "\r\nContent-Type: application/x-ndjson\r\nContent-Length: " + b.body().length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(b.body());
        out.flush();
        return acceptedOf(readResponse(in), b.events());
    }

    /** The indexes (0 .. events-1) of the events one answer ("status body") accepted: all on 202, each 202 result on 207. */
    static BitSet acceptedOf(String response, int events) throws IOException {
        int space = response.indexOf(' ');
        int status = Integer.parseInt(response.substring(0, space));
        BitSet ok = new BitSet(events);
        if (status == 202) {
            ok.set(0, events);
        } else if (status == 207) {
            for (JsonNode r : NotifyJson.mapper().readTree(response.substring(space + 1)).path("results")) {
                int index = r.path("index").asInt(-1);
                if (r.path("status").asInt() == 202 && index >= 0 && index < events) {
                    ok.set(index);
                }
            }
        }
        return ok;
    }

    /** Reads one response (status line, headers, Content-Length body): "status body". */
    private static String readResponse(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int status = -1;
        int contentLength = 0;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed mid-response");
            }
            if (c != '\n') {
                line.append((char) c);
                continue;
            }
            String l = line.toString().trim();
            line.setLength(0);
            if (status < 0) {
                status = Integer.parseInt(l.split(" ")[1]);
            } else if (l.isEmpty()) {
                break;
            } else if (l.regionMatches(true, 0, "content-length:", 0, 15)) {
                contentLength = Integer.parseInt(l.substring(15).trim());
            }
        }
        byte[] body = in.readNBytes(contentLength);
        return status + " " + (status == 202 ? "" : new String(body, StandardCharsets.UTF_8));
    }

    private void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // a failed connection: nothing left to do
            }
        }
        socket = null;
        in = null;
    }
}
