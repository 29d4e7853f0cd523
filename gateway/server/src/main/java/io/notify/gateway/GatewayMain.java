package io.notify.gateway;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point: {@code java -cp ... io.notify.gateway.GatewayMain [key=value ...] [--config=FILE]}.
 * Wired by {@link GatewayService}; SIGTERM runs the drain (docs/gateway.md, "Drain"), so the process exits within
 * {@code drain-window + drain-grace} — set Kubernetes' terminationGracePeriodSeconds above that.
 */
public final class GatewayMain {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayMain.class);

    /**
     * The JVM options a gateway node runs with (besides {@code -Xmx}), chosen for RSS
     * (docs/gateway.md, "Sizing a node"): G1 gives memory back — committed heap stays within
     * 10–20 % free above what is live, and an idle node collects every 15 s — so a node's RSS is its
     * live heap plus a fixed part, not the high-water mark of its busiest minute. The common pool gets
     * two threads even on a 2-core machine: below two, CompletableFuture runs every async step on a
     * new thread, and the JDK's HttpClient completes each query-API answer that way (a thread per
     * resume batch, ~2,800 in a 15,000-connection ramp).
     */
    public static final List<String> JVM_OPTIONS = List.of("-XX:+UseG1GC", "-XX:MinHeapFreeRatio=10",
            "-XX:MaxHeapFreeRatio=20", "-XX:G1PeriodicGCInterval=15000",
            "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2");

    private GatewayMain() {
    }

    public static void main(String[] args) {
        GatewayServer server;
        try {
            server = GatewayService.fromSettings(Settings.fromArgs(args));
        } catch (ConfigException e) {
            System.err.println("notify-gateway: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LOG.info("drained: {}", server.drain()), "gateway-drain"));
    }
}
