package io.notify.cli.bench.gateway;

import io.notify.cli.bench.LatencySummary;
import io.notify.cli.bench.PrometheusText;
import io.notify.cli.bench.pipeline.HopBudget;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.common.config.Settings;
import io.notify.gateway.disconnect.Disconnect;
import io.notify.protocol.stream.StreamId;
import java.io.PrintStream;
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
 * {@code notifyctl bench rooms}: one room (or {@code b:all}) with many subscribers, fed at a steady
 * rate: how many frames the gateways write per second and how late, what each event costs the router
 * (Kafka messages, Redis reads), and whether every subscriber got every event once, in order. With
 * {@code --churn-rate}, more clients subscribe and unsubscribe meanwhile, and only the steady
 * subscribers are checked (docs/BENCHMARKS.md, "Rooms").
 */
@Command(name = "rooms", mixinStandardHelpOptions = true,
        description = "Broadcast / room fan-out: frames/s and latency at the gateways, Kafka messages and Redis reads per event, "
                + "per-subscriber check; optional subscription churn.")
public final class RoomsBench implements Callable<Integer> {

    @Option(names = "--subscribers", description = "Connections, each subscribed to the stream (default: ${DEFAULT-VALUE}).",
            defaultValue = "15000")
    int subscribers;

    @Option(names = "--stream", description = "b:all or r:<room> (default: ${DEFAULT-VALUE}).", defaultValue = "b:all")
    String stream;

    @Option(names = "--gateways", description = "Gateway nodes sharing the subscribers (default: ${DEFAULT-VALUE}).", defaultValue = "1")
    int gateways;

