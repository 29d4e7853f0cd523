package io.notify.cli.bench.gateway;

import io.notify.cli.bench.LatencySummary;
import io.notify.cli.bench.PrometheusText;
import io.notify.cli.bench.pipeline.HopBudget;
import io.notify.cli.bench.report.ProgressBar;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.common.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl bench connections}: idle connections held by one gateway node (its own JVM), or
 * by several ({@code --gateways}, each its own JVM, the target split evenly), and what each costs:
 * heap after a full GC and RSS, sampled from outside (jcmd, /proc) at a baseline (after a warm-up),
 * at half the target and at the target, summed over the nodes; plus the ramp rate and, optionally,
 * delivered events/s to all the connected clients. Load agents are separate JVMs.
 */
@Command(name = "connections", mixinStandardHelpOptions = true,
        description = "Idle WebSocket/SSE connections on one gateway node: heap and RSS per connection, ramp rate.")
public final class ConnectionsBench implements Callable<Integer> {

    @Option(names = "--target", description = "Connections to hold (default: ${DEFAULT-VALUE}; capped by the gateway's open-files limit).",
            defaultValue = "15000")
    int target;

    @Option(names = "--rate", description = "Ramp rate, new connections/s in total (default: ${DEFAULT-VALUE}).", defaultValue = "2000")
    double rate;

    @Option(names = "--transport", description = "ws or sse (default: ${DEFAULT-VALUE}).", defaultValue = "ws")
    String transport;

    @Option(names = "--gateways", description = "Gateway nodes (JVMs) sharing the target evenly; memory is summed over them "
            + "(default: ${DEFAULT-VALUE}).", defaultValue = "1")
    int gateways;

    @Option(names = "--warmup", description = "Connections opened and closed before the baseline (default: ${DEFAULT-VALUE}).",
            defaultValue = "500")
    int warmup;

    @Option(names = "--max-pending", description = "Handshakes in flight per agent (default: ${DEFAULT-VALUE}).", defaultValue = "500")
    int maxPending;

    @Option(names = "--deliver-rate", description = "If > 0: then publish events/s to the connected users (default: ${DEFAULT-VALUE}).",
            defaultValue = "0")
    double deliverRate;

    @Option(names = "--deliver-duration", description = "How long to publish (default: ${DEFAULT-VALUE}).", defaultValue = "10s")
    String deliverDuration;

    @Option(names = "--settle", description = "Idle time after each ramp before memory is sampled, so every connection's start "
            + "(welcome, resume, the first recheck after recheck-after = 2s) is over (default: ${DEFAULT-VALUE}).", defaultValue = "5s")
    String settle;

    @Option(names = "--hold", description = "Keep the connections this long after measuring (default: ${DEFAULT-VALUE}).",
            defaultValue = "0s")
    String hold;

    @Mixin
    FleetOptions agents;

    private Duration settleFor = Duration.ZERO;

