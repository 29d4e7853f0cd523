package io.notify.cli.bench.gateway;

import io.notify.cli.bench.report.ProgressBar;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.common.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl bench rebalance}: how long load takes to even out when a node joins a loaded
 * fleet, with connection recycling (docs/gateway.md, "Connection recycling"). The clients sit
 * behind a simulated load balancer: each attempt goes to one of the nodes it knows at random, and a
 * client closed outside a phase reconnects with its position after the SDK's delay (0–1 s for
 * 4010). {@code --nodes} nodes get the clients; then one more node starts, the balancer adds it
 * once it is ready (t = 0), and each node's own connection gauge is sampled once a second until
 * every node has held its share within {@code --tolerance} for {@code --stable} samples in a row,
 * or {@code --observe} has passed. With {@code --lifetime 0s} (recycling off, the default of a
 * node) this is the baseline: the new node gets only the connections that happen to drop.
 */
@Command(name = "rebalance", mixinStandardHelpOptions = true,
        description = "A node joins loaded ones: time until connections are even across the nodes, with connection recycling.")
public final class RebalanceBench implements Callable<Integer> {

    @Option(names = "--clients", description = "Clients (distinct users, one WebSocket each) (default: ${DEFAULT-VALUE}).",
            defaultValue = "6000")
    int clients;

    @Option(names = "--nodes", description = "Nodes holding the clients before one more joins (default: ${DEFAULT-VALUE}).",
            defaultValue = "2")
    int nodes;

    @Option(names = "--lifetime", description = "notify.gateway.max-connection-lifetime of every node: 0s (off) or 1m..30d "
            + "(default: ${DEFAULT-VALUE}).", defaultValue = "1m")
    String lifetime;

    @Option(names = "--jitter", description = "notify.gateway.connection-lifetime-jitter (default: the node's own, a fifth of "
            + "the lifetime).")
    String jitter;

    @Option(names = "--rate", description = "Rate of the initial connect, /s (default: ${DEFAULT-VALUE}).", defaultValue = "1000")
    double rate;

    @Option(names = "--tolerance", description = "Even = every node within this fraction of its share (default: ${DEFAULT-VALUE}).",
            defaultValue = "0.1")
    double tolerance;

    @Option(names = "--stable", description = "Even for this many 1 s samples in a row (default: ${DEFAULT-VALUE}).",
            defaultValue = "5")
    int stable;

    @Option(names = "--observe", description = "Longest observation after the join (default: ${DEFAULT-VALUE}).",
            defaultValue = "5m")
    String observe;

    @Mixin
    FleetOptions agents;

