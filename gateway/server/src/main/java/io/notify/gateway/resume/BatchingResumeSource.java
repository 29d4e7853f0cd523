package io.notify.gateway.resume;

import io.notify.gateway.config.GatewayConfig.ResumeBatching;
import io.notify.gateway.metrics.GatewayMetrics;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Coalesces concurrent single-stream fetches (one per resuming session) into batched
 * {@link ResumeSource#fetchAll} calls of the delegate — for {@link HttpResumeSource}, one
 * {@code POST /v1/streams:events} per batch — so a reconnect storm costs a few requests, not one
 * per client (docs/gateway.md, "Resume batching").
 *
 * <p>A fetch waits in a bounded queue until one of: the queue holds a full batch (of distinct fetches) and a request slot
 * is free; {@code linger} has passed; a request slot frees up (whatever waited meanwhile goes at
 * once). Bounds, each enforced and counted in {@code resume_batch_bounds_total{bound}}: at most
 * {@code maxQueue} waiting fetches (more are answered {@link FetchResult.Failed} at once:
 * {@code queue_full}); at most {@code maxBatch} streams per request ({@code max_batch}: a batch sent full); at most
 * {@code maxInFlight} requests at a time ({@code in_flight}: a fetch that queued behind busy slots);
 * a request not answered within {@code timeout} fails its fetches and frees its slot
 * ({@code timeout}); a fetch that waited in the queue longer than {@code timeout}, or whose caller
 * stopped waiting, is not sent ({@code queue_wait}). A fetch its caller completed itself while it
 * waited (withdrawn: a session's head read made needless by an early {@code resume}) is not sent
 * either, and not counted.
 *
 * <p>Identical fetches (same stream, position and limit) waiting together go as one entry of the
 * request and share its answer ({@code resume_fetches_coalesced_total}): the subscribers of one room or
 * of {@code b:all} on a node stand at the same position, so their rechecks — all due at once when
 * they subscribed together — cost one entry, not one per connection. {@code maxBatch} counts
 * distinct entries.
 *
 * <p>Each fetch gets its own result: the delegate's answer for its stream, or a {@code Failed} of its
 * own, which the session retries with backoff exactly as before. Like every {@link ResumeSource} it
 * never completes exceptionally. Futures are completed outside this object's lock (callers hold
 * their session's lock while calling {@link #fetch}).
 */
public final class BatchingResumeSource implements ResumeSource {

    private record Waiter(FetchRequest request, CompletableFuture<FetchResult> result, long enqueuedNanos) {
    }

    /** One entry of a batch request: a fetch and the identical ones that wait for the same answer. */
    private record Entry(FetchRequest request, List<Waiter> waiters) {
    }

    /** What may go now (a slot reserved for each batch), and fetches that waited too long. */
    private record Ready(List<List<Entry>> batches, List<Waiter> expired) {
        static final Ready NONE = new Ready(List.of(), List.of());
    }

    private final ResumeSource delegate;
    private final int maxBatch;
    private final int maxInFlight;
    private final int maxQueue;
    private final long lingerNanos;
    private final Duration timeout;
    private final GatewayMetrics metrics;
    private final ScheduledExecutorService timer;
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
    private final Map<FetchRequest, Integer> distinct = new HashMap<>(); // the waiting fetches, by request: a full batch is maxBatch of these
    private int inFlight;
    private boolean flushScheduled;
    private boolean closed;

    /** @param timeout bound of one batch request, and of a fetch's wait in the queue */
    public BatchingResumeSource(ResumeSource delegate, ResumeBatching settings, Duration timeout, GatewayMetrics metrics) {
        this.delegate = delegate;
        this.maxBatch = settings.maxBatch();
        this.maxInFlight = settings.maxInFlight();
        this.maxQueue = settings.maxQueue();
        this.lingerNanos = settings.linger().toNanos();
        this.timeout = timeout;
        this.metrics = metrics;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gateway-resume-batcher");
            t.setDaemon(true);
            return t;
        });
        metrics.gauge("notify.gateway.resume.queue.depth", "Resume fetches waiting to be batched", this::queued);
        metrics.gauge("notify.gateway.resume.batches.in.flight", "Batched query API requests in flight", this::inFlight);
    }

    @Override
    public CompletionStage<FetchResult> fetch(FetchRequest request) {
        CompletableFuture<FetchResult> result = new CompletableFuture<>();
        Ready ready;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.completedFuture(new FetchResult.Failed(request.stream(), "gateway is stopping"));
            }
            if (queue.size() >= maxQueue) {
                metrics.resumeBatchBound("queue_full", 1);
                return CompletableFuture.completedFuture(new FetchResult.Failed(request.stream(),
                        "resume queue full (" + maxQueue + " waiting)"));
            }
            queue.add(new Waiter(request, result, System.nanoTime()));
            distinct.merge(request, 1, Integer::sum);
            if (inFlight >= maxInFlight) {
                metrics.resumeBatchBound("in_flight", 1);
            }
            ready = takeReady(lingerNanos == 0);
            if (!queue.isEmpty() && !flushScheduled && inFlight < maxInFlight) {
                flushScheduled = true;
                timer.schedule(this::lingerPassed, lingerNanos, TimeUnit.NANOSECONDS);
            }
        }
        send(ready);
        return result;
    }

    /** Several streams at once: each goes through the queue like a single fetch. */
    @Override
    public CompletionStage<List<FetchResult>> fetchAll(List<FetchRequest> requests) {
        List<CompletableFuture<FetchResult>> each = requests.stream().map(r -> fetch(r).toCompletableFuture()).toList();
        return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
                .thenApply(v -> each.stream().map(CompletableFuture::join).toList());
    }

    private void lingerPassed() {
        Ready ready;
        synchronized (this) {
            flushScheduled = false;
            ready = takeReady(true);
        }
        send(ready);
    }

    /**
     * Under the lock: takes the batches that may go now, reserving a slot for each. Full batches
     * always may; a partial one only when {@code partial} (linger passed, or a slot just freed).
     */
    private Ready takeReady(boolean partial) {
        List<List<Entry>> out = new ArrayList<>();
        List<Waiter> expired = new ArrayList<>();
        long now = System.nanoTime();
        int coalesced = 0;
        while (inFlight < maxInFlight && !queue.isEmpty() && (partial || distinct.size() >= maxBatch)) {
            Map<FetchRequest, Entry> batch = new LinkedHashMap<>();
            while (!queue.isEmpty() && (batch.size() < maxBatch || batch.containsKey(queue.peek().request()))) {
                Waiter w = queue.poll();
                distinct.computeIfPresent(w.request(), (r, n) -> n == 1 ? null : n - 1);
                if (w.result().isCompletedExceptionally() || now - w.enqueuedNanos() > timeout.toNanos()) {
                    expired.add(w);
                } else if (w.result().isDone()) {
                    continue; // withdrawn by its caller (a head read a resume made needless): dropped, not counted
                } else {
                    Entry same = batch.get(w.request());
                    if (same == null) {
                        batch.put(w.request(), new Entry(w.request(), new ArrayList<>(List.of(w))));
                    } else {
                        same.waiters().add(w);
                        coalesced++;
                    }
                }
            }
            if (!batch.isEmpty()) {
                if (batch.size() == maxBatch) {
                    metrics.resumeBatchBound("max_batch", 1);
                }
                inFlight++;
                out.add(List.copyOf(batch.values()));
            }
        }
        metrics.resumeBatchBound("queue_wait", expired.size());
        metrics.resumeCoalesced(coalesced);
        return out.isEmpty() && expired.isEmpty() ? Ready.NONE : new Ready(out, expired);
    }

    /** Outside the lock: sends each batch; its completion frees the slot and sends what waited. */
    private void send(Ready ready) {
        for (Waiter w : ready.expired()) {
            w.result().complete(new FetchResult.Failed(w.request().stream(),
                    "waited longer than " + timeout.toMillis() + " ms for a query API request"));
        }
        for (List<Entry> batch : ready.batches()) {
            metrics.resumeBatch(batch.size());
            List<FetchRequest> requests = batch.stream().map(Entry::request).toList();
            CompletableFuture<List<FetchResult>> call;
            try {
                call = delegate.fetchAll(requests).toCompletableFuture();
            } catch (RuntimeException e) {
                call = CompletableFuture.failedFuture(e);
            }
            call.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .whenComplete((results, error) -> answered(batch, results, error));
        }
    }

    private void answered(List<Entry> batch, List<FetchResult> results, Throwable error) {
        Ready ready;
        synchronized (this) {
            inFlight--;
            ready = closed ? Ready.NONE : takeReady(true);
        }
        if (error instanceof TimeoutException || error != null && error.getCause() instanceof TimeoutException) {
            metrics.resumeBatchBound("timeout", 1);
        }
        for (int i = 0; i < batch.size(); i++) {
            Entry e = batch.get(i);
            FetchResult r = results != null && results.size() == batch.size() ? results.get(i) : null;
            if (r == null || !r.stream().equals(e.request().stream())) {
                r = new FetchResult.Failed(e.request().stream(), error != null
                        ? "batch request failed: " + error : "batch answer does not match its requests");
            }
            for (Waiter w : e.waiters()) {
                w.result().complete(r); // results are immutable: the identical fetches share one
            }
        }
        send(ready);
    }

    synchronized int queued() {
        return queue.size();
    }

    synchronized int inFlight() {
        return inFlight;
    }

    @Override
    public void close() {
        List<Waiter> left;
        synchronized (this) {
            closed = true;
            left = new ArrayList<>(queue);
            queue.clear();
            distinct.clear();
        }
        left.forEach(w -> w.result().complete(new FetchResult.Failed(w.request().stream(), "gateway is stopping")));
        timer.shutdownNow();
        delegate.close();
    }
}