    @Override
    public Integer call() throws Exception {
        if (!transport.equals("ws") && !transport.equals("sse")) {
            return usage("--transport must be ws or sse");
        }
        if (target < 2 || rate <= 0 || !agents.valid()
                || maxPending < 1 || gateways < 1 || gateways > 16) {
            return usage("--target >= 2, --rate > 0, --clients-per-agent 1..19000 (20k open files per process), "
                    + "--max-pending >= 1, --source-addresses 1..250, --gateways 1..16");
        }
        if ((double) target / agents.sourceAddresses > 25_000) {
            return usage("--source-addresses: at most ~28k ephemeral ports per source address; use more addresses");
        }
        if (deliverRate > 0 && transport.equals("sse")) {
            return usage("--deliver-rate counts WebSocket event frames; use --transport ws");
        }
        Duration deliverFor = Settings.parseDurationArg("--deliver-duration", deliverDuration);
        Duration holdFor = Settings.parseDurationArg("--hold", hold);
        settleFor = Settings.parseDurationArg("--settle", settle);
        Duration rampBound = Duration.ofSeconds((long) (target / rate * 10) + 60);
        Path work = Files.createTempDirectory("notify-bench-connections-");
        List<String> notes = new ArrayList<>();
        System.err.println("bench connections: work dir " + work);
        try (GatewayStack stack = GatewayStack.start(new GatewayStack.Options(agents.gatewayHeap, 1_000_000, 1_000_000, work,
                gateways, agents), s -> System.err.println("bench connections: " + s))) {
            long pid = stack.gatewayPid();
            long limit = ProcessMemory.openFilesLimit(pid);
            long cap = limit < 0 ? Long.MAX_VALUE : (limit - ProcessMemory.openFiles(pid) - 300) * gateways;
            if (target > cap) {
                notes.add("target " + target + " capped to " + cap + " by the gateway's open-files limit " + limit
                        + (gateways > 1 ? " per node" : "") + " (one process holds at most ~19.9k sockets here; see INFRA-NOTES)");
                target = (int) cap;
            }
            warmup = Math.min(warmup, target);
            List<String> sources = AgentFleet.sourceAddresses(agents.sourceAddresses);
            Duration lifetime = rampBound.multipliedBy(3).plus(deliverFor).plus(holdFor).plusSeconds(900);
            System.err.printf("bench connections: %d load agents (JVMs), %d clients, %d gateway node(s), sources %s..%s%n",
                    AgentFleet.split(target, agents.perAgent, gateways).size(), target, gateways, sources.get(0),
                    sources.get(sources.size() - 1));
            try (AgentFleet fleet = AgentFleet.start("127.0.0.1", stack.gatewayPorts(), transport, work, target, agents.perAgent,
                    sources, null, lifetime, "512m")) {
                List<BenchMath.Ramp> ramps = new ArrayList<>();
                List<CpuPerClient> cpu = new ArrayList<>();
                ramps.add(ramp(stack, fleet, warmup, rampBound, "warm-up", cpu));
                fleet.closeAll();
                List<ConnectionsReport.Checkpoint> points = new ArrayList<>();
                points.add(checkpoint(stack, "baseline", 0, null));
                ramps.add(ramp(stack, fleet, target / 2, rampBound, "ramp to half", cpu));
                points.add(checkpoint(stack, "half", ramps.get(1).established(), null));
                ramps.add(ramp(stack, fleet, target, rampBound, "ramp to target", cpu));
                points.add(checkpoint(stack, "target", ramps.get(1).established() + ramps.get(2).established(), notes));
                ConnectionsReport.Delivery delivery = deliverRate > 0 ? deliver(stack, fleet, deliverFor) : null;
                if (holdFor.toMillis() > 0) {
                    System.err.println("bench connections: holding for " + holdFor);
                    Thread.sleep(holdFor.toMillis()); // the --hold the user asked for
                }
                long held = stack.gatewayConnections();
                double rampSeconds = ramps.get(1).seconds() + ramps.get(2).seconds();
                notes.add("heap = sum of 'used' in jcmd GC.heap_info after two jcmd GC.run (" + agents.gatewayJvm()
                        + "); RSS = VmRSS of /proc/<gateway pid>/status; connections = the gateway's own gauge"
                        + (gateways > 1 ? "; each summed over the " + gateways + " nodes" : ""));
                notes.add("kernel socket buffers are not in RSS; 'tcp mem' is /proc/net/sockstat TCP mem: machine-wide "
                        + "(every process on the box, both ends of each loopback connection), for information only");
                ConnectionsReport report = new ConnectionsReport("connections", Instant.now(), ResultFiles.machine(),
                        settings(sources, lifetime), points, ramps, cpu,
                        BenchMath.rate(ramps.get(1).established() + ramps.get(2).established(), rampSeconds),
                        ConnectionsReport.PerConnection.of(points.get(0), points.get(1), points.get(2),
                                ConnectionsReport.heapGoal(transport)), delivery, held, notes);
                report.print(System.out);
                System.err.println("wrote " + ResultFiles.write(agents.results.out(), "connections", report.at(), report, report.chart()));
            }
        } catch (Exception e) {
            System.err.println("bench connections failed: " + e.getMessage() + "\n  logs kept in " + work);
            return 1;
        }
        ResultFiles.deleteTree(work);
        return 0;
    }

    /** One ramp, and the CPU it cost per connection established (appended to {@code cpu}). */
    private BenchMath.Ramp ramp(GatewayStack stack, AgentFleet fleet, int wanted, Duration bound, String label,
                                List<CpuPerClient> cpu) throws Exception {
        CpuPerClient.Phase phase = CpuPerClient.start(stack.gatewayPids(), fleet.pids());
        System.err.printf("bench connections: %s: %,d connections at %,.0f/s%n", label, wanted, rate);
        List<PhaseReport> reports;
        try (ProgressBar p = ProgressBar.start(Duration.ofSeconds(2)).track(() -> (double) fleet.progress().open() / wanted, () -> {
            AgentProcess.Progress g = fleet.progress();
            return String.format("%s: %,d open, %,d established this phase, %,d failed attempts, %,d rejected",
                    label, g.open(), g.done(), g.failed(), g.rejected());
        })) {
            reports = fleet.open(wanted, rate, maxPending, bound);
        }
        BenchMath.Ramp r = BenchMath.ramp(reports);
        CpuPerClient c = phase.end(r.established());
        cpu.add(c);
        System.err.printf("bench connections: %s: %,d/%,d established in %.1f s (%,.0f/s), failures %s; CPU per connection: %s%n",
                label, r.established(), r.clients(), r.seconds(), r.connectionsPerSecond(), r.failures(), c.describe());
        return r;
    }

