package io.notify.cli.bench.push;

import io.notify.cli.bench.wire.Http1Responses;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.webpush.VapidKeys;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The same-run baseline of {@code bench push}: the receiver's own capacity at the run's latency,
 * with no sender and no Kafka. {@code concurrency} lanes, each a thread with one keep-alive HTTP/1.1
 * connection, post the pushes a sender would (the run's subscriptions in turn, the same headers, a
 * VAPID token of the run's key, a body of the size the sender's would have) and post the next when
 * the previous is answered. Pushes answered 201 after the first {@code warm} count, over the rest of
 * {@code duration}. Plain sockets on purpose (as {@code bench ingest}'s ClosedLoopHttp):
 * java.net.http would spend the cores the receiver needs and measure itself; a lane's thread only
 * waits on its socket.
 */
final class ReceiverBaseline {

    /**
     * @param pushesPerSecond pushes answered 201 per second of the measured part
     * @param meanAnswerMs    their mean time from the request's last byte to the answer (about the latency)
     * @param failed          requests answered otherwise or lost with their connection (goal 0)
     */
    record Result(int concurrency, double seconds, long answered, double pushesPerSecond, double meanAnswerMs, long failed) {
    }

    private ReceiverBaseline() {
    }

    static Result run(LatencyPushService receiver, List<PushRegistration> to, VapidKeys vapid, String subject, int bodyBytes,
                      int concurrency, Duration warm, Duration duration) throws InterruptedException {
        URI origin = URI.create(receiver.origin());
        InetSocketAddress server = new InetSocketAddress(origin.getHost(), origin.getPort());
        String authorization = vapidHeader(vapid, receiver.origin(), subject);
        byte[] body = body(bodyBytes);
        AtomicLong answered = new AtomicLong();
        AtomicLong answerMicros = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long start = System.nanoTime();
        long measureFrom = start + warm.toNanos();
        long end = start + duration.toNanos();
        List<Thread> lanes = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            int lane = i;
            Thread t = new Thread(() -> lane(server, origin, to, lane, concurrency, authorization, body, measureFrom, end, answered,
                    answerMicros, failed), "push-baseline-" + i);
            t.setDaemon(true);
            t.start();
            lanes.add(t);
        }
        for (Thread t : lanes) {
            t.join();
        }
        double seconds = (end - measureFrom) / 1e9;
        long n = answered.get();
        return new Result(concurrency, seconds, n, n / seconds, n == 0 ? Double.NaN : answerMicros.get() / 1000.0 / n, failed.get());
    }

    private static void lane(InetSocketAddress server, URI origin, List<PushRegistration> to, int lane, int lanes, String authorization,
                             byte[] body, long measureFrom, long end, AtomicLong answered, AtomicLong answerMicros, AtomicLong failed) {
        Socket socket = null;
        InputStream in = null;
        long n = 0;
        while (System.nanoTime() < end) {
            PushRegistration target = to.get((int) ((lane + n * lanes) % to.size()));
            String endpoint = target.webpush().endpoint();
            String head = "POST " + endpoint.substring(endpoint.indexOf("/push/")) + " HTTP/1.1\r\n"
                    + "Host: " + origin.getHost() + ":" + origin.getPort() + "\r\n"
                    + "TTL: 86400\r\nUrgency: high\r\n"
                    + "Topic: b" + lane + "x" + Long.toString(n++, 36) + "\r\n"
                    + "Content-Encoding: aes128gcm\r\nContent-Type: application/octet-stream\r\n"
                    + "Authorization: " + authorization + "\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n";
            try {
                if (socket == null) {
                    socket = new Socket();
                    socket.setTcpNoDelay(true);
                    socket.setSoTimeout(30_000);
                    socket.connect(server, 5_000);
                    in = new BufferedInputStream(socket.getInputStream(), 4096);
                }
                OutputStream out = socket.getOutputStream();
                out.write(head.getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                long sent = System.nanoTime();
                int status = Http1Responses.status(in);
                long now = System.nanoTime();
                if (status != 201) {
                    failed.incrementAndGet();
                } else if (sent >= measureFrom && now <= end) {
                    answered.incrementAndGet();
                    answerMicros.addAndGet((now - sent) / 1000);
                }
            } catch (IOException e) {
                failed.incrementAndGet();
                close(socket);
                socket = null;
            }
        }
        close(socket);
    }

    /** A body with an aes128gcm header the receiver takes (salt, rs 4096, a 65-byte P-256 key id) padded to {@code bytes}. */
    static byte[] body(int bytes) {
        byte[] b = new byte[Math.max(bytes, LatencyPushService.MIN_BODY)];
        b[18] = 0x10; // rs = 4096, big-endian in bytes 16..19
        b[20] = 65;
        b[21] = 0x04;
        return b;
    }

    /** {@code vapid t=<ES256 JWT for origin, 12 h>, k=<public key>}, as RFC 8292 and the sender have it. */
    static String vapidHeader(VapidKeys vapid, String origin, String subject) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String header = b64.encodeToString("{\"typ\":\"JWT\",\"alg\":\"ES256\"}".getBytes(StandardCharsets.UTF_8));
        long exp = Instant.now().plus(Duration.ofHours(12)).getEpochSecond();
        String claims = b64.encodeToString(("{\"aud\":\"" + origin + "\",\"exp\":" + exp + ",\"sub\":\"" + subject + "\"}")
                .getBytes(StandardCharsets.UTF_8));
        try {
            Signature es256 = Signature.getInstance("SHA256withECDSAinP1363Format");
            es256.initSign(vapid.privateKey());
            es256.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
            return "vapid t=" + header + "." + claims + "." + b64.encodeToString(es256.sign()) + ", k=" + vapid.publicKeyBase64Url();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ES256 is part of every JDK", e);
        }
    }

    private static void close(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing a failed connection: nothing left to do
            }
        }
    }
}
