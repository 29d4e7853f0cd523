package io.notify.cli.chaos;

import io.notify.cli.bench.PrometheusText;
import io.notify.platform.ServiceProcess;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a rolling restart looks like from the fleet, sampled every {@link #PERIOD_MS} ms on a thread
 * of its own while the gateways restart one after another: handshakes accepted and refused by every
 * node (from their {@code /metrics}; a restarted node's counters start again from zero), the peak
 * of accepted handshakes over any one-second window — the reconnect rate the drain produced — and
 * {@code /healthz} answers of the nodes that were not restarting at that moment (a failed one would
 * have been a liveness-probe restart in Kubernetes).
 */
final class RollingWatch implements AutoCloseable {

    static final long PERIOD_MS = 250;

    private final List<ServiceProcess> gateways;
    private final Thread thread;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private volatile ServiceProcess restarting;
    private final Map<String, double[]> last = new HashMap<>(); // per node: handshakes, refusals seen last
    private final Deque<long[]> window = new ArrayDeque<>(); // (time ms, handshakes in the sample)
    private long handshakes;
    private long refusals;
    private long peakPerSecond;
    private long livenessFailures;
    private long samples;

    RollingWatch(List<ServiceProcess> gateways) {
        this.gateways = List.copyOf(gateways);
        this.thread = new Thread(this::run, "rolling-watch");
        thread.setDaemon(true);
        sample(); // the baseline: counters before the first restart; what it counted is not the rollout's
        handshakes = 0;
        refusals = 0;
        peakPerSecond = 0;
        livenessFailures = 0;
        samples = 0;
        window.clear();
        thread.start();
    }

    /** The node being restarted now (null: none): its failed probes are expected, not counted. */
    void restarting(ServiceProcess node) {
        restarting = node;
    }

    private void run() {
        while (running.get()) {
            try {
                TimeUnit.MILLISECONDS.sleep(PERIOD_MS); // the sampling period
            } catch (InterruptedException e) {
                return;
            }
            sample();
        }
    }

    private synchronized void sample() {
        long now = System.nanoTime() / 1_000_000;
        long accepted = 0;
        for (ServiceProcess g : gateways) {
            boolean expectedDown = g == restarting;
            try {
                if (!expectedDown && g.get("/healthz").statusCode() != 200) {
                    livenessFailures++;
                }
                PrometheusText m = PrometheusText.scrape(g);
                double h = m.sum("notify_gateway_handshakes_total");
                double r = m.sum("notify_gateway_handshake_rejections_total");
                double[] prev = last.getOrDefault(g.name(), new double[] {0, 0});
                // a restarted node counts from zero again: what it shows is all new
                long dh = (long) (h >= prev[0] ? h - prev[0] : h);
                long dr = (long) (r >= prev[1] ? r - prev[1] : r);
                accepted += dh;
                refusals += dr;
                last.put(g.name(), new double[] {h, r});
            } catch (IOException notAnswering) {
                if (!expectedDown) {
                    livenessFailures++;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        samples++;
        handshakes += accepted;
        window.addLast(new long[] {now, accepted});
        while (!window.isEmpty() && window.peekFirst()[0] <= now - 1000) {
            window.removeFirst();
        }
        long inWindow = window.stream().mapToLong(w -> w[1]).sum();
        peakPerSecond = Math.max(peakPerSecond, inWindow);
    }

    /** Figures so far: handshakes, refusals, the one-second peak, liveness failures, samples. */
    synchronized Map<String, Object> figures() {
        return Map.of("handshakes", handshakes, "handshakeRefusals", refusals, "peakReconnectsPerSec", peakPerSecond,
                "livenessFailures", livenessFailures, "samples", samples);
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.interrupt();
        thread.join(5_000);
    }
}