    /** Samples every node after full GCs and sums them; with {@code perNodeNotes}, notes each node's share there (several nodes only). */
    private ConnectionsReport.Checkpoint checkpoint(GatewayStack stack, String label, long expected, List<String> perNodeNotes)
            throws Exception {
        long held = stack.awaitGatewayConnections(expected, Duration.ofSeconds(60));
        Thread.sleep(settleFor.toMillis()); // the --settle: an idle connection is one whose start sequence is over
        long heap = 0;
        long committed = 0;
        long rss = 0;
        long fds = 0;
        long tcpMem = 0;
        List<String> nodes = new ArrayList<>();
        for (long pid : stack.gatewayPids()) {
            ProcessMemory.Sample s = ProcessMemory.sample(pid);
            heap += s.heapUsedBytes();
            committed += s.heapCommittedBytes();
            rss += s.rssBytes();
            fds += s.openFiles();
            tcpMem = s.tcpMemPages(); // machine-wide: the last sample's
            nodes.add(String.format("pid %d: %,d fds, heap %.1f MB, RSS %.1f MB", pid, s.openFiles(),
                    s.heapUsedBytes() / 1048576.0, s.rssBytes() / 1048576.0));
        }
        if (perNodeNotes != null && nodes.size() > 1) {
            perNodeNotes.add("per node at the " + label + ": " + nodes);
        }
        System.err.printf("bench connections: %s: %,d connections, heap %.1f MB, RSS %.1f MB, %,d fds%n", label, held,
                heap / 1048576.0, rss / 1048576.0, fds);
        return new ConnectionsReport.Checkpoint(label, held, heap, committed, rss, fds, tcpMem);
    }

    private ConnectionsReport.Delivery deliver(GatewayStack stack, AgentFleet fleet, Duration duration) throws Exception {
        System.err.printf("bench connections: delivering %,.0f events/s for %s to %,d users%n", deliverRate, duration, target);
        long published;
        LatencySummary acks;
        List<PrometheusText> before = stack.gatewayScrapes();
        try (EventPublisher pub = new EventPublisher(stack.bootstrapServers(), stack.topics().events().name());
             ProgressBar p = ProgressBar.start(Duration.ofSeconds(2)).track(
                     () -> fleet.progress().events() / Math.max(1, deliverRate * duration.toMillis() / 1000.0),
                     () -> String.format("delivery: %,d event frames received", fleet.progress().events()))) {
            published = pub.publishPaced(deliverRate, duration, i -> BenchUsers.user(i % target), "gd");
            acks = pub.ackLatency();
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (received(fleet.counts()) < published && System.nanoTime() - deadline < 0) {
                Thread.sleep(500); // poll interval of a bounded wait for the last deliveries
            }
        }
        List<HopBudget.Hop> hops = HopBudget.between(before, stack.gatewayScrapes());
        System.err.println("bench connections: delivery hops " + HopBudget.line(hops));
        List<LoadAgent.Counts> counts = fleet.counts();
        long first = counts.stream().filter(c -> c.events() > 0).mapToLong(LoadAgent.Counts::firstMs).min().orElse(0);
        long last = counts.stream().mapToLong(LoadAgent.Counts::lastMs).max().orElse(0);
        double seconds = (last - first) / 1000.0;
        long got = received(counts);
        List<LoadAgent.Verified> checks = fleet.verify(published, target);
        List<Integer> shortClients = new ArrayList<>();
        checks.forEach(v -> shortClients.addAll(v.shortClients()));
        return new ConnectionsReport.Delivery(deliverRate, published, got, seconds, BenchMath.rate(got, seconds),
                counts.stream().mapToLong(LoadAgent.Counts::droppedOutsidePhases).sum(),
                counts.stream().map(LoadAgent.Counts::latencyMs).toList(),
                checks.stream().mapToLong(LoadAgent.Verified::missing).sum(),
                checks.stream().mapToLong(LoadAgent.Verified::extra).sum(),
                checks.stream().mapToLong(LoadAgent.Verified::duplicates).sum(), shortClients, hops, acks);
    }

    private static long received(List<LoadAgent.Counts> counts) {
        return counts.stream().mapToLong(LoadAgent.Counts::events).sum();
    }

    private Map<String, Object> settings(List<String> sources, Duration lifetime) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("target", target);
        s.put("transport", transport);
        s.put("gateways", gateways);
        s.put("rate", rate);
        s.put("warmup", warmup);
        s.put("loadAgents", AgentFleet.split(target, agents.perAgent, gateways).size());
        s.put("clientsPerAgent", agents.perAgent);
        s.put("sourceAddresses", sources);
        s.put("maxPendingPerAgent", maxPending);
        s.put("gatewayJvm", agents.gatewayJvm()
                + "; handshake-rate 1000000/s (raised for the bench)"
                + (agents.gatewaySettings.isEmpty() ? "" : "; " + agents.gatewaySettings));
        s.put("fanoutSettings", agents.fanoutSettings);
        s.put("agentJvm", "-Xmx512m -XX:+UseParallelGC, one selector thread, lifetime bound " + lifetime);
        s.put("deliverRate", deliverRate);
        s.put("deliverDuration", deliverDuration);
        s.put("hold", hold);
        s.put("settle", settle);
        return s;
    }

    private static int usage(String message) {
        System.err.println(message);
        return 2;
    }
}
