package io.notify.cli.bench;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop load on {@code POST /v1/events} (single events or NDJSON batches) through
 * {@link ClosedLoopHttp}. Counts only events answered 202, each one acknowledged by Kafka.
 */
final class HttpIngestLoad {

    private HttpIngestLoad() {
    }

    static LoadResult run(String name, InetSocketAddress server, String apiKey, BenchEvents events, Duration duration,
                          int concurrency, int batch) throws InterruptedException {
        AtomicLong seq = new AtomicLong();
        String run = Long.toString(System.nanoTime(), 36);
        String contentType = batch == 1 ? "application/json" : "application/x-ndjson";
        return ClosedLoopHttp.run(name, server, concurrency, duration, lane -> () -> {
            String id = "b-" + run + "-" + seq.getAndIncrement();
            byte[] body = batch == 1 ? events.value(id) : events.ndjson(id + "-", batch);
            byte[] head = ("POST /v1/events HTTP/1.1\r\nHost: " + server.getHostString() + "\r\n"
                    + "Authorization: Bearer " + apiKey + "\r\n"
                    + "Content-Type: " + contentType + "\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            return new ClosedLoopHttp.Request(head, body, 202, batch);
        });
    }
}
