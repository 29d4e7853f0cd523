package io.notify.cli.bench.gateway;

import io.notify.cli.bench.PrometheusText;
import io.notify.cli.bench.report.ProgressBar;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.common.config.Settings;
import io.notify.protocol.stream.Position;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * {@code notifyctl bench storm}: N clients with known positions on ONE gateway node all drop and
 * reconnect at once (or spread by full jitter), each resuming and expecting exactly the events it
 * missed. Per round: the clients disconnect, {@code --replay} events per user are published into
 * notify.events with a raw producer and waited for until sequenced (query API heads), then the
 * storm; the agents verify every client's seqs (lost, duplicates, gaps) and time each resume.
 */
@Command(name = "storm", mixinStandardHelpOptions = true,
        description = "Reconnect storm on one gateway node: resumes/s, time to 99%% resumed, rejections, lost/duplicates.")
public final class StormBench implements Callable<Integer> {

    @Option(names = "--clients", description = "Clients (distinct users) (default: ${DEFAULT-VALUE}).", defaultValue = "5000")
    int clients;

    @Option(names = "--replay", description = "Events each client misses per round (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    int replay;

    @Option(names = "--rounds", description = "Storms in a row; medians are reported (default: ${DEFAULT-VALUE}).", defaultValue = "3")
    int rounds;

    @Option(names = "--jitter", description = "0s: all reconnect at once; else each waits a random time below it "
            + "(full jitter) (default: ${DEFAULT-VALUE}).", defaultValue = "0s")
    String jitter;

    @Option(names = "--deadline", description = "Bound of one storm round (default: ${DEFAULT-VALUE}).", defaultValue = "300s")
    String deadline;

    @Option(names = "--connect-rate", description = "Rate of the initial (unmeasured) connect, /s (default: ${DEFAULT-VALUE}).",
            defaultValue = "2000")
    double connectRate;

    @Option(names = "--handshake-rate", description = "Gateway handshake-rate for the run, /s (default: ${DEFAULT-VALUE}; production default 500).",
            defaultValue = "10000")
    long handshakeRate;

    @Option(names = "--handshake-burst", description = "Gateway handshake-burst for the run (default: ${DEFAULT-VALUE}).",
            defaultValue = "2000")
    int handshakeBurst;

    @Mixin
    FleetOptions agents;

    @Override
    public Integer call() throws Exception {
        if (clients < 1 || replay < 1 || rounds < 1 || connectRate <= 0 || !agents.valid() || (double) clients / agents.sourceAddresses > 12_000) {
            System.err.println("--clients, --replay, --rounds >= 1; --connect-rate > 0; --clients-per-agent 1..19000; "
                    + "--source-addresses 1..250 with at most 12,000 clients each (every round leaves TIME_WAIT ports behind)");
            return 2;
        }
        Duration jitterWindow = Settings.parseDurationArg("--jitter", jitter);
        Duration roundBound = Settings.parseDurationArg("--deadline", deadline).plus(jitterWindow);
        Path work = Files.createTempDirectory("notify-bench-storm-");
        List<String> notes = new ArrayList<>();
        System.err.println("bench storm: work dir " + work);
        try (GatewayStack stack = GatewayStack.start(new GatewayStack.Options(agents.gatewayHeap, handshakeRate, handshakeBurst, work, 1,
                agents),
                StormBench::progress)) {
            long pid = stack.gatewayPid();
            long limit = ProcessMemory.openFilesLimit(pid);
            long cap = limit < 0 ? Long.MAX_VALUE : limit - ProcessMemory.openFiles(pid) - 300;
            if (clients > cap) {
                notes.add("clients " + clients + " capped to " + cap + " by the gateway's open-files limit " + limit);
                clients = (int) cap;
            }
            long[] expected = new long[clients];
            Map<Integer, Position> heads;
            try (EventPublisher pub = new EventPublisher(stack.bootstrapServers(), stack.topics().events().name())) {
                progress(String.format("publishing %d events to each of %,d users (their starting inboxes)", replay, clients));
                pub.publishEach(clients, replay, "gs0", roundBound);
                java.util.Arrays.fill(expected, replay);
                heads = InboxHeads.await(stack.queryApi(), clients, expected, roundBound, StormBench::progress);
                Path positions = work.resolve("positions.txt");
                writePositions(positions, heads);
                List<String> sources = AgentFleet.sourceAddresses(agents.sourceAddresses);
                Duration lifetime = roundBound.multipliedBy(rounds + 2L).plusSeconds(900);
                progress(String.format("%d load agents (JVMs), sources %s..%s", AgentFleet.split(clients, agents.perAgent).size(),
                        sources.get(0), sources.get(sources.size() - 1)));
                try (AgentFleet fleet = AgentFleet.start("127.0.0.1", stack.gatewayPort(), "ws", work, clients, agents.perAgent,
                        sources, positions, lifetime, "512m")) {
                    BenchMath.Ramp initial = connect(fleet, stack, notes);
                    List<StormReport.Round> results = new ArrayList<>();
                    for (int r = 1; r <= rounds; r++) {
                        results.add(round(r, stack, fleet, pub, expected, jitterWindow, roundBound, notes));
                    }
                    notes.add("resume = TCP connect + HTTP upgrade with JWT + registry + welcome + resume frame + replay of "
                            + replay + " events (the last one received); resumes/s = resumed clients / seconds from the "
                            + "storm start to the last resume; t99% = seconds until 99% of all clients had resumed");
                    notes.add("CPU per resume: from /proc over the round and the 1.5 s before its start (idle), so the µs are "
                            + "exact and 'busy' understates the storm's own; 'machine' is everything on the box (broker, Redis, "
                            + "fanout-streams' query API, agents, gateway); a fresh gateway's JIT warms up over the first rounds");
                    notes.add("refused handshakes (503) are retried after Retry-After plus full jitter (docs/protocol.md BACKOFF)");
                    if (!jitterWindow.isZero()) {
                        notes.add("with --jitter the arrival rate is at most clients / jitter window, so resumes/s measures the "
                                + "spread, not the node; compare the per-client resume latency (p50/p99) with the at-once run");
                    }
                    StormReport report = StormReport.of(settings(sources), initial, results, notes);
                    report.print(System.out);
                    System.err.println("wrote " + ResultFiles.write(agents.results.out(), "storm", report.at(), report, report.charts()));
                    if (!report.correct()) {
                        System.err.println("bench storm: lost, duplicate or missing events; logs kept in " + work);
                        return 1;
                    }
                }
            }
        } catch (Exception e) {
            System.err.println("bench storm failed: " + e.getMessage() + "\n  logs kept in " + work);
            return 1;
        }
        ResultFiles.deleteTree(work);
        return 0;
    }

    private BenchMath.Ramp connect(AgentFleet fleet, GatewayStack stack, List<String> notes) throws Exception {
        progress(String.format("connecting %,d clients at their inbox heads (%,.0f/s, not measured)", clients, connectRate));
        List<PhaseReport> reports;
        try (ProgressBar p = ProgressBar.start(Duration.ofSeconds(2)).track(() -> (double) fleet.progress().open() / clients,
                () -> String.format("connect: %,d open", fleet.progress().open()))) {
            reports = fleet.open(clients, connectRate, 1000, Duration.ofSeconds((long) (clients / connectRate * 10) + 60));
        }
        BenchMath.Ramp r = BenchMath.ramp(reports);
        if (r.established() < clients) {
            throw new IOException("only " + r.established() + " of " + clients + " clients connected: " + r.failures());
        }
        gauge(stack, clients, "after the initial connect", notes);
        return r;
    }

    private StormReport.Round round(int round, GatewayStack stack, AgentFleet fleet, EventPublisher pub, long[] expected,
                                    Duration jitterWindow, Duration bound, List<String> notes) throws Exception {
        progress("round " + round + ": all clients disconnect");
        fleet.closeAll();
        gauge(stack, 0, "round " + round + " after all clients disconnected", notes);
        progress(String.format("round %d: publishing %d missed events to each of %,d users", round, replay, clients));
        pub.publishEach(clients, replay, "gs" + round, bound);
        for (int u = 0; u < clients; u++) {
            expected[u] += replay;
        }
        InboxHeads.await(stack.queryApi(), clients, expected, bound, StormBench::progress);
        PrometheusText before = stack.gatewayMetrics();
        long t0 = System.currentTimeMillis() + 1500;
        progress("round " + round + ": storm");
        CpuPerClient.Phase cpu = CpuPerClient.start(stack.gatewayPids(), fleet.pids());
        List<PhaseReport> reports;
        try (ProgressBar p = ProgressBar.start(Duration.ofSeconds(2)).track(() -> (double) fleet.progress().done() / clients, () -> {
            AgentProcess.Progress g = fleet.progress();
            return String.format("round %d: %,d/%,d resumed, %,d failed attempts (%,d rejected 503)", round, g.done(),
                    clients, g.failed(), g.rejected());
        })) {
            reports = fleet.storm(t0, jitterWindow, replay, bound);
        }
        BenchMath.StormRound c = BenchMath.storm(reports, replay);
        CpuPerClient perResume = cpu.end(c.resumed());
        PrometheusText after = stack.gatewayMetrics();
        progress(String.format("round %d: %,d/%,d resumed, %,.0f resumes/s, t99 %.2f s, lost %d, duplicates %d, rejected %d; "
                        + "CPU per resume: %s", round, c.resumed(), c.clients(), c.resumesPerSecond(), c.secondsTo99(), c.lost(),
                c.duplicates(), c.rejected(), perResume.describe()));
        long queries = delta(before, after, "notify_gateway_query_latency_seconds_count");
        double querySeconds = after.sum("notify_gateway_query_latency_seconds_sum") - before.sum("notify_gateway_query_latency_seconds_sum");
        return new StormReport.Round(round, c,
                delta(before, after, "notify_gateway_handshake_rejections_total", "reason", "rate_limited"),
                delta(before, after, "notify_gateway_events_replayed_total"), queries,
                queries == 0 ? Double.NaN : querySeconds * 1000 / queries, perResume);
    }

    /** The gateway's own connection count should match the clients'; a mismatch is reported, not fatal. */
    private static void gauge(GatewayStack stack, long expected, String when, List<String> notes) throws Exception {
        long held = stack.awaitGatewayConnections(expected, Duration.ofSeconds(60));
        if (held != expected) {
            String n = "the gateway's connections gauge read " + held + " " + when + ", expected " + expected;
            progress("WARNING: " + n);
            notes.add(n);
        }
    }

    private static long delta(PrometheusText before, PrometheusText after, String name, String... labels) {
        return (long) (after.sum(name, labels) - before.sum(name, labels));
    }

    private static void writePositions(Path file, Map<Integer, Position> heads) throws IOException {
        StringBuilder b = new StringBuilder();
        heads.forEach((u, p) -> b.append(u).append(' ').append(p.epoch()).append(' ').append(p.seq()).append('\n'));
        Files.writeString(file, b, StandardCharsets.UTF_8);
    }

    private Map<String, Object> settings(List<String> sources) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("clients", clients);
        s.put("replay", replay);
        s.put("rounds", rounds);
        s.put("jitter", jitter);
        s.put("deadline", deadline);
        s.put("loadAgents", AgentFleet.split(clients, agents.perAgent).size());
        s.put("sourceAddresses", sources);
        s.put("gatewayJvm", agents.gatewayJvm());
        s.put("gatewayHandshakeRate", handshakeRate);
        s.put("gatewayHandshakeBurst", handshakeBurst);
        s.put("gatewaySettings", agents.gatewaySettings);
        s.put("fanoutSettings", agents.fanoutSettings);
        s.put("agentJvm", "-Xmx512m -XX:+UseParallelGC, one selector thread");
        return s;
    }

    private static void progress(String line) {
        System.err.println("bench storm: " + line);
    }
}