    @Override
    public Integer call() throws Exception {
        if (clients < 3 || nodes < 1 || nodes > 15 || rate <= 0 || tolerance <= 0 || stable < 1 || !agents.valid()) {
            System.err.println("--clients >= 3, --nodes 1..15, --rate > 0, --tolerance > 0, --stable >= 1, "
                    + "--clients-per-agent 1..19000, --source-addresses 1..250");
            return 2;
        }
        Duration observeFor = Settings.parseDurationArg("--observe", observe);
        Map<String, String> gatewaySettings = new LinkedHashMap<>();
        gatewaySettings.put("notify.gateway.max-connection-lifetime", lifetime);
        if (jitter != null) {
            gatewaySettings.put("notify.gateway.connection-lifetime-jitter", jitter);
        }
        gatewaySettings.putAll(agents.gatewaySettings);
        Duration connectBound = Duration.ofSeconds((long) (clients / rate * 10) + 60);
        Path work = Files.createTempDirectory("notify-bench-rebalance-");
        List<String> notes = new ArrayList<>();
        progress("work dir " + work);
        try (GatewayStack stack = GatewayStack.start(new GatewayStack.Options(agents.gatewayHeap, 1_000_000, 1_000_000, work, nodes,
                gatewaySettings, agents.fanoutSettings), RebalanceBench::progress)) {
            List<String> sources = AgentFleet.sourceAddresses(agents.sourceAddresses);
            Duration agentLifetime = connectBound.plus(observeFor).plusSeconds(900);
            try (AgentFleet fleet = AgentFleet.startBalanced("127.0.0.1", stack.gatewayPorts(), "ws", work, clients, agents.perAgent,
                    sources, agentLifetime, "512m")) {
                progress(String.format("connecting %,d clients over %d node(s) at %,.0f/s", clients, nodes, rate));
                BenchMath.Ramp initial = BenchMath.ramp(fleet.open(clients, rate, 500, connectBound));
                long connected = System.nanoTime();
                fleet.hold(true);
                progress(String.format("%,d connected in %.1f s; per node %s", initial.established(), initial.seconds(),
                        stack.connectionsPerNode()));
                double recycledBefore = stack.sumOverNodes("notify_gateway_recycled_total");
                long reconnectsBefore = reconnects(fleet);
                progress("starting one more gateway node");
                List<Integer> ports = new ArrayList<>(stack.gatewayPorts());
                ports.add(stack.addGateway());
                fleet.targets(ports);
                double joinedAfter = (System.nanoTime() - connected) / 1e9;
                List<RebalanceReport.Sample> samples = observe(stack, observeFor);
                RebalanceReport report = RebalanceReport.of(settings(sources, gatewaySettings), initial, joinedAfter, samples,
                        tolerance, stable,
                        (long) (stack.sumOverNodes("notify_gateway_recycled_total") - recycledBefore),
                        reconnects(fleet) - reconnectsBefore, notes);
                notes.add("t = 0 when the new node answered /readyz and the simulated load balancer added it; connections = each "
                        + "node's own notify_gateway_connections gauge; spread = the largest deviation of a node from total/nodes, "
                        + "as a fraction of that share");
                report.print(System.out);
                System.err.println("wrote " + ResultFiles.write(agents.results.out(), "rebalance", report.at(), report, report.chart()));
            }
        } catch (Exception e) {
            System.err.println("bench rebalance failed: " + e.getMessage() + "\n  logs kept in " + work);
            return 1;
        }
        ResultFiles.deleteTree(work);
        return 0;
    }

    /** Samples every node's gauge once a second until even for {@code --stable} samples in a row, or {@code bound}. */
    private List<RebalanceReport.Sample> observe(GatewayStack stack, Duration bound) throws Exception {
        List<RebalanceReport.Sample> samples = new ArrayList<>();
        long t0 = System.nanoTime();
        long next = t0;
        try (ProgressBar p = ProgressBar.start(Duration.ofSeconds(5)).track(
                () -> Math.min(1.0, (System.nanoTime() - t0) / (double) bound.toNanos()),
                () -> samples.isEmpty() ? "waiting for the first sample" : "per node " + samples.get(samples.size() - 1).perNode())) {
            while (System.nanoTime() - t0 < bound.toNanos()) {
                samples.add(new RebalanceReport.Sample((System.nanoTime() - t0) / 1e9, stack.connectionsPerNode()));
                if (!Double.isNaN(RebalanceReport.evenAfter(samples, tolerance, stable))) {
                    break;
                }
                next += 1_000_000_000L;
                Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000)); // the 1 s sampling period
            }
        }
        return samples;
    }

    private static long reconnects(AgentFleet fleet) throws Exception {
        return fleet.counts().stream().mapToLong(LoadAgent.Counts::reconnects).sum();
    }

    private Map<String, Object> settings(List<String> sources, Map<String, String> gatewaySettings) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("clients", clients);
        s.put("nodes", nodes);
        s.put("lifetime", lifetime);
        s.put("jitter", jitter == null ? "a fifth of the lifetime (the node's default)" : jitter);
        s.put("rate", rate);
        s.put("tolerance", tolerance);
        s.put("stableSamples", stable);
        s.put("observe", observe);
        s.put("loadAgents", AgentFleet.split(clients, agents.perAgent).size());
        s.put("sourceAddresses", sources.size());
        s.put("gatewayJvm", agents.gatewayJvm());
        s.put("gatewaySettings", gatewaySettings);
        s.put("fanoutSettings", agents.fanoutSettings);
        return s;
    }

    private static void progress(String line) {
        System.err.println("bench rebalance: " + line);
    }
}
