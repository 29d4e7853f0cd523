package io.notify.cli.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop HTTP load on {@code POST /v1/events}: {@code concurrency} lanes, each sending its
 * next request when the previous one is answered, until the duration is over. Counts only events
 * answered 202 (every one of which Kafka acknowledged); latency is per request.
 */
final class HttpIngestLoad {

    private HttpIngestLoad() {
    }

    static LoadResult run(String name, URI endpoint, String apiKey, BenchEvents events, Duration duration,
                          int concurrency, int batch) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        Histogram micros = LatencySummary.newHistogram();
        AtomicLong accepted = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong seq = new AtomicLong();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        CompletableFuture<?>[] lanes = new CompletableFuture<?>[concurrency];
        String run = Long.toString(System.nanoTime(), 36);
        for (int lane = 0; lane < concurrency; lane++) {
            Lane l = new Lane(http, endpoint, apiKey, events, batch, run, end, micros, accepted, failed, seq);
            l.next();
            lanes[lane] = l.done;
        }
        CompletableFuture.allOf(lanes).join();
        double seconds = (System.nanoTime() - start) / 1e9;
        return new LoadResult(name, accepted.get(), failed.get(), seconds, LatencySummary.of(micros));
    }

    /** One closed loop: sends the next request from the previous one's completion, without chaining futures. */
    private record Lane(HttpClient http, URI endpoint, String apiKey, BenchEvents events, int batch, String run,
                        long end, Histogram micros, AtomicLong accepted, AtomicLong failed, AtomicLong seq,
                        CompletableFuture<Void> done) {

        Lane(HttpClient http, URI endpoint, String apiKey, BenchEvents events, int batch, String run, long end,
             Histogram micros, AtomicLong accepted, AtomicLong failed, AtomicLong seq) {
            this(http, endpoint, apiKey, events, batch, run, end, micros, accepted, failed, seq, new CompletableFuture<>());
        }

        void next() {
            if (System.nanoTime() >= end) {
                done.complete(null);
                return;
            }
            String id = "b-" + run + "-" + seq.getAndIncrement();
            HttpRequest request = HttpRequest.newBuilder(endpoint)
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + apiKey)
                    .header("Content-Type", batch == 1 ? "application/json" : "application/x-ndjson")
                    .POST(HttpRequest.BodyPublishers.ofString(batch == 1 ? events.json(id) : events.ndjson(id + "-", batch)))
                    .build();
            long sent = System.nanoTime();
            http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
                if (error == null && response.statusCode() == 202) {
                    accepted.addAndGet(batch);
                    synchronized (micros) {
                        micros.recordValue(Math.max(1, (System.nanoTime() - sent) / 1000));
                    }
                } else {
                    failed.addAndGet(batch);
                }
                next();
            });
        }
    }
}
