package io.notify.push.sender;

import io.notify.protocol.push.PushRegistration;
import io.notify.push.metrics.PushMetrics;
import io.notify.push.provider.PushMessage;
import io.notify.push.provider.PushProvider;
import io.notify.push.provider.PushResult;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;

/**
 * A provider with at most {@code max} pushes in flight (docs/push.md, "Bounds"): a push beyond that
 * waits in this provider's queue and starts when one completes, so one slow provider neither runs
 * the sender out of connections nor holds up the others. The queue is bounded by what the consumer
 * holds: it pauses its partitions while a batch is in flight. Thread-safe.
 */
final class InFlightLimit {

    private final PushProvider provider;
    private final int max;
    private final PushMetrics metrics;
    private final Queue<Runnable> waiting = new ArrayDeque<>();
    private int running;

    InFlightLimit(PushProvider provider, int max, PushMetrics metrics) {
        if (max < 1) {
            throw new IllegalArgumentException("max in flight must be >= 1");
        }
        this.provider = provider;
        this.max = max;
        this.metrics = metrics;
        metrics.inFlight(provider.name(), this::load);
    }

    private synchronized int load() {
        return running + waiting.size();
    }

    /** Sends when a slot is free; the stage completes with the provider's answer (never exceptionally). */
    CompletableFuture<PushResult> send(PushRegistration to, PushMessage message) {
        CompletableFuture<PushResult> result = new CompletableFuture<>();
        Runnable start = () -> {
            long t0 = System.nanoTime();
            CompletableFuture<PushResult> sent;
            try {
                sent = provider.send(to, message);
            } catch (RuntimeException e) { // a provider's bug must not leak a slot
                sent = CompletableFuture.completedFuture(new PushResult.Retry(0, "provider failed: " + e, null));
            }
            sent.whenComplete((r, error) -> {
                metrics.sendTime(provider.name(), System.nanoTime() - t0);
                release();
                result.complete(r != null ? r : new PushResult.Retry(0, "provider failed: " + error, null));
            });
        };
        boolean now;
        synchronized (this) {
            now = running < max;
            if (now) {
                running++;
            } else {
                waiting.add(start);
            }
        }
        if (now) {
            start.run();
        }
        return result;
    }

    private void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                running--;
            }
        }
        if (next != null) {
            next.run();
        }
    }
}
