package io.notify.cli.bench.gateway;

import io.notify.cli.bench.PrometheusText;
import io.notify.cli.stack.PlatformStack;
import io.notify.cli.stack.ServiceProcess;
import io.notify.cli.stack.StackOptions;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The system under test of the gateway benchmarks: a {@link PlatformStack} with one fanout-streams
 * instance (query API) and ONE gateway node in a JVM of its own, so that its heap and RSS are its
 * alone, plus the gateway's metrics as the benches read them. {@link #close} stops everything.
 */
final class GatewayStack implements AutoCloseable {

    /** What the gateway node is told beyond the defaults. */
    record Options(String gatewayHeap, long handshakeRate, int handshakeBurst, Path work) {
    }

    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();
    private final PlatformStack platform;

    private GatewayStack(PlatformStack platform) {
        this.platform = platform;
    }

    static GatewayStack start(Options o, Consumer<String> progress) throws Exception {
        return new GatewayStack(PlatformStack.start(StackOptions.of(o.work(), 1, 1).withGatewayHeap(o.gatewayHeap())
                .withGatewaySettings(Map.of(
                        "notify.gateway.handshake-rate", Long.toString(o.handshakeRate()),
                        "notify.gateway.handshake-burst", Integer.toString(o.handshakeBurst()))), progress));
    }

    private ServiceProcess gateway() {
        return platform.gateways().get(0);
    }

    /** The gateway's /metrics, summed per sample name and label filter. */
    PrometheusText gatewayMetrics() throws IOException, InterruptedException {
        requireGateway();
        return PrometheusText.scrape(gateway());
    }

    /**
     * Waits until the gateway's own connection gauge equals {@code n}, within {@code bound}; returns
     * the gauge (which differs from {@code n} only when the bound passed).
     */
    long awaitGatewayConnections(long n, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        long held;
        do {
            held = (long) gatewayMetrics().sum("notify_gateway_connections");
            if (held == n) {
                return held;
            }
            TimeUnit.MILLISECONDS.sleep(200); // poll interval of a bounded wait on the gateway's gauge
        } while (System.nanoTime() - deadline < 0);
        return held;
    }

    void requireGateway() throws IOException {
        if (!gateway().isAlive()) {
            throw new IOException("the gateway exited; see " + gateway().logFile());
        }
    }

    long gatewayPid() {
        return gateway().pid();
    }

    int gatewayPort() {
        return gateway().port();
    }

    int queryPort() {
        return platform.fanouts().get(0).port();
    }

    String bootstrapServers() {
        return platform.bootstrapServers();
    }

    TopicCatalog topics() {
        return platform.topics();
    }

    HttpClient http() {
        return http;
    }

    @Override
    public void close() {
        platform.close();
    }
}
