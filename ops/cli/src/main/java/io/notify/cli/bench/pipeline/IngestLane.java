package io.notify.cli.bench.pipeline;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One HTTP lane of {@link PacedIngestLoad}: a keep-alive socket from a fixed source address that
 * posts the next waiting NDJSON batch and reads the answer: 202 accepts the whole batch, 207 the
 * {@code accepted} count of its body, anything else (or an I/O error) fails the batch.
 */
final class IngestLane implements Runnable {

    /** An NDJSON body and its event count. */
    record Batch(byte[] body, int events) {
    }

    private static final Pattern ACCEPTED = Pattern.compile("\"accepted\"\\s*:\\s*(\\d+)");
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
            long ok = 0;
            try {
                ok = post(b);
            } catch (IOException | RuntimeException e) {
                close();
            }
            accepted.addAndGet(ok);
            failed.addAndGet(b.events() - ok);
            requests.incrementAndGet();
            answered.addAndGet(b.events());
        }
    }

    private long post(Batch b) throws IOException {
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

    /** Events accepted by one answer ("status body"). */
    static long acceptedOf(String response, int events) {
        int status = Integer.parseInt(response.substring(0, response.indexOf(' ')));
        if (status == 202) {
            return events;
        }
        if (status == 207) {
            Matcher m = ACCEPTED.matcher(response);
            return m.find() ? Math.min(events, Long.parseLong(m.group(1))) : 0;
        }
        return 0;
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
