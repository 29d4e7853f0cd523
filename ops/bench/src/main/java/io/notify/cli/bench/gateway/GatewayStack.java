package io.notify.cli.bench.gateway;

import io.notify.cli.bench.PrometheusText;
import io.notify.platform.PlatformStack;
import io.notify.platform.QueryApi;
import io.notify.platform.ServiceProcess;
import io.notify.platform.StackOptions;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The system under test of the gateway benchmarks: a {@link PlatformStack} with one fanout-streams
 * instance (query API) and one gateway node (or several, for {@code bench connections --gateways})
 * each in a JVM of its own, so that its heap and RSS are its alone, plus the gateways' metrics as
 * the benches read them. {@link #close} stops everything.
 */
final class GatewayStack implements AutoCloseable {

    /** What the gateway nodes and the fanout-streams instance are told beyond the defaults. */
    record Options(String gatewayHeap, long handshakeRate, int handshakeBurst, Path work, int gateways,
                   Map<String, String> settings, Map<String, String> fanoutSettings) {

        Options(String gatewayHeap, long handshakeRate, int handshakeBurst, Path work, int gateways, FleetOptions fleet) {
            this(gatewayHeap, handshakeRate, handshakeBurst, work, gateways, fleet.gatewaySettings, fleet.fanoutSettings);
        }
    }

    private final PlatformStack platform;

    private GatewayStack(PlatformStack platform) {
        this.platform = platform;
    }

    static GatewayStack start(Options o, Consumer<String> progress) throws Exception {
        return new GatewayStack(PlatformStack.start(StackOptions.of(o.work(), 1, o.gateways()).withGatewayHeap(o.gatewayHeap())
                .withGatewaySettings(settings(o)).withFanoutSettings(o.fanoutSettings()), progress));
    }

    private static Map<String, String> settings(Options o) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("notify.gateway.handshake-rate", Long.toString(o.handshakeRate()));
        s.put("notify.gateway.handshake-burst", Integer.toString(o.handshakeBurst()));
        s.putAll(o.settings());
        return s;
    }

    private ServiceProcess gateway() {
        return platform.gateways().get(0);
    }

    /** The first gateway's /metrics, summed per sample name and label filter. */
    PrometheusText gatewayMetrics() throws IOException, InterruptedException {
        requireGateway();
        return PrometheusText.scrape(gateway());
    }

    /** {@code notify_gateway_connections} summed over every gateway node (each node's own gauge). */
    long gatewayConnections() throws IOException, InterruptedException {
        return connectionsPerNode().stream().mapToLong(Long::longValue).sum();
    }

    /** Each gateway node's own {@code notify_gateway_connections}, in node order. */
    List<Long> connectionsPerNode() throws IOException, InterruptedException {
        requireGateway();
        List<Long> out = new ArrayList<>();
        for (ServiceProcess g : platform.gateways()) {
            out.add((long) PrometheusText.scrape(g).sum("notify_gateway_connections"));
        }
        return out;
    }

    /** A sample (summed over its labels matching {@code labels}) of every gateway node's /metrics, summed over the nodes. */
    double sumOverNodes(String name, String... labels) throws IOException, InterruptedException {
        return PrometheusText.sum(gatewayScrapes(), name, labels);
    }

    /** The fanout-streams instance's /metrics now. */
    PrometheusText fanoutMetrics() throws IOException, InterruptedException {
        return PrometheusText.scrape(platform.fanouts().get(0));
    }

    /** A dev client token of this stack for {@code user}. */
    String token(String user) {
        return platform.keys().token(user, Duration.ofHours(2));
    }

    /** Every gateway node's /metrics now, in node order. */
    List<PrometheusText> gatewayScrapes() throws IOException, InterruptedException {
        requireGateway();
        List<PrometheusText> scrapes = new ArrayList<>();
        for (ServiceProcess g : platform.gateways()) {
            scrapes.add(PrometheusText.scrape(g));
        }
        return scrapes;
    }

    /** Starts one more gateway node and waits until it is ready; returns its client port. */
    int addGateway() throws IOException, InterruptedException {
        return platform.addGateway().port();
    }

    /**
     * Waits until the gateways' own connection gauges add up to {@code n}, within {@code bound};
     * returns the sum (which differs from {@code n} only when the bound passed).
     */
    long awaitGatewayConnections(long n, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        long held;
        do {
            held = gatewayConnections();
            if (held == n) {
                return held;
            }
            TimeUnit.MILLISECONDS.sleep(200); // poll interval of a bounded wait on the gateway's gauge
        } while (System.nanoTime() - deadline < 0);
        return held;
    }

    void requireGateway() throws IOException {
        for (ServiceProcess g : platform.gateways()) {
            if (!g.isAlive()) {
                throw new IOException("gateway " + g.name() + " exited; see " + g.logFile());
            }
        }
    }

    long gatewayPid() {
        return gateway().pid();
    }

    int gatewayPort() {
        return gateway().port();
    }

    List<Long> gatewayPids() {
        return platform.gateways().stream().map(ServiceProcess::pid).toList();
    }

    List<Integer> gatewayPorts() {
        return platform.gateways().stream().map(ServiceProcess::port).toList();
    }

    /** The query API of the stack's fanout-streams instance, with the stack's service token. */
    QueryApi queryApi() {
        return platform.queryApi(platform.fanouts().get(0));
    }

    String bootstrapServers() {
        return platform.bootstrapServers();
    }

    TopicCatalog topics() {
        return platform.topics();
    }

    @Override
    public void close() {
        platform.close();
    }
}
