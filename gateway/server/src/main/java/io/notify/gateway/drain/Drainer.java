package io.notify.gateway.drain;

import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.session.Session;
import io.notify.gateway.session.SessionTable;
import io.notify.protocol.frame.CloseCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a node out of service without a reconnect storm (docs/gateway.md, "Drain (SIGTERM)"): from
 * {@link #drain} on, the node is not ready and refuses handshakes (503); its N connections are
 * closed with 1001 (WebSocket; SSE ends with a {@code retry:} hint), the i-th at
 * {@code window × i / N}, so clients arrive at other nodes at an even rate; connections opened
 * during the drain are closed at its end. Each close unregisters its connection. {@link #drain}
 * returns when every connection is gone, or at {@code window + grace} at the latest.
 */
public final class Drainer {

    private static final Logger LOG = LoggerFactory.getLogger(Drainer.class);
    private static final long STEP_MS = 20;

    private final SessionTable table;
    private final GatewayMetrics metrics;
    private final ScheduledExecutorService timer;
    private final AtomicBoolean draining = new AtomicBoolean();

    public Drainer(SessionTable table, GatewayMetrics metrics, ScheduledExecutorService timer) {
        this.table = table;
        this.metrics = metrics;
        this.timer = timer;
    }

    public boolean draining() {
        return draining.get();
    }

    /** Blocks the caller (a shutdown hook, never an I/O thread) for at most {@code window + grace}. */
    public DrainReport drain(Duration window, Duration grace) {
        long start = System.nanoTime();
        if (!draining.compareAndSet(false, true)) {
            return new DrainReport(0, 0, table.size() == 0);
        }
        List<Session> sessions = new ArrayList<>(table.all());
        int total = sessions.size();
        metrics.drainRemaining(total);
        LOG.info("draining {} connections over {} ms", total, window.toMillis());
        CompletableFuture<Void> done = new CompletableFuture<>();
        int[] closed = {0};
        ScheduledFuture<?> stepper = timer.scheduleAtFixedRate(() -> {
            long elapsed = System.nanoTime() - start;
            // the i-th connection closes at window * i / total
            while (closed[0] < total && (window.isZero() || elapsed >= window.toNanos() * closed[0] / total)) {
                sessions.get(closed[0]++).close(CloseCode.GOING_AWAY);
                metrics.drainClosed();
            }
            if (closed[0] == total) {
                table.all().forEach(s -> {
                    if (s.transport().isOpen()) {
                        s.close(CloseCode.GOING_AWAY); // opened while the drain began
                    }
                });
            }
            metrics.drainRemaining(table.size());
            if (closed[0] == total && table.size() == 0) {
                done.complete(null);
            }
        }, 0, STEP_MS, TimeUnit.MILLISECONDS);
        boolean complete = false;
        try {
            done.get(window.plus(grace).toMillis(), TimeUnit.MILLISECONDS);
            complete = true;
        } catch (TimeoutException e) {
            LOG.warn("drain deadline reached with {} connections still open", table.size());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.error("drain failed", e.getCause());
        } finally {
            stepper.cancel(false);
        }
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        LOG.info("drain closed {} connections in {} ms (complete: {})", total, took, complete);
        return new DrainReport(total, took, complete);
    }
}