    @Option(names = "--rate", description = "Events/s published to the stream (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    double rate;

    @Option(names = "--duration", description = "How long to publish (default: ${DEFAULT-VALUE}).", defaultValue = "20s")
    String duration;

    @Option(names = "--connect-rate", description = "New connections/s while ramping (default: ${DEFAULT-VALUE}).", defaultValue = "1500")
    double connectRate;

    @Option(names = "--churn-rate", description = "Subscribe + unsubscribe frames/s from extra clients while publishing "
            + "(default: ${DEFAULT-VALUE}).", defaultValue = "0")
    double churnRate;

    @Option(names = "--churners", description = "Extra clients doing the churn (default: ${DEFAULT-VALUE}).", defaultValue = "200")
    int churners;

    @Option(names = "--warmup", description = "How long a warm-up pass publishes before the others, at --warmup-rate; "
            + "it is printed but measures a JVM still compiling its hot paths (default: ${DEFAULT-VALUE}; 0s: none).",
            defaultValue = "10s")
    String warmup;

    @Option(names = "--warmup-rate", description = "Events/s of the warm-up pass (default: ${DEFAULT-VALUE}).", defaultValue = "2")
    double warmupRate;

    @Option(names = "--baseline-rate", description = "Events/s of the baseline pass run first on the same subscribers: the "
            + "latency floor of this stack and box (default: ${DEFAULT-VALUE}; 0: none).", defaultValue = "1")
    double baselineRate;

    @Option(names = "--baseline-duration", description = "How long the baseline pass publishes (default: ${DEFAULT-VALUE}).",
            defaultValue = "5s")
    String baselineDuration;

    @Mixin
    FleetOptions agents;

    /** One publishing pass over the subscribers. */
    record Pass(double rate, long published, long expectedFrames, long received, double seconds, double framesPerSecond,
                LatencySummary clientLatencyMs, double gatewayP50Ms, double gatewayP99Ms, double kafkaMessagesPerEvent,
                double redisReadsPerEvent, long missing, long extra, long duplicates, List<Integer> shortClients,
                Map<String, Double> closedByGateway, Churn.Tally churn, Map<String, Double> subscriptionOutcomes,
                List<HopBudget.Hop> hops) {

        void print(PrintStream out, String label) {
            out.printf("  %s: %,d events at %.0f/s%n", label, published, rate);
            out.printf("    frames             %,d of %,d expected, in %.1f s: %,.0f frames/s%n", received, expectedFrames, seconds,
                    framesPerSecond);
            out.printf("    latency (client)   p50 %.1f ms, p99 %.1f ms, max %.1f ms (publish -> frame parsed by the load agent)%n",
                    clientLatencyMs.p50(), clientLatencyMs.p99(), clientLatencyMs.max());
            out.printf("    latency (gateway)  p50 %.1f ms, p99 %.1f ms (ingested -> written to the socket; histogram buckets)%n",
                    gatewayP50Ms, gatewayP99Ms);
            out.println("    hops               " + HopBudget.line(hops) + " (dispatch = node topic polled -> written to the socket)");
            out.printf("    per event          %.2f Kafka delivery messages, %.3f Redis reads (router)%n", kafkaMessagesPerEvent,
                    redisReadsPerEvent);
            out.printf("    check              missing %,d, extra %,d, duplicates %,d%s%n", missing, extra, duplicates,
                    shortClients.isEmpty() ? "" : ", short clients e.g. " + shortClients);
            if (!closedByGateway.isEmpty()) {
                out.printf("    closed by gateway  %s (limits hit during the pass: a closed subscriber stops receiving; "
                        + "a real client would resume, the load agents do not)%n", closedByGateway);
            }
            if (churn != null) {
                out.printf("    churn              %,d subscribe/unsubscribe frames sent while publishing (%.0f/s), %,d answered "
                        + "(subscribed/unsubscribed), %,d refused, %,d sends failed; gateway outcomes %s%n", churn.sent(),
                        churn.sentPerSecond(), churn.answered(), churn.refused(), churn.failed(), subscriptionOutcomes);
            }
        }
    }

    /** What one run measured: the warm-up and baseline passes (null when off) and the measured pass. */
    record Report(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings, long subscribed,
                  Pass warmup, Pass baseline, Pass measured, List<String> notes) {

        void print(PrintStream out) {
            out.printf("bench rooms: %s to %,d subscribers on %s gateway(s)%n", settings.get("stream"), subscribed,
                    settings.get("gateways"));
            if (warmup != null) {
                warmup.print(out, "warm-up");
            }
            if (baseline != null) {
                baseline.print(out, "baseline");
            }
            measured.print(out, "measured");
            notes.forEach(n -> out.println("  note: " + n));
        }
    }

    @Override
    public Integer call() throws Exception {
        StreamId target;
        try {
            target = StreamId.parse(stream);
        } catch (IllegalArgumentException e) {
            return usage("--stream: " + e.getMessage());
        }
        if (target.isUser() || subscribers < 1 || rate <= 0 || gateways < 1 || gateways > 16 || !agents.valid()
                || churnRate < 0 || churners < 1) {
            return usage("--stream b:all|r:<room>, --subscribers >= 1, --rate > 0, --gateways 1..16, --churners >= 1");
        }
        Duration publishFor = Settings.parseDurationArg("--duration", duration);
        Duration warmFor = Settings.parseDurationArg("--warmup", warmup);
        if (warmupRate <= 0 && !warmFor.isZero()) {
            return usage("--warmup-rate > 0");
        }
        Path work = Files.createTempDirectory("notify-bench-rooms-");
        List<String> notes = new ArrayList<>();
        Map<String, String> gatewaySettings = new LinkedHashMap<>(agents.gatewaySettings);
        gatewaySettings.putIfAbsent("notify.gateway.rooms.public", "*");
        try (GatewayStack stack = GatewayStack.start(new GatewayStack.Options(agents.gatewayHeap, 1_000_000, 1_000_000, work,
                gateways, gatewaySettings, agents.fanoutSettings), s -> System.err.println("bench rooms: " + s))) {
            List<String> sources = AgentFleet.sourceAddresses(agents.sourceAddresses);
            Duration lifetime = publishFor.plusSeconds((long) (subscribers / connectRate) * 3 + 900);
            try (AgentFleet fleet = AgentFleet.start("127.0.0.1", stack.gatewayPorts(), "ws", work, subscribers, agents.perAgent,
                    sources, null, lifetime, "512m")) {
                Duration bound = Duration.ofSeconds((long) (subscribers / connectRate * 10) + 60);
                System.err.printf("bench rooms: opening %,d connections at %,.0f/s%n", subscribers, connectRate);
                BenchMath.Ramp ramp = BenchMath.ramp(fleet.open(subscribers, connectRate, 500, bound));
                System.err.printf("bench rooms: %,d established in %.1f s%n", ramp.established(), ramp.seconds());
                fleet.ask("subscribe " + target.value(), "subscribing", Duration.ofSeconds(30));
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                long answered = 0;
                while (System.nanoTime() - deadline < 0) {
                    answered = fleet.ask("subscribed", "subscribed", Duration.ofSeconds(30)).stream().mapToLong(Long::parseLong).sum();
                    if (answered >= ramp.established()) {
                        break;
                    }
                    Thread.sleep(500); // poll interval of a bounded wait for the subscribed answers
                }
                System.err.printf("bench rooms: %,d subscribed%n", answered);
                Pass warm = warmFor.isZero() ? null : pass(stack, fleet, target, answered, warmupRate, warmFor, "warm-up", 0);
                Pass baseline = baselineRate > 0
                        ? pass(stack, fleet, target, answered, baselineRate, Settings.parseDurationArg("--baseline-duration",
                        baselineDuration), "baseline", 0) : null;
                Pass measured = pass(stack, fleet, target, answered, rate, publishFor, "measured", churnRate);
                notes.add("frames/s = event frames the load agents parsed over the span from the first to the last; the "
                        + "agents share the 2 cores with the gateways, broker, fanout and Redis");
                notes.add("rooms are public for the bench (notify.gateway.rooms.public=*), so the agents' tokens need no rooms claim");
                Report report = new Report("rooms", Instant.now(), ResultFiles.machine(), settings(), answered, warm, baseline, measured,
                        notes);
                report.print(System.out);
                System.err.println("wrote " + ResultFiles.write(agents.results.out(), "rooms", report.at(), report));
            }
        } catch (Exception e) {
            System.err.println("bench rooms failed: " + e + "\n  logs kept in " + work);
            return 1;
        }
        ResultFiles.deleteTree(work);
        return 0;
    }

    /** Publishes at {@code rate} for {@code duration} (with churn when {@code churn > 0}), waits for the frames, measures. */
    private Pass pass(GatewayStack stack, AgentFleet fleet, StreamId target, long subscribed, double rate, Duration duration,
                      String label, double churn) throws Exception {
        System.err.printf("bench rooms: %s pass, %.0f events/s for %s%n", label, rate, duration);
        fleet.ask("reset", "reset", Duration.ofSeconds(30));
        long before = fleet.ask("room-verify 0", "verified", LoadAgent.Verified.class, Duration.ofSeconds(30)).stream()
                .mapToLong(LoadAgent.Verified::extra).sum(); // events each subscriber received before this pass
        List<PrometheusText> gatewaysBefore = stack.gatewayScrapes();
        PrometheusText fanoutBefore = stack.fanoutMetrics();
        long published;
        Churn.Tally churnTally = null;
        try (EventPublisher pub = new EventPublisher(stack.bootstrapServers(), stack.topics().events().name());
             Churn churner = churn > 0 ? Churn.start(stack, target, churners, churn) : null) {
            published = pub.publishPacedTo(rate, duration, target, label);
            if (churner != null) {
                churnTally = churner.stop(); // the churn runs while publishing, not through the wait for the last frames
            }
            long expected = published * subscribed;
            long waitUntil = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (received(fleet) < expected && System.nanoTime() - waitUntil < 0) {
                Thread.sleep(500); // poll interval of a bounded wait for the last frames
            }
        }
        List<PrometheusText> gatewaysAfter = stack.gatewayScrapes();
        PrometheusText fanoutAfter = stack.fanoutMetrics();
        List<LoadAgent.Counts> counts = fleet.counts();
        long first = counts.stream().filter(c -> c.events() > 0).mapToLong(LoadAgent.Counts::firstMs).min().orElse(0);
        long last = counts.stream().mapToLong(LoadAgent.Counts::lastMs).max().orElse(0);
        double seconds = (last - first) / 1000.0;
        long got = counts.stream().mapToLong(LoadAgent.Counts::events).sum();
        // each subscriber's room tally counts since it subscribed: this pass's events are what it got beyond the earlier ones
        List<LoadAgent.Verified> checks = fleet.ask("room-verify " + (published * subscribed + before) / Math.max(1, subscribed),
                "verified", LoadAgent.Verified.class, Duration.ofSeconds(30));
        List<Integer> shortClients = new ArrayList<>();
        checks.forEach(v -> shortClients.addAll(v.shortClients()));
        double kafka = delta(fanoutBefore, fanoutAfter, "notify_fanout_deliveries_total")
                + delta(fanoutBefore, fanoutAfter, "notify_fanout_all_nodes_total");
        double redis = delta(fanoutBefore, fanoutAfter, "notify_registry_lookups_total", "outcome", "miss")
                + delta(fanoutBefore, fanoutAfter, "notify_registry_prefetches_total", "outcome", "started");
        double[] gw = HopBudget.quantiles(gatewaysBefore, gatewaysAfter, "notify_gateway_delivery_latency_seconds");
        Map<String, Double> closed = new LinkedHashMap<>();
        for (Disconnect limit : Disconnect.values()) {
            double n = PrometheusText.sum(gatewaysAfter, "notify_gateway_limit_hits_total", "limit", limit.slug())
                    - PrometheusText.sum(gatewaysBefore, "notify_gateway_limit_hits_total", "limit", limit.slug());
            if (n > 0) {
                closed.put(limit.slug(), n);
            }
        }
        Map<String, Double> outcomes = new LinkedHashMap<>();
        for (String o : List.of("subscribed", "unsubscribed", "repeated", "refused_limit")) {
            outcomes.put(o, PrometheusText.sum(gatewaysAfter, "notify_gateway_subscription_requests_total", "outcome", o)
                    - PrometheusText.sum(gatewaysBefore, "notify_gateway_subscription_requests_total", "outcome", o));
        }
        return new Pass(rate, published, published * subscribed, got, seconds, BenchMath.rate(got, seconds), fleet.latency(),
                gw[0] * 1000, gw[1] * 1000, published == 0 ? 0 : kafka / published, published == 0 ? 0 : redis / published,
                checks.stream().mapToLong(LoadAgent.Verified::missing).sum(),
                checks.stream().mapToLong(LoadAgent.Verified::extra).sum(),
                checks.stream().mapToLong(LoadAgent.Verified::duplicates).sum(), shortClients, closed, churnTally, outcomes,
                HopBudget.between(gatewaysBefore, gatewaysAfter));
    }

    private static long received(AgentFleet fleet) throws Exception {
        return fleet.counts().stream().mapToLong(LoadAgent.Counts::events).sum();
    }

    private static double delta(PrometheusText before, PrometheusText after, String name, String... labels) {
        return after.sum(name, labels) - before.sum(name, labels);
    }

    private Map<String, Object> settings() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("stream", stream);
        s.put("subscribers", subscribers);
        s.put("gateways", gateways);
        s.put("rate", rate);
        s.put("duration", duration);
        s.put("connectRate", connectRate);
        s.put("churnRate", churnRate);
        s.put("churners", churners);
        s.put("warmup", warmup);
        s.put("warmupRate", warmupRate);
        s.put("baselineRate", baselineRate);
        s.put("baselineDuration", baselineDuration);
        s.put("clientsPerAgent", agents.perAgent);
        s.put("gatewayJvm", agents.gatewayJvm() + (agents.gatewaySettings.isEmpty() ? "" : "; " + agents.gatewaySettings));
        s.put("fanoutSettings", agents.fanoutSettings);
        return s;
    }

    private static int usage(String message) {
        System.err.println(message);
        return 2;
    }
}
