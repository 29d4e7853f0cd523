package io.notify.gateway.admission;

import io.notify.gateway.metrics.GatewayMetrics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the node's I/O threads serving the connections it has while a storm of new ones arrives.
 *
 * <p>Every accepted socket becomes a task on an I/O thread, and an I/O thread runs all queued tasks
 * before it looks at its sockets again. Offered more handshakes than it can take, its queue grows:
 * the welcome of a connection accepted a moment ago waits behind thousands of handshakes, its
 * {@code resume} is not read for seconds, and connections that did everything on time are closed
 * (1002 resume_timeout). So this governor measures each I/O thread's lag — how long a task waits
 * before it runs, probed every {@code probeInterval} — and stops accepting while the worst lag is
 * above {@code maxLag}, until it is below a quarter of it. Connections not accepted meanwhile wait
 * in the kernel's accept queue ({@code accept-backlog}), then retry their SYN: a storm is taken at
 * the rate the node can serve, and no accepted connection is starved.
 *
 * <p>Counted: {@code accept_suspended_total} (suspensions), gauges {@code accept_suspended} (1
 * while suspended) and {@code io_lag_seconds} (the worst lag of the last probe).
 */
public final class AcceptGovernor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AcceptGovernor.class);

    /** How accepts are stopped and started again (Undertow's listener). */
    public interface Listener {
        void suspendAccepts();

        void resumeAccepts();
    }

    private final List<? extends Executor> ioThreads;
    private final Listener listener;
    private final long maxLagNanos;
    private final long probeIntervalNanos;
    private final GatewayMetrics metrics;
    private final AtomicLongArray sentAt; // per I/O thread: when the outstanding probe was sent; 0 = none
    private final AtomicLongArray lastLag;
    private final Thread thread;
    private volatile boolean suspended;
    private volatile long worstLagNanos;
    private volatile boolean running = true;

    public AcceptGovernor(List<? extends Executor> ioThreads, Listener listener, Duration maxLag, Duration probeInterval,
                          GatewayMetrics metrics) {
        this.ioThreads = List.copyOf(ioThreads);
        this.listener = listener;
        this.maxLagNanos = maxLag.toNanos();
        this.probeIntervalNanos = probeInterval.toNanos();
        this.metrics = metrics;
        this.sentAt = new AtomicLongArray(ioThreads.size());
        this.lastLag = new AtomicLongArray(ioThreads.size());
        metrics.gauge("notify.gateway.accept.suspended", "1 while the node does not accept connections (its I/O threads lag)",
                () -> suspended ? 1 : 0);
        metrics.gauge("notify.gateway.io.lag.seconds", "worst time a task waited for an I/O thread, last probe",
                () -> worstLagNanos / 1e9);
        this.thread = new Thread(this::run, "gateway-accept-governor");
        thread.setDaemon(true);
    }

    public AcceptGovernor start() {
        thread.start();
        return this;
    }

    public boolean suspended() {
        return suspended;
    }

    private void run() {
        while (running) {
            try {
                TimeUnit.NANOSECONDS.sleep(probeIntervalNanos);
                probe(System.nanoTime());
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("accept governor: {}", e.toString()); // keeps probing; accepts are resumed below if suspended
                resume();
            }
        }
    }

    /** One round: the worst lag seen (a probe still waiting counts by its age), then the decision. */
    void probe(long now) {
        long worst = 0;
        for (int i = 0; i < ioThreads.size(); i++) {
            long sent = sentAt.get(i);
            if (sent != 0) {
                worst = Math.max(worst, now - sent); // still queued: at least this late
                continue;
            }
            worst = Math.max(worst, lastLag.get(i));
            int index = i;
            sentAt.set(i, now);
            ioThreads.get(i).execute(() -> {
                lastLag.set(index, System.nanoTime() - sentAt.get(index));
                sentAt.set(index, 0);
            });
        }
        worstLagNanos = worst;
        if (!suspended && worst > maxLagNanos) {
            suspended = true;
            metrics.acceptSuspended();
            listener.suspendAccepts();
            LOG.debug("accepts suspended: I/O thread lag {} ms", worst / 1_000_000);
        } else if (suspended && worst < maxLagNanos / 4) {
            resume();
        }
    }

    private void resume() {
        if (suspended) {
            suspended = false;
            listener.resumeAccepts();
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
